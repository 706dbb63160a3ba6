// test_hdf5.cpp: gaugefix's own HDF5 gauge configuration files (io/hdf5_file.h) on one rank:
// round trips (bit-exact in 64-bit, to float rounding in 32-bit), the layout and checksum as
// the HDF5 library itself sees them, the metadata attributes read back, and every bad input
// rejected with a message naming the file and the check, the file left unchanged; the same
// bytes written without MPI (HDF5's POSIX driver) as through MPI-IO. Writing and reading by slab on
// several ranks: test_parallel_file.cpp.
#include "core/error.h"
#include "gauge_file_test_util.h"
#include "gaugefix_version.h"
#include "io/hdf5_file.h"
#include "test_fields.h"
#include <bit>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <limits>
#include <tuple>

namespace gf {
namespace {

namespace fs = std::filesystem;
using testing::expect_read_error;
using testing::max_difference;
using testing::read_bytes;
using testing::self_world;
using testing::TempDir;
using testing::write_bytes;

const int L[4] = {4, 6, 2, 8}; // all different: a mixed-up order of dimensions shows
const int cube[4] = {4, 4, 4, 4};

std::string value(const std::vector<std::pair<std::string, std::string>>& pairs,
                  const std::string& key) {
  for (const auto& [k, v] : pairs)
    if (k == key) return v;
  return "(missing)";
}

WriteOptions hdf5_options(bool double_precision = true) {
  WriteOptions w;
  w.format = FileFormat::hdf5;
  w.double_precision = double_precision;
  w.metadata = {{"gauge", "landau"},
                {"functional", "0.912345678901234"},
                {"theta", "9.8e-15"},
                {"iterations", "1234"},
                {"input_file", "cfg.nersc"},
                {"input_checksum", "717938df"},
                {"options", "--gauge landau --tolerance 1e-14"}};
  return w;
}

// Serial access to a file through the HDF5 library, independent of io/.
struct H5 {
  hid_t file;
  explicit H5(const std::string& path, unsigned flags = H5F_ACC_RDONLY)
      : file(H5Fopen(path.c_str(), flags, H5P_DEFAULT)) {
    EXPECT_GE(file, 0) << path;
  }
  ~H5() { H5Fclose(file); }
};

// The dataset's values as doubles, and its shape.
std::vector<double> dataset_values(const std::string& path, std::vector<hsize_t>& dims) {
  H5 f(path);
  const hid_t d = H5Dopen2(f.file, "/gauge/links", H5P_DEFAULT);
  const hid_t space = H5Dget_space(d);
  dims.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space);
  H5Dclose(d);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Round trips: {SU(2), SU(3)} x {64, 32 bit}.

// A process without MPI writes through HDF5's POSIX driver (World::alone()), one with MPI
// through MPI-IO: the same file, byte for byte, and each reads the other's. (The object
// headers hold the time in seconds: where a second began between the two writes, they are
// written again.)
TEST(Hdf5WithoutMpi, TheSameBytesAsThroughMpiIo) {
  for (const bool dp : {true, false}) {
    const HostField u = testing::random_field(L, 3, 77, 1.0);
    TempDir dir;
    const std::string posix = dir.file("posix.h5"), mpiio = dir.file("mpiio.h5");
    for (int attempt = 0; attempt < 3; ++attempt) {
      fs::remove(posix);
      fs::remove(mpiio);
      write_hdf5(posix, u, hdf5_options(dp), World::alone());
      write_hdf5(mpiio, u, hdf5_options(dp), self_world());
      if (read_bytes(posix) == read_bytes(mpiio)) break;
    }
    EXPECT_EQ(read_bytes(posix), read_bytes(mpiio)) << (dp ? "64-bit" : "32-bit");
    EXPECT_TRUE(
        testing::bit_equal(read_hdf5(mpiio, World::alone()), read_hdf5(posix, self_world())));
  }
}

class Hdf5RoundTrip : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(Hdf5RoundTrip, ReadsBackWhatWasWritten) {
  const auto [nc, dp] = GetParam();
  const HostField u = testing::random_field(L, nc, 1234, 1.0);
  TempDir dir;
  const std::string path = dir.file("config.h5");
  write_hdf5(path, u, hdf5_options(dp), self_world());
  EXPECT_EQ(read_bytes(path).substr(0, 8), "\x89HDF\r\n\x1a\n");

