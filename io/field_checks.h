// field_checks.h: checks every file reader runs on the links (or g(x)) it read.
// - slab_geometry: this rank's slab of a lattice read from a file (decompose_time); a
//   lattice that cannot be split over the ranks throws gf::Error "<file>: ...".
// - allocate_slab: a HostField of this rank's slab, after checking that it fits into this
//   machine's memory (host_memory.h): gf::Error "<file>: memory: ..." otherwise.
// - checked_sites: the number of sites of extents n[0..3] as a header states them, each
//   positive and at most 2^30 (an int), their product (and products with it, checked_product)
//   computed without overflow: gf::Error "<file>: <field>: ..." for a non-positive extent and
//   "<file>: size: ... overflows" where it would wrap.
// - file_bytes: the size of a file; gf::Error "<file>: cannot open: ..." where it has none.
// - check_in_su_n: every matrix of the field (all ranks) is in SU(N) within 1e-10 for 64-bit
//   data and 1e-5 for 32-bit data (unitarity_deviation, su_n.h); returns the maximum
//   deviation. Throws gf::Error "<file>: unitarity: links are not in SU(N): max deviation ..."
//   where it is larger, naming the limit and the precision. `file` names the file, e.g.
//   "HDF5 file 'cfg.h5'". Collective (every rank gets the same result or error).
// - checksum_mismatch: reports a stored checksum that differs from the computed one: an
//   Error, or with warning_only a warning on stderr (rank 0 only).
#pragma once
#include "comm/world.h"
#include "lattice/geometry.h"
#include "lattice/host_field.h"
#include <string>

namespace gf {

Geometry slab_geometry(const std::string& file, const int L[4], const World& world);
HostField allocate_slab(const std::string& file, const int L[4], int nc, int ndir,
                        const World& world);

std::int64_t checked_sites(const std::string& file, const std::string& field,
                           const std::int64_t n[4]);
std::int64_t checked_product(const std::string& file, std::int64_t a, std::int64_t b);
std::int64_t checked_sum(const std::string& file, std::int64_t a, std::int64_t b);
std::int64_t file_bytes(const std::string& file, const std::string& path);

double check_in_su_n(const std::string& file, const HostField& u, int bytes_per_real,
                     const World& world);

void checksum_mismatch(const std::string& file, const std::string& what, bool warning_only,
                       const World& world);

} // namespace gf
