// test_nersc.cpp: NERSC gauge configuration files (io/nersc.h) and atomic output
// (io/atomic_file.h), on one rank: round trips in every format, real files written by other
// codes (from tests/data), rejection of bad input without touching it, atomic writes.
// Writing and reading by slab on several ranks: test_parallel_file.cpp.
#include "core/error.h"
#include "gauge_file_test_util.h"
#include "io/atomic_file.h"
#include "io/nersc.h"
#include "io/path_checks.h"
#include "math/random_group.h"
#include "math/su_n.h"
#include "observables/observables.h"
#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <limits>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace gf;
using gf::testing::self_world;

// A fresh directory under the system temporary directory, removed with its content.
class TempDir {
public:
  TempDir() {
    static int count = 0;
    path_ = fs::temp_directory_path() /
            ("gaugefix_nersc_test_" + std::to_string(::getpid()) + "_" + std::to_string(count++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(path_), {}));
  }

private:
  fs::path path_;
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// The header line "KEY = ..." replaced by "KEY = value".
std::string with_header_value(std::string bytes, const std::string& key, const std::string& value) {
  const std::size_t b = bytes.find("\n" + key + " ");
  EXPECT_NE(b, std::string::npos) << key;
  const std::size_t e = bytes.find('\n', b + 1);
  return bytes.replace(b + 1, e - b - 1, key + " = " + value);
}

std::string without_header_line(std::string bytes, const std::string& key) {
  const std::size_t b = bytes.find("\n" + key + " ");
  EXPECT_NE(b, std::string::npos) << key;
  return bytes.erase(b + 1, bytes.find('\n', b + 1) - b);
}

template <int N>
HostField random_field_n(const int L[4], std::uint64_t seed) {
  HostField u(Geometry::whole(L), N, 4);
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const RandomKey key = {seed, static_cast<std::uint64_t>(s), 0,
                             static_cast<std::uint32_t>(mu)};
      u.set<N>(s, mu, random_sun<double, N>(key, RandomPurpose::test));
    }
  return u;
}

HostField random_field(int nc, const int L[4], std::uint64_t seed) {
  return nc == 2 ? random_field_n<2>(L, seed) : random_field_n<3>(L, seed);
}

// The NERSC checksum computed independently of io/nersc.cpp: since addition commutes, the
// sum of the low and high halves of every 64-bit value equals the sum of all 32-bit words
// of the data read in the file's byte order, whatever the precision.
std::uint32_t word_sum(const std::string& data, bool big_endian) {
  std::uint32_t sum = 0;
  for (std::size_t k = 0; k + 4 <= data.size(); k += 4) {
    const auto b = [&](std::size_t i) {
      return static_cast<std::uint32_t>(static_cast<unsigned char>(data[k + i]));
    };
    sum += big_endian ? (b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3))
                      : (b(3) << 24 | b(2) << 16 | b(1) << 8 | b(0));
  }
  return sum;
}

// The value stored under key in FileInfo::stored or ::computed ("" where missing).
std::string value(const std::vector<std::pair<std::string, std::string>>& pairs,
                  const std::string& key) {
  for (const auto& [k, v] : pairs)
    if (k == key) return v;
  return "";
}

std::string hex(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%x", v);
  return b;
}

WriteOptions nersc_options(bool full_matrix = false, bool double_precision = true,
                           bool big_endian = true) {
  WriteOptions w;
  w.full_matrix = full_matrix;
  w.double_precision = double_precision;
  w.metadata["BYTE_ORDER"] = big_endian ? "big" : "little";
  return w;
}

// Expects read_nersc to throw a gf::Error naming the file and containing every word, and
// the file to be unchanged afterwards.
void expect_read_error(const std::string& path, std::initializer_list<const char*> words,
                       const ReadOptions& opt = {}) {
  const std::string before = read_bytes(path);
  try {
    read_nersc(path, self_world(), opt);
    ADD_FAILURE() << "reading " << path << " did not throw";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(fs::path(path).filename().string()), std::string::npos) << what;
    for (const char* w : words)
      EXPECT_NE(what.find(w), std::string::npos) << "'" << w << "' not in: " << what;
  }
  EXPECT_EQ(read_bytes(path), before) << path << " was modified";
}

