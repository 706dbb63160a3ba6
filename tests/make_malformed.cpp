// make_malformed KIND OUT N1 N2 N3 N4: writes a file whose header claims a lattice the file
// does not hold, for the readers' tests (tests/cli_readers.sh):
//   milc     OUT: a 96-byte MILC v5 header (little-endian) with dims N1..N4, no data
//   openqcd  OUT: a 24-byte openQCD header with N0..N3 = N1..N4, no data
//   hdf5     OUT: an HDF5 file whose dataset /gauge/links has the shape of an SU(3) field
//            of extents N1..N4 (x, y, z, t) and the attributes lattice, nc, bytes_per_real
//            and checksum, but whose data was never written (no storage in the file)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <hdf5.h>
#include <string>

namespace {

void put32(unsigned char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    p[i] = static_cast<unsigned char>(v >> (8 * i)); // little-endian
}

int write_bytes(const char* path, const unsigned char* b, std::size_t n) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(b), static_cast<std::streamsize>(n));
  return out ? 0 : 1;
}

int hdf5_unstored(const char* path, const long long n[4]) {
  const hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t g = H5Gcreate2(f, "/gauge", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t dims[8] = {hsize_t(n[3]), hsize_t(n[2]), hsize_t(n[1]), hsize_t(n[0]), 4, 3, 3, 2};
  const hid_t space = H5Screate_simple(8, dims, nullptr);
  const hid_t d =
      H5Dcreate2(g, "links", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d < 0) return 1;
  const auto attribute = [&](const char* name, hid_t type, const void* value, hsize_t count) {
    const hid_t s = count ? H5Screate_simple(1, &count, nullptr) : H5Screate(H5S_SCALAR);
    const hid_t a = H5Acreate2(d, name, type, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, type, value);
    H5Aclose(a);
    H5Sclose(s);
  };
  const int lattice[4] = {int(n[0]), int(n[1]), int(n[2]), int(n[3])};
  const int nc = 3, bytes = 8;
  const unsigned checksum = 0;
  attribute("lattice", H5T_NATIVE_INT, lattice, 4);
  attribute("nc", H5T_NATIVE_INT, &nc, 0);
  attribute("bytes_per_real", H5T_NATIVE_INT, &bytes, 0);
  attribute("checksum", H5T_NATIVE_UINT, &checksum, 0);
  H5Dclose(d);
  H5Sclose(space);
  H5Gclose(g);
  return H5Fclose(f) < 0 ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: make_malformed milc|openqcd|hdf5 OUT N1 N2 N3 N4\n");
    return 1;
  }
  const std::string kind = argv[1];
  long long n[4];
  for (int k = 0; k < 4; ++k)
    n[k] = std::atoll(argv[3 + k]);
  if (kind == "milc") {
    unsigned char h[96] = {};
    put32(h, 20103);
    for (int k = 0; k < 4; ++k)
      put32(h + 4 + 4 * k, static_cast<std::uint32_t>(n[k]));
    return write_bytes(argv[2], h, sizeof h);
  }
  if (kind == "openqcd") {
    unsigned char h[24] = {};
    for (int k = 0; k < 4; ++k)
      put32(h + 4 * k, static_cast<std::uint32_t>(n[k]));
    const double plaq = 3;
    std::memcpy(h + 16, &plaq, 8);
    return write_bytes(argv[2], h, sizeof h);
  }
  if (kind == "hdf5") return hdf5_unstored(argv[2], n);
  std::fprintf(stderr, "make_malformed: unknown kind %s\n", kind.c_str());
  return 1;
}
