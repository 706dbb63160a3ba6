// hdf5_dataset.h: a HostField as one dataset of an HDF5 file, written and read collectively
// by every rank of a World through parallel HDF5 (MPI-IO: H5Pset_fapl_mpio; the file is
// opened and the dataset and attributes made collectively, the data moves in independent
// transfers, one time slice each; a World without MPI uses HDF5's default POSIX driver, sec2,
// and the file is the same byte for byte), each rank its own time slices as a hyperslab. The
// gauge-field files (hdf5_file.h) and the gauge-transformation files (transform_file.h) are built
// on it.
//
// Dataset: shape [Lt, Lz, Ly, Lx, 4, N, N, 2] for a gauge field (ndir 4) and
// [Lt, Lz, Ly, Lx, N, N, 2] for g(x) (ndir 1): HostField's natural order, row-major
// matrices, (re, im) last; IEEE little-endian 64-bit (H5T_IEEE_F64LE) or 32-bit floats;
// contiguous, no filters. Parent groups are created. Attributes on the dataset, written by
// write_field_dataset itself (the reserved names):
//   lattice          int32[4]  Lx, Ly, Lz, Lt
//   nc               int32     N
//   bytes_per_real   int32     8 or 4
//   checksum         uint32    sum mod 2^32 of the stored data's 32-bit words taken as
//                              values (a 64-bit real: the low plus the high half of its bits;
//                              the NERSC rule, independent of the file's byte order)
//   layout           string    "t,z,y,x,mu,row,col,re|im" (without "mu," for ndir 1)
//   gaugefix_version string    GAUGEFIX_VERSION of the writer
// plus the caller's attributes (names not reserved, not empty; the values of rank 0 are
// written): strings (fixed-length UTF-8), numbers (IEEE 64-bit), integers (64-bit) and
// booleans (an enum of int8 with FALSE = 0, TRUE = 1: h5py reads it as numpy.bool_).
//
// write_field_dataset: collective. The output goes to the temporary file of a SlabFileWriter
// (parallel_file.h: check_output_path against inputs, rename only after every rank
// succeeded, removed on failure). The slabs of the ranks must tile the time direction.
// A device with less room than the file needs (data, metadata, attributes) is refused
// before HDF5 opens anything ("no space left on the device"); the file is closed, and the
// close checked, before the rename. Every HDF5 handle is owned by an object that closes it
// on every path, so none is open when the error reaches MPI_Finalize or MPI_Abort.
//
// read_field_dataset: collective; this rank's slab is decompose_time(lattice, world). Checks,
// each failure a gf::Error "HDF5 file '<path>': <check>: ...": the file opens as HDF5 (not
// HDF5, truncated, unreadable), the dataset exists, its datatype is a 32- or 64-bit float,
// its shape is the one above with N = 2 or 3, the lattice and nc attributes agree with the
// shape, the data reads, the checksum attribute exists and matches (warning only where
// asked), no NaN or Inf. SU(N) membership is the caller's check.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gf {

struct Hdf5Attributes {
  std::map<std::string, std::string> strings;
  std::map<std::string, double> numbers;
  std::map<std::string, long long> integers;
  std::map<std::string, bool> booleans;
};

void write_field_dataset(const std::string& path, const std::string& dataset, const HostField& slab,
                         int bytes_per_real, const Hdf5Attributes& attributes, const World& world,
                         const std::vector<std::string>& inputs);

struct Hdf5FieldData {
  HostField field; // this rank's slab, as stored (no reunitarisation)
  int bytes_per_real = 8;
  std::uint32_t stored_checksum = 0;
  std::uint32_t computed_checksum = 0;
  // Every attribute of the dataset as text (integers in decimal, floats as %.17g, booleans
  // true/false, arrays comma-separated), in name order.
  std::vector<std::pair<std::string, std::string>> attributes;
  // The scalar attributes by type.
  std::map<std::string, std::string> strings;
  std::map<std::string, double> numbers;
  std::map<std::string, long long> integers;
  std::map<std::string, bool> booleans;
};

// The scalar integer attribute `name` of `dataset`, read by this process alone, without the
// data (a header probe): nullopt where the dataset has no such attribute. Throws gf::Error
// naming the file where it does not open as HDF5, the dataset is missing, or the attribute
// is not one integer.
std::optional<long long> read_integer_attribute(const std::string& path, const std::string& dataset,
                                                const std::string& name);

// Whether path is an HDF5 file holding `dataset` (opened read-only by this rank alone).
bool hdf5_has_dataset(const std::string& path, const std::string& dataset);

Hdf5FieldData read_field_dataset(const std::string& path, const std::string& dataset, int ndir,
                                 const World& world, bool checksum_warning_only);

} // namespace gf
