// field_checks.h: checks every file reader runs on the links (or g(x)) it read.
// - slab_geometry: this rank's slab of a lattice read from a file (decompose_time); a
//   lattice that cannot be split over the ranks throws gf::Error "<file>: ...".
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

double check_in_su_n(const std::string& file, const HostField& u, int bytes_per_real,
                     const World& world);

void checksum_mismatch(const std::string& file, const std::string& what, bool warning_only,
                       const World& world);

} // namespace gf
