// hdf5_file.h: gaugefix's own gauge configuration format, one HDF5 file written and read
// collectively by every rank with parallel HDF5 (MPI-IO; POSIX without MPI, hdf5_dataset.h),
// each rank its time slices.
//
// Layout: dataset "/gauge/links", shape [Lt, Lz, Ly, Lx, 4, N, N, 2] (t slowest; per site the
// links mu = x, y, z, t; row-major N x N complex matrices; re, im), IEEE little-endian
// 64-bit or 32-bit floats (WriteOptions::double_precision). Attributes on the dataset:
//   lattice, nc, bytes_per_real, checksum, layout, gaugefix_version (hdf5_dataset.h)
//   plaquette, link_trace   double, computed from the field as given (observables.h)
//   WriteOptions::provenance as typed attributes (hdf5_provenance.h)
//   every WriteOptions::metadata entry as a string attribute: the record of the run, e.g.
//   input, input_checksum and the options used (names other than the ones above).
// Writes go to a temporary file beside path, renamed once every rank succeeded
// (parallel_file.h); an output that is one of `inputs` is refused.
//
// read_hdf5 returns this rank's slab and checks, in this order, each failure a gf::Error
// "HDF5 file '<path>': <check>: ...": the checks of read_field_dataset (opens as HDF5,
// dataset /gauge/links exists, 32/64-bit float, shape, lattice/nc attributes, checksum
// attribute, no NaN/Inf), the types of the provenance attributes, SU(N) membership (1e-10 for
// 64-bit, 1e-5 for 32-bit data; field_checks.h), then plaquette and link_trace where stored, within
// 1e-12 (64-bit) or 1e-6 (32-bit). 32-bit data is reunitarised after the SU(N) check
// (FileInfo::reunitarised); 64-bit data is returned bit-exact. FileInfo: stored = every attribute
// as text, computed = checksum, plaquette, link_trace from the data; big_endian = false; provenance
// from the attributes of hdf5_provenance.h.
#pragma once
#include "comm/world.h"
#include "io/gauge_file_types.h"
#include "lattice/host_field.h"
#include <optional>
#include <string>
#include <vector>

namespace gf {

// The sequence_number attribute of /gauge/links (nullopt where absent), read by this process
// alone without the field: a header probe (hdf5_dataset.h, read_integer_attribute).
std::optional<long long> read_hdf5_sequence_number(const std::string& path);
HostField read_hdf5(const std::string& path, const World& world, const ReadOptions& opt = {},
                    FileInfo* info = nullptr);

void write_hdf5(const std::string& path, const HostField& slab, const WriteOptions& opt,
                const World& world, const std::vector<std::string>& inputs = {});

} // namespace gf
