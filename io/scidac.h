// scidac.h: what the SciDAC (QIO) LIME files of gauge fields (ildg.h) and of gauge
// transformations g(x) (transform_lime.h) share: record names, the private XML records,
// the checksum, and the structure checks of their readers.
//
// A SciDAC file (QIO's single-file format) is a LIME file (lime.h) of one file message
//   scidac-private-file-xml  <scidacFile>: version, spacetime (4), dims, volfmt (0)
//   scidac-file-xml          the writer's own XML (gaugefix: scidac_provenance.h)
// and one message per record
//   scidac-private-record-xml <scidacRecord>: version, date, recordtype (0: a field),
//                            datatype (e.g. QDP_D3_ColorMatrix), precision (F or D),
//                            colors, typesize (bytes per datum), datacount (data per site)
//   scidac-record-xml        the writer's own XML
//   ildg-format              (ILDG files only)
//   the binary data          big-endian, natural site order (x fastest), per site
//                            datacount data of typesize bytes
//   scidac-checksum          <scidacChecksum>: version, suma, sumb (hexadecimal)
// SciDAC checksum: for every site with global natural index r, c = CRC-32 (zlib) of the
// site's stored bytes; suma is the XOR of c rotated left by r mod 29, sumb of c rotated
// left by r mod 31.
//
// Readers' checks, each a gf::Error naming `source` (the file) and the record:
// - unique_lime_record: a record type given twice (values that could contradict);
// - parse_scidac_dims: spacetime 4, dims four extents (checked_sites, field_checks.h);
// - parse_scidac_record: precision F or D, datacount and typesize positive, typesize
//   2 N^2 bytes where colors N is given, a datatype of the form *_<P><N>_ColorMatrix agreeing
//   with precision and colors;
// - parse_scidac_checksum: suma and sumb 32-bit hexadecimal numbers;
// - check_scidac_checksum: a missing scidac-checksum record (nothing would verify the data;
//   a file cut before it) and a mismatch are errors, or warnings on rank 0 with
//   warning_only (ReadOptions::checksum_warning_only).
#pragma once
#include "comm/world.h"
#include "io/lime.h"
#include "lattice/host_field.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gf {

inline const char* const scidac_file_record = "scidac-private-file-xml";
inline const char* const scidac_user_file_record = "scidac-file-xml";
inline const char* const scidac_record_record = "scidac-private-record-xml";
inline const char* const scidac_user_record_record = "scidac-record-xml";
inline const char* const scidac_data_record = "scidac-binary-data";
inline const char* const scidac_checksum_record = "scidac-checksum";

struct ScidacSums {
  std::uint32_t a = 0, b = 0;
};

struct ScidacRecordInfo {
  std::string datatype; // "" where not given
  int bytes = 8;        // per real: F 4, D 8
  int colors = 0;       // 0 where not given
  std::int64_t typesize = 0;
  std::int64_t datacount = 0;
};

// Adds the CRCs of sites [first, first + n) (global natural index) at p to s.
void add_site_sums(const unsigned char* p, std::int64_t first, std::int64_t n,
                   std::int64_t site_bytes, ScidacSums& s);

// The checksums of the slices of this rank's slab (geom), combined over the ranks of `world`
// (collective): encode(t, buf) fills buf with local slice t as the file stores it,
// site_bytes per site.
template <class Encode>
ScidacSums slab_checksums(const Geometry& geom, std::int64_t site_bytes, const World& world,
                          Encode encode) {
  ScidacSums sums;
  std::vector<unsigned char> buf;
  for (int t = 0; t < geom.nt; ++t) {
    encode(t, buf);
    add_site_sums(buf.data(), (geom.t0 + t) * geom.v3, geom.v3, site_bytes, sums);
  }
  sums.a = world.bit_xor(sums.a);
  sums.b = world.bit_xor(sums.b);
  return sums;
}

// Reads this rank's slices of the binary record `data` of `path` into `slab`: per site
// site_bytes bytes, slab.ndir matrices of big-endian complex numbers with reals of `bytes`
// bytes. Returns their checksums combined over the ranks (collective); `finite` becomes false
// where a number read is not finite.
ScidacSums read_scidac_slab(const std::string& path, const LimeRecord& data, int bytes,
                            std::int64_t site_bytes, HostField& slab, bool& finite,
                            const World& world);

const LimeRecord* unique_lime_record(const std::vector<LimeRecord>& records,
                                     const std::string& type, const std::string& source);
void parse_scidac_dims(const std::string& source, const std::string& xml, int dims[4]);
ScidacRecordInfo parse_scidac_record(const std::string& source, const std::string& xml);
ScidacSums parse_scidac_checksum(const std::string& source, const std::string& xml);
void check_scidac_checksum(const std::string& source, const std::optional<ScidacSums>& stored,
                           const ScidacSums& computed, bool warning_only, const World& world);

// The XML text of the private records and the checksum, as gaugefix writes them.
std::string scidac_file_xml(const int dims[4]);
std::string scidac_record_xml(const ScidacRecordInfo& info, const std::string& date);
std::string scidac_checksum_xml(const ScidacSums& sums);
inline const char* const xml_declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

} // namespace gf