// ---------------------------------------------------------------------------------------------
// Round trips: {SU(2), SU(3)} x {compressed, full} x {32, 64 bit} x {big, little endian}.

using Format = std::tuple<int, bool, bool, bool>; // nc, full_matrix, double_precision, big_endian

class NerscRoundTrip : public ::testing::TestWithParam<Format> {};

TEST_P(NerscRoundTrip, ReadsBackWhatWasWritten) {
  const auto [nc, full, dp, big] = GetParam();
  const int L[4] = {4, 6, 2, 8}; // all different: a mixed-up order of dimensions shows
  const HostField u = random_field(nc, L, 1234);
  TempDir dir;
  const std::string path = dir.file("config.nersc");
  WriteOptions w = nersc_options(full, dp, big);
  w.provenance.ensemble_id = "round_trip";
  w.provenance.sequence_number = 7;
  w.metadata["gauge"] = "landau"; // no place in a NERSC header: not written
  write_nersc(path, u, w, self_world());

  FileInfo info;
  const HostField f = read_nersc(path, self_world(), {}, &info);
  const NerscHeader h = read_nersc_header(path);
  const std::string su = nc == 2 ? "SU2" : "SU3";
  EXPECT_EQ(h.datatype, "4D_" + su + "_GAUGE" + (full ? (nc == 2 ? "_2x2" : "_3x3") : ""));
  EXPECT_EQ(h.floating_point, std::string(dp ? "IEEE64" : "IEEE32") + (big ? "BIG" : "LITTLE"));
  EXPECT_EQ(h.entries.at("ENSEMBLE_ID"), "round_trip");
  EXPECT_EQ(h.entries.at("SEQUENCE_NUMBER"), "7");
  EXPECT_EQ(h.entries.at("CREATOR"), "gaugefix");
  EXPECT_EQ(h.entries.count("gauge"), 0u);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(info.dims[k], L[k]);
  EXPECT_EQ(f.nc, nc);
  EXPECT_EQ(info.nc, nc);
  EXPECT_EQ(info.format, FileFormat::nersc);
  EXPECT_EQ(info.bytes_per_real, dp ? 8 : 4);
  EXPECT_EQ(info.big_endian, big);

  // The stored checksum is the one of the data as it lies in the file.
  const std::string data = read_bytes(path).substr(static_cast<std::size_t>(h.header_bytes));
  ASSERT_TRUE(h.checksum.has_value());
  EXPECT_EQ(*h.checksum, word_sum(data, big));
  EXPECT_EQ(value(info.computed, "CHECKSUM"), hex(*h.checksum));
  EXPECT_EQ(value(info.stored, "CHECKSUM"), hex(*h.checksum));

  // The first real of the file is Re U_x(0)_00 in the requested byte order and precision.
  const double first = u.data[0].re;
  std::string expect(dp ? 8 : 4, '\0');
  if (dp)
    std::memcpy(expect.data(), &first, 8);
  else {
    const float f = static_cast<float>(first);
    std::memcpy(expect.data(), &f, 4);
  }
  if (big != (std::endian::native == std::endian::big)) std::reverse(expect.begin(), expect.end());
  EXPECT_EQ(data.substr(0, expect.size()), expect);

  EXPECT_EQ(info.reunitarised, !dp);
  const int stored_rows = full ? nc : nc - 1;
  double worst_stored = 0, worst_rebuilt = 0;
  bool stored_bit_exact = true;
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      for (int k = 0; k < nc * nc; ++k) {
        const Complex<double> a = u.matrix_data(s, mu)[k], b = f.matrix_data(s, mu)[k];
        const double d = std::sqrt(norm2(a - b));
        if (k < stored_rows * nc) {
          worst_stored = std::max(worst_stored, d);
          stored_bit_exact = stored_bit_exact && std::memcmp(&a, &b, sizeof a) == 0;
        } else {
          worst_rebuilt = std::max(worst_rebuilt, d);
        }
      }
  if (dp) {
    EXPECT_TRUE(stored_bit_exact);   // every stored number bit for bit
    EXPECT_LE(worst_rebuilt, 1e-14); // the last row of compressed links is rebuilt
    EXPECT_EQ(info.unitarity_deviation, max_unitarity_violation(f));
  } else {
    EXPECT_LE(std::max(worst_stored, worst_rebuilt), 1e-7);
    EXPECT_LE(max_unitarity_violation(f), 1e-14);
  }
}

