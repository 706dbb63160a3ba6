// test_milc.cpp: MILC v5 binary gauge files (io/milc.h): round trips in both byte orders,
// the header and the sum29/sum31 checksums computed here independently, the real files of
// tests/data, and bad input.
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "io/milc.h"
#include "test_fields.h"
#include <bit>
#include <cstdio>

namespace {

using namespace gf;
using namespace gf::testing;

std::uint32_t word(const std::string& b, std::size_t at, bool big) {
  const auto u = [&](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i]));
  };
  return big ? (u(0) << 24 | u(1) << 16 | u(2) << 8 | u(3))
             : (u(3) << 24 | u(2) << 16 | u(1) << 8 | u(0));
}

std::string hex(std::uint32_t v) {
  char x[16];
  std::snprintf(x, sizeof x, "%x", v);
  return x;
}

std::string info_value(const std::vector<std::pair<std::string, std::string>>& kv,
                       const std::string& key) {
  for (const auto& [k, v] : kv)
    if (k == key) return v;
  return "";
}

// sum29 and sum31 of the data after the 96-byte header, as MILC defines them.
std::pair<std::uint32_t, std::uint32_t> milc_sums(const std::string& file, bool big) {
  std::uint32_t s29 = 0, s31 = 0;
  for (std::size_t k = 0; 96 + 4 * k + 4 <= file.size(); ++k) {
    const std::uint32_t w = word(file, 96 + 4 * k, big);
    s29 ^= std::rotl(w, static_cast<int>(k % 29));
    s31 ^= std::rotl(w, static_cast<int>(k % 31));
  }
  return {s29, s31};
}

class MilcRoundTrip : public ::testing::TestWithParam<bool> {};