  FileInfo info;
  const HostField r = read_hdf5(path, self_world(), {}, &info);
  EXPECT_EQ(info.format, FileFormat::hdf5);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(info.dims[k], L[k]);
  EXPECT_EQ(info.nc, nc);
  EXPECT_EQ(r.nc, nc);
  EXPECT_EQ(info.bytes_per_real, dp ? 8 : 4);
  EXPECT_EQ(info.reunitarised, !dp);
  if (dp) {
    EXPECT_TRUE(testing::bit_equal(r, u));
    EXPECT_EQ(info.unitarity_deviation, max_unitarity_violation(u));
  } else {
    EXPECT_LE(max_difference(r, u), 1e-7);
    EXPECT_GT(max_difference(r, u), 0); // really stored in single precision
    EXPECT_TRUE(testing::bit_equal(r, testing::single_precision_image(u)));
  }

  // The record of the run and the attributes taken from the field.
  for (const auto& [k, v] : hdf5_options().metadata)
    EXPECT_EQ(value(info.stored, k), v) << k;
  EXPECT_EQ(value(info.stored, "lattice"), "4,6,2,8");
  EXPECT_EQ(value(info.stored, "nc"), std::to_string(nc));
  EXPECT_EQ(value(info.stored, "bytes_per_real"), dp ? "8" : "4");
  EXPECT_EQ(value(info.stored, "gaugefix_version"), GAUGEFIX_VERSION);
  EXPECT_EQ(value(info.stored, "layout"), "t,z,y,x,mu,row,col,re|im");
  EXPECT_NEAR(std::stod(value(info.stored, "plaquette")), plaquette(u), 1e-15);
  EXPECT_NEAR(std::stod(value(info.stored, "link_trace")), link_trace(u), 1e-15);
  EXPECT_EQ(value(info.stored, "checksum"), value(info.computed, "checksum"));
  EXPECT_EQ(info.plaquette, plaquette(r));