std::string format_name(const ::testing::TestParamInfo<Format>& p) {
  const auto [nc, full, dp, big] = p.param;
  return std::string(nc == 2 ? "SU2" : "SU3") + (full ? "_full" : "_rows") +
         (dp ? "_64bit" : "_32bit") + (big ? "_big" : "_little");
}

INSTANTIATE_TEST_SUITE_P(Nersc, NerscRoundTrip,
                         ::testing::Combine(::testing::Values(2, 3), ::testing::Bool(),
                                            ::testing::Bool(), ::testing::Bool()),
                         format_name);

// ---------------------------------------------------------------------------------------------
// Real files written by other programs (tests/data, see its README.md).

struct Sample {
  const char* file;
  const char* datatype;
  const char* floating_point;
  int dims[4];
  std::uint32_t checksum;
  double plaquette, link_trace;
  double tolerance; // the header's printed precision; 32-bit: what float data allows
};

const Sample samples[] = {
    {"lat..400",
     "4D_SU3_GAUGE",
     "IEEE64LITTLE",
     {4, 4, 4, 8},
     0xf2ee7c36,
     0.5985455591,
     -0.0007741846376,
     5e-11},
    {"nersc.l8t4b3360",
     "4D_SU3_GAUGE_3x3",
     "IEEE64BIG",
     {8, 8, 8, 4},
     0xb379560a,
     0.5038664469,
     0.005406083858,
     5e-11},
    {"HILAT.nersc",
     "4D_SU2_GAUGE_2x2",
     "IEEE64BIG",
     {4, 4, 4, 8},
     0x1482da2,
     0.431189010504421,
     0.613654235400838,
     1e-14},
    {"t_nersc.cfg",
     "4D_SU3_GAUGE",
     "IEEE32BIG",
     {4, 4, 4, 4},
     0x717938df,
     0.0382422893,
     0.4630322094,
     1e-7},
};

class NerscSamples : public ::testing::TestWithParam<Sample> {};

TEST_P(NerscSamples, ReadsWithStoredChecks) {
  const Sample& s = GetParam();
  GF_SAMPLE(path, s.file);
  FileInfo info;
  const HostField f = read_nersc(path, self_world(), {}, &info);
  const NerscHeader h = read_nersc_header(path);
  EXPECT_EQ(h.datatype, s.datatype);
  EXPECT_EQ(h.floating_point, s.floating_point);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(f.geom.L[k], s.dims[k]);
  ASSERT_TRUE(h.checksum.has_value());
  EXPECT_EQ(*h.checksum, s.checksum);
  EXPECT_EQ(value(info.computed, "CHECKSUM"), hex(s.checksum));
  EXPECT_NEAR(plaquette(f), s.plaquette, s.tolerance);
  EXPECT_NEAR(link_trace(f), s.link_trace, s.tolerance);
  EXPECT_EQ(info.plaquette, plaquette(f));
  EXPECT_EQ(info.link_trace, link_trace(f));
  EXPECT_EQ(info.reunitarised, std::string(s.floating_point).starts_with("IEEE32"));
}

// The 64-bit samples: a 32-bit one is reunitarised on read, so its data cannot come back.
std::vector<Sample> samples_64() {
  std::vector<Sample> v;
  for (const Sample& s : samples)
    if (std::string(s.floating_point).starts_with("IEEE64")) v.push_back(s);
  return v;
}