TEST_P(MilcRoundTrip, ReadsBackWhatWasWritten) {
  const bool big = GetParam();
  const int L[4] = {4, 6, 2, 8};
  const HostField u = random_field(L, 3, 777, 1.0);
  TempDir dir;
  const std::string path = dir.file("config.milc");
  WriteOptions w;
  w.format = FileFormat::milc;
  w.double_precision = false;
  if (big) w.metadata["BYTE_ORDER"] = "big";
  write_milc(path, u, w, self_world(), {});

  const std::string b = read_bytes(path);
  ASSERT_EQ(b.size(), 96u + 4 * 6 * 2 * 8 * 288);
  EXPECT_EQ(word(b, 0, big), 20103u);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(word(b, 4 + 4 * k, big), static_cast<std::uint32_t>(L[k]));
  EXPECT_EQ(word(b, 84, big), 0u); // natural order
  const auto [s29, s31] = milc_sums(b, big);
  EXPECT_EQ(word(b, 88, big), s29);
  EXPECT_EQ(word(b, 92, big), s31);
  const float first = static_cast<float>(u.data[0].re);
  EXPECT_EQ(word(b, 96, big), std::bit_cast<std::uint32_t>(first));
  EXPECT_EQ(detect_format(path), FileFormat::milc);

  FileInfo info;
  const HostField r = read_milc(path, self_world(), {}, &info);
  EXPECT_TRUE(bit_equal(r, single_precision_image(u)));
  EXPECT_EQ(info.format, FileFormat::milc);
  EXPECT_EQ(info.big_endian, big);
  EXPECT_EQ(info.bytes_per_real, 4);
  EXPECT_TRUE(info.reunitarised);
  EXPECT_LE(info.unitarity_deviation, 1e-6);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(info.dims[k], L[k]);
  EXPECT_EQ(info_value(info.stored, "SUM29"), hex(s29));
  EXPECT_EQ(info_value(info.computed, "SUM31"), hex(s31));
  EXPECT_NE(info_value(info.stored, "TIME_STAMP").find("UTC"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Milc, MilcRoundTrip, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "big" : "little";
                         });

TEST(MilcWrite, RefusesWhatMilcCannotHold) {
  TempDir dir;
  const int L[4] = {4, 4, 4, 4};
  WriteOptions w;
  w.format = FileFormat::milc;
  const auto refused = [&](const HostField& u, const WriteOptions& o, const char* word) {
    try {
      write_milc(dir.file("out.milc"), u, o, self_world(), {});
      ADD_FAILURE() << "written";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("out.milc"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(dir.file("out.milc")));
  };
  refused(random_field(L, 3, 1, 1.0), w, "single precision"); // double_precision is the default
  w.double_precision = false;
  refused(random_field(L, 2, 1, 1.0), w, "SU(3)");
  w.metadata["BYTE_ORDER"] = "middle";
  refused(random_field(L, 3, 1, 1.0), w, "middle");
}

struct Sample {
  const char* file;
  int dims[4];
  bool big_endian;
  const char* sum29;
  const char* sum31;
  double plaquette;
};

const Sample samples[] = {
    {"lat.sample.l4444", {4, 4, 4, 4}, false, "2352c05", "d137321d", 0.594850158947},
    {"lat.sample.l4448", {4, 4, 4, 8}, true, "13f3b413", "161f7dde", 0.569055724369},
};

class MilcSamples : public ::testing::TestWithParam<Sample> {};

TEST_P(MilcSamples, ReadsWithStoredChecksums) {
  const Sample& s = GetParam();
  GF_SAMPLE(path, s.file);
  EXPECT_EQ(detect_format(path), FileFormat::milc);
  FileInfo info;
  const HostField u = read_milc(path, self_world(), {}, &info);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(u.geom.L[k], s.dims[k]);
  EXPECT_EQ(info.big_endian, s.big_endian);
  EXPECT_EQ(info_value(info.stored, "SUM29"), s.sum29);
  EXPECT_EQ(info_value(info.stored, "SUM31"), s.sum31);
  EXPECT_EQ(info_value(info.computed, "SUM29"), s.sum29);
  EXPECT_EQ(info_value(info.computed, "SUM31"), s.sum31);
  EXPECT_TRUE(info.reunitarised);
  EXPECT_NEAR(info.plaquette, s.plaquette, 1e-6); // single-precision data
}

INSTANTIATE_TEST_SUITE_P(Milc, MilcSamples, ::testing::ValuesIn(samples),
                         [](const ::testing::TestParamInfo<Sample>& p) {
                           return "l" + std::to_string(p.index);
                         });

class MilcBadInput : public ::testing::Test {
protected:
  void SetUp() override {
    const int L[4] = {4, 4, 4, 4};
    WriteOptions w;
    w.format = FileFormat::milc;
    w.double_precision = false;
    write_milc(good_, random_field(L, 3, 99, 1.0), w, self_world(), {});
    bytes_ = read_bytes(good_);
  }
  std::string variant(const std::string& name, const std::string& bytes) const {
    write_bytes(dir_.file(name), bytes);
    return dir_.file(name);
  }
  std::string with_word(std::size_t at, std::uint32_t v) const { // little-endian file
    std::string b = bytes_;
    for (int i = 0; i < 4; ++i)
      b[at + i] = static_cast<char>(v >> (8 * i) & 0xff);
    return b;
  }
  void expect_error(const std::string& path, std::initializer_list<const char*> words) const {
    expect_read_error(
        path, [&] { read_milc(path, self_world(), {}, nullptr); }, words);
  }

  TempDir dir_;
  std::string good_ = dir_.file("good.milc");
  std::string bytes_;
};

TEST_F(MilcBadInput, GoodFileReads) {
  EXPECT_NO_THROW(read_milc(good_, self_world(), {}, nullptr));
}

TEST_F(MilcBadInput, TruncatedAndTooLong) {
  expect_error(variant("truncated.milc", bytes_.substr(0, bytes_.size() - 8)),
               {"size", "truncated"});
  expect_error(variant("long.milc", bytes_ + "1234"), {"size", "too long"});
  expect_error(variant("header.milc", bytes_.substr(0, 50)), {"truncated", "header"});
}

TEST_F(MilcBadInput, FlippedDataBitFailsChecksum) {
  std::string b = bytes_;
  b[b.size() - 4] ^= 0x01; // lowest mantissa bit of the last float (little-endian)
  const std::string p = variant("flipped.milc", b);
  expect_error(p, {"checksum", "sum29"});
  ReadOptions lenient;
  lenient.checksum_warning_only = true;
  ::testing::internal::CaptureStderr();
  EXPECT_NO_THROW(read_milc(p, self_world(), lenient, nullptr));
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("checksum"), std::string::npos) << warning;
  EXPECT_NE(warning.find("flipped.milc"), std::string::npos) << warning;
}

TEST_F(MilcBadInput, DimsNotMatchingSize) {
  expect_error(variant("dims.milc", with_word(16, 6)), {"size", "4x4x4x6"});
  expect_error(variant("zero.milc", with_word(8, 0)), {"dims", "dimension 1"});
}

TEST_F(MilcBadInput, BadMagicAndOrder) {
  expect_error(variant("magic.milc", with_word(0, 20104)), {"magic", "20103"});
  expect_error(variant("order.milc", with_word(84, 1)), {"order flag 1"});
}

TEST_F(MilcBadInput, LinksNotInSU3) {
  const int L[4] = {4, 4, 4, 4};
  HostField u = random_field(L, 3, 5, 1.0);
  for (Complex<double>& z : u.data)
    z = 1.01 * z;
  WriteOptions w;
  w.format = FileFormat::milc;
  w.double_precision = false;
  write_milc(dir_.file("scaled.milc"), u, w, self_world(), {});
  expect_error(dir_.file("scaled.milc"), {"unitarity", "SU(3)"});
}

} // namespace
