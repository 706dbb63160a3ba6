// nersc.h: NERSC ("Gauge Connection") gauge configuration files, read and write.
//
// Format: an ASCII header of "KEY = VALUE" lines between a BEGIN_HEADER and an END_HEADER
// line, then the binary links: x fastest, then y, z, t; per site the links mu = x, y, z, t;
// each link row-major, complex numbers as (re, im). DATATYPE says what a link holds:
//   4D_SU3_GAUGE_3x3, 4D_SU2_GAUGE_2x2   all N rows
//   4D_SU3_GAUGE,     4D_SU2_GAUGE       the first N-1 rows; the last is rebuilt (su_n.h)
// FLOATING_POINT: IEEE32BIG, IEEE32LITTLE, IEEE64BIG, IEEE64LITTLE; IEEE32 and IEEE64 mean
// big-endian. Where FLOATING_POINT is missing, big-endian is assumed and the precision is
// the one whose data size matches the file (64-bit where neither does).
// CHECKSUM (hex) is the 32-bit unsigned sum of the stored data's 32-bit words taken as values
// (byte order undone): a 64-bit real contributes the low and the high half of its bits.
//
// read_nersc checks, in this order, and throws gf::Error naming the file and the check:
//   header structure (BEGIN_HEADER, END_HEADER, no repeated key), required keys
//   (DATATYPE, DIMENSION_1..4), known DATATYPE and FLOATING_POINT, file size = header +
//   data (truncated or too long), the provenance keys (nersc_provenance.h), CHECKSUM, SU(N)
//   membership (max unitarity_deviation at most 1e-10 for 64-bit data, 1e-5 for 32-bit
//   data), PLAQUETTE and LINK_TRACE.
//   CHECKSUM, PLAQUETTE and LINK_TRACE are checked where the header has them.
//   32-bit data is always reunitarised after the SU(N) check; 64-bit data is returned
//   exactly as stored. PLAQUETTE and LINK_TRACE (observables.h conventions) must match the
//   values computed from the returned field within
//     tolerance = (1e-10 for 64-bit, 1e-6 for 32-bit data)
//               + min(half a unit in the header value's last printed digit, 5e-7).
//
// Several ranks (comm/decomposition.h): read_nersc returns this rank's slab
// (decompose_time(dims, world)) and reads only the slab's byte range; the checksum is
// combined with World::sum_mod32, NaN/Inf, SU(N), PLAQUETTE and LINK_TRACE are checked on
// global values, so every rank passes or throws the same error.
//
// write_nersc: every rank passes its slab; the checksum, PLAQUETTE and LINK_TRACE are
// computed collectively, rank 0 writes the header and each rank its data at its offset,
// through SlabFileWriter (parallel_file.h): the file appears complete or not at all, and an
// output that is one of `inputs` is refused. WriteOptions: double_precision (IEEE64 or
// IEEE32), full_matrix (N x N, otherwise the first N-1 rows), provenance (the ENSEMBLE_*,
// SEQUENCE_NUMBER and GAUGE_FIXING_* lines of nersc_provenance.h); metadata keys used:
//   CREATOR (default "gaugefix"): a header value;
//   BYTE_ORDER: "big" (default, the NERSC convention) or "little";
// other keys have no place in a NERSC header and are not written. Header: HDR_VERSION,
// DATATYPE, STORAGE_FORMAT, DIMENSION_1..4, LINK_TRACE and PLAQUETTE (%.15f, computed from
// the field as given), CHECKSUM, BOUNDARY_1..4 = PERIODIC, the provenance lines,
// FLOATING_POINT, CREATOR, CREATION_DATE (UTC, from rank 0). A 64-bit file
// reads back with the stored rows bit-exact (all rows for full matrices), and the file does
// not depend on the number of ranks except for CREATION_DATE.
#pragma once
#include "comm/world.h"
#include "io/gauge_file_types.h"
#include "lattice/host_field.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gf {

struct NerscHeader {
  std::map<std::string, std::string> entries; // every KEY = VALUE line, both sides trimmed
  std::string datatype;                       // DATATYPE
  int nc = 3;                                 // 2 or 3
  int stored_rows = 2;                        // rows per link in the file: nc - 1 or nc
  int dims[4] = {0, 0, 0, 0};                 // DIMENSION_1..4: extents x, y, z, t
  std::string floating_point;                 // as given, or the assumed value
  bool floating_point_given = true;           // false where FLOATING_POINT was missing
  int bytes_per_real = 8;                     // 4 or 8
  bool big_endian = true;
  std::optional<std::uint32_t> checksum; // CHECKSUM
  std::optional<double> plaquette;       // PLAQUETTE
  std::optional<double> link_trace;      // LINK_TRACE
  std::int64_t header_bytes = 0;         // offset of the binary data
  std::int64_t data_bytes = 0;           // size of the binary data the header implies
};

// Parses and checks the header and the file size (all checks before CHECKSUM above).
NerscHeader read_nersc_header(const std::string& path);
// Reads this rank's slab and runs every check above. info (where given): the header's
// entries in stored, CHECKSUM, PLAQUETTE and LINK_TRACE computed from the data in computed,
// the provenance the header holds (nersc_provenance.h; a malformed value is an error).
HostField read_nersc(const std::string& path, const World& world, const ReadOptions& opt = {},
                     FileInfo* info = nullptr);
// slab: this rank's slab of a gauge field (ndir 4, nc 2 or 3); the slabs of the ranks, in
// rank order, tile the time direction.
void write_nersc(const std::string& path, const HostField& slab, const WriteOptions& opt,
                 const World& world, const std::vector<std::string>& inputs = {});

} // namespace gf