class NerscSamples64 : public ::testing::TestWithParam<Sample> {};

// Writing a 64-bit sample again in its own format reproduces its data section byte for byte.
TEST_P(NerscSamples64, RewriteReproducesData) {
  const Sample& s = GetParam();
  GF_SAMPLE(path, s.file);
  const NerscHeader h = read_nersc_header(path);
  ASSERT_EQ(h.bytes_per_real, 8);
  const HostField f = read_nersc(path, self_world());
  TempDir dir;
  write_nersc(dir.file("copy"), f, nersc_options(h.stored_rows == h.nc, true, h.big_endian),
              self_world(), {path});
  const NerscHeader copy = read_nersc_header(dir.file("copy"));
  EXPECT_EQ(read_bytes(dir.file("copy")).substr(static_cast<std::size_t>(copy.header_bytes)),
            read_bytes(path).substr(static_cast<std::size_t>(h.header_bytes)));
  EXPECT_EQ(*copy.checksum, s.checksum);
  EXPECT_NO_THROW(read_nersc(dir.file("copy"), self_world()));
}

std::string sample_name(const ::testing::TestParamInfo<Sample>& p) {
  std::string name = p.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Nersc, NerscSamples, ::testing::ValuesIn(samples), sample_name);
INSTANTIATE_TEST_SUITE_P(Nersc, NerscSamples64, ::testing::ValuesIn(samples_64()), sample_name);

// ---------------------------------------------------------------------------------------------
// Bad input: each read throws gf::Error naming the file and the check; the file is unchanged.

class NerscBadInput : public ::testing::Test {
protected:
  void SetUp() override {
    const int L[4] = {4, 4, 4, 4};
    write_nersc(good_, random_field(3, L, 99), nersc_options(),
                self_world()); // two rows, IEEE64BIG
    bytes_ = read_bytes(good_);
  }
  // A variant of the good file under a new name.
  std::string variant(const std::string& name, const std::string& bytes) const {
    const std::string p = dir_.file(name);
    write_bytes(p, bytes);
    return p;
  }

  TempDir dir_;
  std::string good_ = dir_.file("good.nersc");
  std::string bytes_;
};

TEST_F(NerscBadInput, GoodFileReads) {
  EXPECT_NO_THROW(read_nersc(good_, self_world()));
}

TEST_F(NerscBadInput, TruncatedFile) {
  expect_read_error(variant("truncated.nersc", bytes_.substr(0, bytes_.size() - 100)),
                    {"size", "truncated"});
}

TEST_F(NerscBadInput, FileTooLong) {
  expect_read_error(variant("long.nersc", bytes_ + "extra"), {"size", "too long"});
}

TEST_F(NerscBadInput, FlippedDataByteFailsChecksum) {
  std::string b = bytes_;
  b.back() ^= 0x01; // the last bit of the last (big-endian) double: a valid SU(3) field still
  const std::string p = variant("flipped.nersc", b);
  expect_read_error(p, {"CHECKSUM"});

  ReadOptions lenient;
  lenient.checksum_warning_only = true;
  FileInfo info;
  ::testing::internal::CaptureStderr();
  read_nersc(p, self_world(), lenient, &info);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("CHECKSUM"), std::string::npos) << warning;
  EXPECT_NE(warning.find("flipped.nersc"), std::string::npos) << warning;
  EXPECT_NE(value(info.computed, "CHECKSUM"), value(info.stored, "CHECKSUM"));
  EXPECT_EQ(read_bytes(p), b);
}

TEST_F(NerscBadInput, WrongPlaquette) {
  expect_read_error(variant("plaq.nersc", with_header_value(bytes_, "PLAQUETTE", "0.123456789")),
                    {"PLAQUETTE"});
}

TEST_F(NerscBadInput, WrongLinkTrace) {
  expect_read_error(variant("trace.nersc", with_header_value(bytes_, "LINK_TRACE", "0.5")),
                    {"LINK_TRACE"});
}