  // The layout and the checksum as the HDF5 library sees them.
  std::vector<hsize_t> dims;
  const std::vector<double> v = dataset_values(path, dims);
  EXPECT_EQ(dims, (std::vector<hsize_t>{8, 2, 6, 4, 4, hsize_t(nc), hsize_t(nc), 2}));
  const auto stored = [&](double x) { return dp ? x : double(float(x)); };
  EXPECT_EQ(v[0], stored(u.data[0].re)); // Re U_x(0)_00
  // Im U_t(x = 1, y = 2, z = 1, t = 5)_01
  const SiteCoords c = {{1, 2, 1, 5}};
  const std::size_t at =
      ((((std::size_t(5) * 2 + 1) * 6 + 2) * 4 + 1) * 4 + 3) * nc * nc * 2 + 1 * 2 + 1;
  EXPECT_EQ(v[at], stored(u.matrix_data(u.local_index(c), 3)[1].im));
  std::uint32_t sum = 0;
  for (const double x : v) {
    if (dp) {
      const auto w = std::bit_cast<std::uint64_t>(x);
      sum += std::uint32_t(w) + std::uint32_t(w >> 32);
    } else {
      sum += std::bit_cast<std::uint32_t>(float(x));
    }
  }
  EXPECT_EQ(value(info.stored, "checksum"), std::to_string(sum));
}

INSTANTIATE_TEST_SUITE_P(Hdf5, Hdf5RoundTrip,
                         ::testing::Combine(::testing::Values(2, 3), ::testing::Bool()),
                         [](const auto& p) {
                           return std::string(std::get<0>(p.param) == 2 ? "SU2" : "SU3") +
                                  (std::get<1>(p.param) ? "_64bit" : "_32bit");
                         });

// ---------------------------------------------------------------------------------------------
// Bad input: each read throws gf::Error naming the file and the check; the file is unchanged.

class Hdf5BadInput : public ::testing::Test {
protected:
  void SetUp() override {
    write_hdf5(good_, u_, hdf5_options(), self_world());
    bytes_ = read_bytes(good_);
  }
  // A copy of the good file under a new name.
  std::string copy(const std::string& name) const {
    const std::string p = dir_.file(name);
    write_bytes(p, bytes_);
    return p;
  }
  void expect_error(const std::string& path, std::initializer_list<const char*> words,
                    const ReadOptions& opt = {}) const {
    expect_read_error(
        path, [&] { read_hdf5(path, self_world(), opt); }, words);
  }
  // A file whose /gauge/links has the given type and shape and the good file's attributes.
  std::string made(const std::string& name, hid_t type, std::vector<hsize_t> dims) const {
    const std::string p = dir_.file(name);
    const hid_t f = H5Fcreate(p.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t g = H5Gcreate2(f, "/gauge", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t s = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
    const hid_t d = H5Dcreate2(f, "/gauge/links", type, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const int lattice[4] = {4, 4, 4, 4}, nc = 3;
    const hsize_t four = 4;
    const hid_t s4 = H5Screate_simple(1, &four, nullptr), s1 = H5Screate(H5S_SCALAR);
    const hid_t a = H5Acreate2(d, "lattice", H5T_STD_I32LE, s4, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT, lattice);
    const hid_t b = H5Acreate2(d, "nc", H5T_STD_I32LE, s1, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(b, H5T_NATIVE_INT, &nc);
    for (const hid_t id : {a, b})
      H5Aclose(id);
    H5Sclose(s4), H5Sclose(s1), H5Dclose(d), H5Sclose(s), H5Gclose(g), H5Fclose(f);
    return p;
  }
  // Writes the integer attribute `name` of /gauge/links of the file at p.
  static void set_attribute(const std::string& p, const char* name,
                            const std::vector<long long>& v) {
    H5 f(p, H5F_ACC_RDWR);
    const hid_t d = H5Dopen2(f.file, "/gauge/links", H5P_DEFAULT);
    const hid_t a = H5Aopen(d, name, H5P_DEFAULT);
    EXPECT_GE(H5Awrite(a, H5T_NATIVE_LLONG, v.data()), 0) << name;
    H5Aclose(a);
    H5Dclose(d);
  }

  TempDir dir_;
  std::string good_ = dir_.file("good.h5");
  HostField u_ = testing::random_field(cube, 3, 99, 1.0);
  std::string bytes_;
};

TEST_F(Hdf5BadInput, GoodFileReads) {
  EXPECT_NO_THROW(read_hdf5(good_, self_world()));
}

TEST_F(Hdf5BadInput, TruncatedFile) {
  const std::string p = dir_.file("truncated.h5");
  write_bytes(p, bytes_.substr(0, bytes_.size() - 1000));
  expect_error(p, {"open", "truncated"});
}

TEST_F(Hdf5BadInput, NotAnHdf5File) {
  const std::string p = dir_.file("text.h5");
  write_bytes(p, "BEGIN_HEADER\nEND_HEADER\n");
  expect_error(p, {"open", "not an HDF5 file"});
  expect_error(dir_.file("missing.h5"), {"open", "missing"});
}

TEST_F(Hdf5BadInput, CorruptDataFailsChecksum) {
  const std::string p = copy("corrupt.h5");
  haddr_t offset;
  {
    H5 f(p);
    const hid_t d = H5Dopen2(f.file, "/gauge/links", H5P_DEFAULT);
    offset = H5Dget_offset(d);
    H5Dclose(d);
  }
  std::string b = bytes_;
  b[offset + 8 * 100] ^= 0x01; // the lowest mantissa bit of a little-endian double
  write_bytes(p, b);
  expect_error(p, {"checksum mismatch"});

  ReadOptions lenient;
  lenient.checksum_warning_only = true;
  FileInfo info;
  ::testing::internal::CaptureStderr();
  EXPECT_NO_THROW(read_hdf5(p, self_world(), lenient, &info));
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("checksum mismatch"), std::string::npos) << warning;
  EXPECT_NE(warning.find("corrupt.h5"), std::string::npos) << warning;
  EXPECT_NE(value(info.stored, "checksum"), value(info.computed, "checksum"));
}

TEST_F(Hdf5BadInput, WrongChecksumAttribute) {
  const std::string p = copy("sum.h5");
  set_attribute(p, "checksum", {12345});
  expect_error(p, {"checksum mismatch", "12345"});
}

TEST_F(Hdf5BadInput, MissingChecksumAttribute) {
  const std::string p = copy("nosum.h5");
  {
    H5 f(p, H5F_ACC_RDWR);
    const hid_t d = H5Dopen2(f.file, "/gauge/links", H5P_DEFAULT);
    EXPECT_GE(H5Adelete(d, "checksum"), 0);
    H5Dclose(d);
  }
  expect_error(p, {"missing attribute 'checksum'"});
}

TEST_F(Hdf5BadInput, LatticeAttributeNotMatchingShape) {
  const std::string p = copy("lattice.h5");
  set_attribute(p, "lattice", {4, 4, 4, 8});
  expect_error(p, {"lattice", "do not match the dataset shape"});
}

TEST_F(Hdf5BadInput, WrongShape) {
  expect_error(made("shape.h5", H5T_IEEE_F64LE, {4, 4, 4, 4, 4, 3, 2, 2}),
               {"shape", "[4,4,4,4,4,3,2,2]"});
  expect_error(made("rank.h5", H5T_IEEE_F64LE, {4, 4, 4, 4, 4, 18}), {"shape"});
  expect_error(made("su4.h5", H5T_IEEE_F64LE, {4, 4, 4, 4, 4, 4, 4, 2}), {"shape", "N = 2 or 3"});
}

TEST_F(Hdf5BadInput, WrongDatatype) {
  expect_error(made("int.h5", H5T_STD_I32LE, {4, 4, 4, 4, 4, 3, 3, 2}),
               {"datatype", "not 32- or 64-bit"});
  expect_error(made("half.h5", H5T_NATIVE_LDOUBLE, {4, 4, 4, 4, 4, 3, 3, 2}), {"datatype"});
}

TEST_F(Hdf5BadInput, MissingDataset) {
  const std::string p = dir_.file("empty.h5");
  H5Fclose(H5Fcreate(p.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  expect_error(p, {"no dataset /gauge/links"});
}

TEST_F(Hdf5BadInput, LinksNotInSUN) {
  for (const bool dp : {true, false}) {
    HostField u = u_;
    for (Complex<double>& z : u.data)
      z = 1.01 * z;
    const std::string p = dir_.file(dp ? "scaled64.h5" : "scaled32.h5");
    write_hdf5(p, u, hdf5_options(dp), self_world()); // checksum and plaquette consistent
    expect_error(p, {"unitarity", "SU(3)", dp ? "64-bit" : "32-bit"});
  }
}

TEST_F(Hdf5BadInput, NotANumberInLinks) {
  HostField u = u_;
  u.data[5].re = std::numeric_limits<double>::quiet_NaN();
  write_hdf5(dir_.file("nan.h5"), u, hdf5_options(), self_world());
  expect_error(dir_.file("nan.h5"), {"NaN"});
}

TEST_F(Hdf5BadInput, WrongPlaquetteAttribute) {
  const std::string p = copy("plaq.h5");
  {
    H5 f(p, H5F_ACC_RDWR);
    const hid_t d = H5Dopen2(f.file, "/gauge/links", H5P_DEFAULT);
    const hid_t a = H5Aopen(d, "plaquette", H5P_DEFAULT);
    const double wrong = 0.5;
    H5Awrite(a, H5T_NATIVE_DOUBLE, &wrong);
    H5Aclose(a);
    H5Dclose(d);
  }
  expect_error(p, {"plaquette mismatch"});
}

TEST_F(Hdf5BadInput, OutputPathIsInput) {
  fs::create_symlink(good_, dir_.file("link.h5"));
  for (const std::string& out : {good_, dir_.file("link.h5")})
    EXPECT_THROW(write_hdf5(out, u_, hdf5_options(), self_world(), {good_}), Error) << out;
  EXPECT_EQ(read_bytes(good_), bytes_);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_.file("")), {}), 2); // no temporary left
}

TEST_F(Hdf5BadInput, ReservedOrEmptyMetadataNames) {
  for (const char* name : {"plaquette", "checksum", "nc", ""}) {
    WriteOptions w = hdf5_options();
    w.metadata[name] = "x";
    try {
      write_hdf5(dir_.file("meta.h5"), u_, w, self_world());
      ADD_FAILURE() << "metadata name '" << name << "' accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("meta.h5"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("reserved"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(fs::exists(dir_.file("meta.h5")));
}

} // namespace
} // namespace gf