TEST_F(NerscBadInput, WrongChecksumInHeader) {
  expect_read_error(variant("sum.nersc", with_header_value(bytes_, "CHECKSUM", "12345678")),
                    {"CHECKSUM"});
}

TEST_F(NerscBadInput, UnknownDatatype) {
  expect_read_error(variant("type.nersc", with_header_value(bytes_, "DATATYPE", "4D_SU4_GAUGE")),
                    {"unknown DATATYPE", "4D_SU4_GAUGE"});
}

TEST_F(NerscBadInput, UnknownFloatingPoint) {
  expect_read_error(variant("fp.nersc", with_header_value(bytes_, "FLOATING_POINT", "IEEE16BIG")),
                    {"FLOATING_POINT", "IEEE16BIG"});
}

TEST_F(NerscBadInput, DimensionNotMatchingSize) {
  expect_read_error(variant("dim.nersc", with_header_value(bytes_, "DIMENSION_4", "6")),
                    {"size", "DIMENSION"});
}

TEST_F(NerscBadInput, DimensionNotANumber) {
  expect_read_error(variant("dimx.nersc", with_header_value(bytes_, "DIMENSION_1", "4x")),
                    {"DIMENSION_1"});
}

TEST_F(NerscBadInput, MissingKeys) {
  expect_read_error(variant("nodim.nersc", without_header_line(bytes_, "DIMENSION_2")),
                    {"missing", "DIMENSION_2"});
  expect_read_error(variant("notype.nersc", without_header_line(bytes_, "DATATYPE")),
                    {"missing", "DATATYPE"});
}

TEST_F(NerscBadInput, MissingHeaderMarkers) {
  expect_read_error(variant("nobegin.nersc", bytes_.substr(std::string("BEGIN_HEADER\n").size())),
                    {"BEGIN_HEADER"});
  std::string b = bytes_;
  b.replace(b.find("END_HEADER"), 10, "END_HEADEX");
  expect_read_error(variant("noend.nersc", b), {"END_HEADER"});
}

TEST_F(NerscBadInput, MissingFloatingPointIsInferredFromSize) {
  const std::string p = variant("nofp.nersc", without_header_line(bytes_, "FLOATING_POINT"));
  EXPECT_NO_THROW(read_nersc(p, self_world()));
  const NerscHeader h = read_nersc_header(p);
  EXPECT_FALSE(h.floating_point_given);
  EXPECT_EQ(h.floating_point, "IEEE64BIG");
}

TEST_F(NerscBadInput, LinksNotInSUN) {
  const int L[4] = {4, 4, 4, 4};
  for (const int nc : {2, 3}) {
    HostField u = random_field(nc, L, 5);
    for (Complex<double>& z : u.data)
      z = 1.01 * z;
    for (const bool full : {false, true}) {
      const std::string p = dir_.file("scaled" + std::to_string(nc) + (full ? "full" : "rows"));
      write_nersc(p, u, nersc_options(full),
                  self_world()); // header CHECKSUM, PLAQUETTE, LINK_TRACE consistent with the data
      expect_read_error(p, {"unitarity", nc == 2 ? "SU(2)" : "SU(3)"});
    }
  }
}

TEST_F(NerscBadInput, NotANumberInLinks) {
  const int L[4] = {4, 4, 4, 4};
  HostField u = random_field(3, L, 5);
  u.data[1].im = std::numeric_limits<double>::quiet_NaN(); // U_x(0)_01: a stored element
  write_nersc(dir_.file("nan.nersc"), u, nersc_options(), self_world());
  expect_read_error(dir_.file("nan.nersc"), {"unitarity", "NaN"});
}

TEST_F(NerscBadInput, OutputPathIsInput) {
  const std::string same_forms[] = {good_, (dir_.path() / "." / "good.nersc").string(),
                                    (dir_.path() / "sub" / ".." / "good.nersc").string()};
  fs::create_directory(dir_.path() / "sub");
  fs::create_symlink(good_, dir_.file("link.nersc"));
  fs::create_hard_link(good_, dir_.file("hard.nersc"));
  for (const std::string& out : same_forms)
    EXPECT_THROW(check_output_path(out, {dir_.file("other"), good_}), Error) << out;
  for (const char* alias : {"link.nersc", "hard.nersc"}) {
    try {
      check_output_path(dir_.file(alias), {good_});
      ADD_FAILURE() << alias << " accepted as output";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("good.nersc"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("input"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(check_output_path(dir_.file("fixed.nersc"), {good_}));
  const HostField u = read_nersc(good_, self_world());
  const std::size_t entries = dir_.entries();
  for (const char* alias : {"link.nersc", "hard.nersc"})
    EXPECT_THROW(write_nersc(dir_.file(alias), u, nersc_options(), self_world(), {good_}), Error)
        << alias;
  EXPECT_EQ(dir_.entries(), entries); // no temporary file left
  EXPECT_EQ(read_bytes(good_), bytes_);
}

TEST_F(NerscBadInput, BadHeaderValuesAreRefused) {
  const int L[4] = {2, 2, 2, 2};
  const HostField u = random_field(3, L, 3);
  for (const auto& [key, v] :
       {std::pair{"ENSEMBLE_LABEL", "two\nlines"}, std::pair{"BYTE_ORDER", "middle"}}) {
    WriteOptions w = nersc_options();
    if (std::string(key) == "ENSEMBLE_LABEL")
      w.provenance.ensemble_label = v;
    else
      w.metadata[key] = v;
    try {
      write_nersc(dir_.file("bad.nersc"), u, w, self_world());
      ADD_FAILURE() << key << " = " << v << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("bad.nersc"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(fs::exists(dir_.file("bad.nersc")));
}

// ---------------------------------------------------------------------------------------------
// Atomic output: the final name never holds a partial file.

TEST(AtomicFile, CommitWritesCompleteFileAndNoTemporary) {
  TempDir dir;
  write_bytes(dir.file("out"), "old");
  write_file_atomically(dir.file("out"), [](std::ostream& os) { os << "new content"; });
  EXPECT_EQ(read_bytes(dir.file("out")), "new content");
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(AtomicFile, ThrowingWriterLeavesNoFile) {
  TempDir dir;
  EXPECT_THROW(write_file_atomically(dir.file("out"),
                                     [](std::ostream& os) {
                                       os << "partial";
                                       throw std::runtime_error("writer failed midway");
                                     }),
               std::runtime_error);
  EXPECT_FALSE(fs::exists(dir.file("out")));
  EXPECT_EQ(dir.entries(), 0u); // the temporary file is gone too
}

TEST(AtomicFile, ThrowingWriterKeepsPreviousContent) {
  TempDir dir;
  write_bytes(dir.file("out"), "previous");
  EXPECT_THROW(
      write_file_atomically(dir.file("out"), [](std::ostream&) { throw std::runtime_error("x"); }),
      std::runtime_error);
  EXPECT_EQ(read_bytes(dir.file("out")), "previous");
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(AtomicFile, FailedStreamIsNotCommitted) {
  TempDir dir;
  try {
    write_file_atomically(dir.file("out"), [](std::ostream& os) {
      os << "partial";
      os.setstate(std::ios::badbit); // as a failed write (disk full) leaves it
    });
    ADD_FAILURE() << "a failed stream was committed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("out"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dir.entries(), 0u);
}

TEST(AtomicFile, MissingFolderLeavesNoFile) {
  TempDir dir;
  const std::string path = dir.file("missing/out.nersc");
  const int L[4] = {2, 2, 2, 2};
  try {
    write_nersc(path, random_field(3, L, 1), nersc_options(), self_world());
    ADD_FAILURE() << "write into a missing folder succeeded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("out.nersc"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(dir.entries(), 0u);
}

} // namespace
