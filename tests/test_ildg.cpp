// test_ildg.cpp: LIME containers (io/lime.h) and ILDG / SciDAC gauge files (io/ildg.h):
// record layout, round trips in every precision, the SciDAC checksum computed here
// independently, the real files of tests/data, and bad input.
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "io/ildg.h"
#include "io/lime.h"
#include "test_fields.h"
#include <bit>
#include <cstdio>
#include <limits>
#include <tuple>
#include <zlib.h>

namespace {

using namespace gf;
using namespace gf::testing;

// The payload of the first record of the given type, found with list_lime_records.
std::string payload(const std::string& path, const std::string& type) {
  const std::vector<LimeRecord> records = list_lime_records(path);
  const LimeRecord* r = find_lime_record(records, type);
  EXPECT_NE(r, nullptr) << type;
  return r ? read_bytes(path).substr(static_cast<std::size_t>(r->data_offset),
                                     static_cast<std::size_t>(r->data_bytes))
           : "";
}

// suma, sumb of binary data as defined by SciDAC: CRC-32 of each site's bytes rotated left by
// (site mod 29) / (site mod 31), XORed.
std::pair<std::string, std::string> scidac_sums(const std::string& data, std::size_t site_bytes) {
  std::uint32_t a = 0, b = 0;
  for (std::size_t s = 0; s * site_bytes < data.size(); ++s) {
    const auto c = static_cast<std::uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(data.data() + s * site_bytes),
              static_cast<uInt>(site_bytes)));
    a ^= std::rotl(c, static_cast<int>(s % 29));
    b ^= std::rotl(c, static_cast<int>(s % 31));
  }
  char x[16], y[16];
  std::snprintf(x, sizeof x, "%x", a);
  std::snprintf(y, sizeof y, "%x", b);
  return {x, y};
}

std::string stored(const FileInfo& info, const std::string& key) {
  for (const auto& [k, v] : info.stored)
    if (k == key) return v;
  return "";
}
std::string computed(const FileInfo& info, const std::string& key) {
  for (const auto& [k, v] : info.computed)
    if (k == key) return v;
  return "";
}

// bytes with `from` replaced by `to` (same length) at its first occurrence.
std::string replaced(std::string bytes, const std::string& from, const std::string& to) {
  const std::size_t at = bytes.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(from.size(), to.size());
  if (at != std::string::npos) bytes.replace(at, from.size(), to);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// LIME records.

TEST(Lime, PlanWritesRecordsThatListBack) {
  TempDir dir;
  const std::string path = dir.file("plan.lime");
  LimePlan plan;
  const std::int64_t a = plan.add("first-record", "abc", true, false);  // padded to 8
  const std::int64_t b = plan.add_external("binary", 13, false, false); // written below
  const std::int64_t c = plan.add("last", "0123456789abcdef", false, true);
  EXPECT_EQ(a, 144);
  EXPECT_EQ(b, 144 + 8 + 144);
  EXPECT_EQ(c, b + 16 + 144);
  EXPECT_EQ(plan.size(), c + 16);
  {
    SlabFileWriter out(path, self_world());
    plan.write(out);
    out.write_at(b, "thirteen byte", 13);
    out.commit();
  }
  const std::string bytes = read_bytes(path);
  ASSERT_EQ(static_cast<std::int64_t>(bytes.size()), plan.size());
  // The first header, byte by byte: magic, version 1, MB flag, length 3, type.
  EXPECT_EQ(bytes.substr(0, 16),
            std::string("\x45\x67\x89\xab\x00\x01\x80\x00\x00\x00\x00\x00\x00\x00\x00\x03", 16));
  EXPECT_EQ(bytes.substr(16, 13), std::string("first-record\0", 13));
  EXPECT_EQ(bytes.substr(144, 8), std::string("abc\0\0\0\0\0", 8));

  const std::vector<LimeRecord> r = list_lime_records(path);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].type, "first-record");
  EXPECT_TRUE(r[0].message_begin);
  EXPECT_FALSE(r[0].message_end);
  EXPECT_EQ(r[1].type, "binary");
  EXPECT_EQ(r[1].data_offset, b);
  EXPECT_EQ(r[1].data_bytes, 13);
  EXPECT_TRUE(r[2].message_end);
  EXPECT_EQ(read_lime_text(path, r[0]), "abc");
  const std::vector<unsigned char> part = read_lime_bytes(path, r[1], 9, 4);
  EXPECT_EQ(std::string(part.begin(), part.end()), "byte");
  EXPECT_EQ(find_lime_record(r, "last"), &r[2]);
  EXPECT_EQ(find_lime_record(r, "absent"), nullptr);
  expect_read_error(path, [&] { read_lime_bytes(path, r[1], 10, 4); }, {"binary", "outside"});
  EXPECT_TRUE(is_lime_file(path));
}

TEST(Lime, BadContainers) {
  TempDir dir;
  const std::string path = dir.file("good.lime");
  LimePlan plan;
  plan.add("only", std::string(20, 'x'), true, true);
  {
    SlabFileWriter out(path, self_world());
    plan.write(out);
    out.commit();
  }
  const std::string good = read_bytes(path);
  const auto variant = [&](const std::string& name, const std::string& bytes) {
    write_bytes(dir.file(name), bytes);
    return dir.file(name);
  };
  const std::string magic = variant("magic.lime", "\x12" + good.substr(1));
  expect_read_error(magic, [&] { list_lime_records(magic); }, {"magic", "12"});
  EXPECT_FALSE(is_lime_file(magic));
  const std::string header = variant("header.lime", good.substr(0, 100));
  expect_read_error(header, [&] { list_lime_records(header); }, {"truncated", "header"});
  const std::string data = variant("data.lime", good.substr(0, 144 + 10));
  expect_read_error(data, [&] { list_lime_records(data); }, {"truncated", "only"});
  std::string v2 = good;
  v2[5] = 2;
  const std::string version = variant("version.lime", v2);
  expect_read_error(version, [&] { list_lime_records(version); }, {"version 2"});
  const std::string empty = variant("empty.lime", "");
  expect_read_error(empty, [&] { list_lime_records(empty); }, {"empty"});
}

// ---------------------------------------------------------------------------------------------
// Round trips: {ildg, scidac} x {SU(2), SU(3)} x {32, 64 bit} (ILDG: SU(3) only).

using Case = std::tuple<FileFormat, int, bool>; // format, nc, double precision

class IldgRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(IldgRoundTrip, ReadsBackWhatWasWritten) {
  const auto [format, nc, dp] = GetParam();
  const int L[4] = {4, 6, 2, 8}; // all different: a mixed-up order of dimensions shows
  const HostField u = random_field(L, nc, 4321, 1.0);
  TempDir dir;
  const std::string path = dir.file("config.lime");
  WriteOptions w;
  w.format = format;
  w.double_precision = dp;
  w.metadata["ensemble"] = "round <trip> & \"test\"";
  write_ildg(path, u, w, self_world(), {});

  const bool ildg = format == FileFormat::ildg;
  std::vector<std::string> types = {"scidac-private-file-xml", "scidac-file-xml",
                                    "scidac-private-record-xml", "scidac-record-xml"};
  if (ildg) types.insert(types.end(), {"ildg-format", "ildg-data-lfn"});
  types.push_back(ildg ? "ildg-binary-data" : "scidac-binary-data");
  types.push_back("scidac-checksum");
  const std::vector<LimeRecord> records = list_lime_records(path);
  ASSERT_EQ(records.size(), types.size());
  for (std::size_t i = 0; i < types.size(); ++i) {
    EXPECT_EQ(records[i].type, types[i]);
    EXPECT_EQ(records[i].message_begin, i == 0 || i == 2) << types[i]; // two messages: file, record
    EXPECT_EQ(records[i].message_end, i == 1 || i + 1 == types.size()) << types[i];
  }
  EXPECT_EQ(detect_format(path), format);
  const int bytes = dp ? 8 : 4;
  if (ildg) {
    const std::string xml = payload(path, "ildg-format");
    EXPECT_NE(xml.find("<field>su3gauge</field>"), std::string::npos) << xml;
    EXPECT_NE(xml.find("<precision>" + std::to_string(8 * bytes) + "</precision>"),
              std::string::npos)
        << xml;
    EXPECT_NE(xml.find("<lx>4</lx><ly>6</ly><lz>2</lz><lt>8</lt>"), std::string::npos) << xml;
    EXPECT_EQ(payload(path, "ildg-data-lfn"), "config.lime"); // the default: the file's name
  }
  EXPECT_NE(payload(path, "scidac-private-file-xml").find("<dims>4 6 2 8 </dims>"),
            std::string::npos);
  EXPECT_NE(payload(path, "scidac-file-xml").find("round &lt;trip&gt; &amp; &quot;test&quot;"),
            std::string::npos);

  // The binary data: big-endian, first real Re U_x(0)_00; the checksum computed here.
  const std::string data = payload(path, ildg ? "ildg-binary-data" : "scidac-binary-data");
  const std::size_t site_bytes = static_cast<std::size_t>(4 * nc * nc * 2 * bytes);
  ASSERT_EQ(data.size(), site_bytes * 4 * 6 * 2 * 8);
  std::string first(static_cast<std::size_t>(bytes), '\0');
  if (dp)
    std::memcpy(first.data(), &u.data[0].re, 8);
  else {
    const float f = static_cast<float>(u.data[0].re);
    std::memcpy(first.data(), &f, 4);
  }
  if (std::endian::native == std::endian::little) std::reverse(first.begin(), first.end());
  EXPECT_EQ(data.substr(0, first.size()), first);
  const auto [suma, sumb] = scidac_sums(data, site_bytes);

  FileInfo info;
  const HostField r = read_ildg(path, self_world(), {}, &info);
  EXPECT_EQ(info.format, format);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(info.dims[k], L[k]);
  EXPECT_EQ(info.nc, nc);
  EXPECT_EQ(info.bytes_per_real, bytes);
  EXPECT_TRUE(info.big_endian);
  EXPECT_EQ(info.reunitarised, !dp);
  EXPECT_EQ(stored(info, "SCIDAC_SUMA"), suma);
  EXPECT_EQ(stored(info, "SCIDAC_SUMB"), sumb);
  EXPECT_EQ(computed(info, "SCIDAC_SUMA"), suma);
  EXPECT_EQ(computed(info, "SCIDAC_SUMB"), sumb);
  EXPECT_TRUE(bit_equal(r, dp ? u : single_precision_image(u))); // 64-bit: every bit
  EXPECT_DOUBLE_EQ(info.plaquette, plaquette(r));
  EXPECT_DOUBLE_EQ(info.link_trace, link_trace(r));
}

std::string case_name(const ::testing::TestParamInfo<Case>& p) {
  const auto [format, nc, dp] = p.param;
  return std::string(format_name(format)) + "_SU" + std::to_string(nc) + (dp ? "_64bit" : "_32bit");
}

INSTANTIATE_TEST_SUITE_P(
    Ildg, IldgRoundTrip,
    ::testing::Values(Case{FileFormat::ildg, 3, true}, Case{FileFormat::ildg, 3, false},
                      Case{FileFormat::scidac, 3, true}, Case{FileFormat::scidac, 3, false},
                      Case{FileFormat::scidac, 2, true}, Case{FileFormat::scidac, 2, false}),
    case_name);

// ---------------------------------------------------------------------------------------------
// Real files written by other programs (tests/data, see its README.md).

struct Sample {
  const char* file;
  FileFormat format;
  int dims[4];
  int bytes_per_real;
  const char* suma;
  const char* sumb;
  bool reunitarised; // 32-bit data, or 64-bit data of single-precision accuracy
};

const Sample samples[] = {
    {"ildg.l8t4b3360", FileFormat::ildg, {8, 8, 8, 4}, 8, "10d0ea1a", "a6a1b3b8", false},
    // converted from the 32-bit t_nersc.cfg: its links deviate from SU(3) by about 5e-7
    {"t_dprec_ildg.lime", FileFormat::ildg, {4, 4, 4, 4}, 8, "e6ca40a6", "59cdeef1", true},
    {"lat.sample.l4444.ildg", FileFormat::ildg, {4, 4, 4, 4}, 4, "37affb9c", "2fc07bbf", true},
    {"lat.sample.l4444.scidac", FileFormat::scidac, {4, 4, 4, 4}, 4, "37affb9c", "2fc07bbf", true},
};

class IldgSamples : public ::testing::TestWithParam<Sample> {};

TEST_P(IldgSamples, ReadsWithStoredChecksum) {
  const Sample& s = GetParam();
  GF_SAMPLE(path, s.file);
  EXPECT_EQ(detect_format(path), s.format);
  FileInfo info;
  const HostField u = read_ildg(path, self_world(), {}, &info);
  EXPECT_EQ(info.format, s.format);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(u.geom.L[k], s.dims[k]);
  EXPECT_EQ(info.bytes_per_real, s.bytes_per_real);
  EXPECT_EQ(stored(info, "SCIDAC_SUMA"), s.suma);
  EXPECT_EQ(stored(info, "SCIDAC_SUMB"), s.sumb);
  EXPECT_EQ(computed(info, "SCIDAC_SUMA"), s.suma);
  EXPECT_EQ(computed(info, "SCIDAC_SUMB"), s.sumb);
  EXPECT_EQ(info.reunitarised, s.reunitarised);
}

// The 64-bit sample written again reproduces its binary data and checksum exactly.
TEST(IldgSample, RewriteReproducesData) {
  GF_SAMPLE(path, "ildg.l8t4b3360");
  const HostField u = read_ildg(path, self_world(), {}, nullptr);
  TempDir dir;
  WriteOptions w;
  w.format = FileFormat::ildg;
  write_ildg(dir.file("copy"), u, w, self_world(), {path});
  EXPECT_EQ(payload(dir.file("copy"), "ildg-binary-data"), payload(path, "ildg-binary-data"));
  FileInfo info;
  read_ildg(dir.file("copy"), self_world(), {}, &info);
  EXPECT_EQ(stored(info, "SCIDAC_SUMA"), "10d0ea1a");
  EXPECT_EQ(stored(info, "SCIDAC_SUMB"), "a6a1b3b8");
}

std::string sample_name(const ::testing::TestParamInfo<Sample>& p) {
  std::string name = p.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Ildg, IldgSamples, ::testing::ValuesIn(samples), sample_name);

// ---------------------------------------------------------------------------------------------
// Bad input: each read throws gf::Error naming the file and the check; the file is unchanged.

class IldgBadInput : public ::testing::Test {
protected:
  void SetUp() override {
    const int L[4] = {4, 4, 4, 4};
    WriteOptions w;
    w.format = FileFormat::ildg;
    write_ildg(good_, random_field(L, 3, 99, 1.0), w, self_world(), {});
    bytes_ = read_bytes(good_);
  }
  std::string variant(const std::string& name, const std::string& bytes) const {
    write_bytes(dir_.file(name), bytes);
    return dir_.file(name);
  }
  void expect_error(const std::string& path, std::initializer_list<const char*> words,
                    const ReadOptions& opt = {}) const {
    expect_read_error(
        path, [&] { read_ildg(path, self_world(), opt, nullptr); }, words);
  }
  // The offset of the binary data's last byte: the least significant byte of the last real.
  std::size_t last_data_byte() const {
    const std::vector<LimeRecord> r = list_lime_records(good_);
    const LimeRecord* d = find_lime_record(r, "ildg-binary-data");
    return static_cast<std::size_t>(d->data_offset + d->data_bytes - 1);
  }

  TempDir dir_;
  std::string good_ = dir_.file("good.lime");
  std::string bytes_;
};

TEST_F(IldgBadInput, GoodFileReads) {
  EXPECT_NO_THROW(read_ildg(good_, self_world(), {}, nullptr));
}

TEST_F(IldgBadInput, TruncatedFile) {
  expect_error(variant("truncated.lime", bytes_.substr(0, bytes_.size() - 300)),
               {"truncated", "ildg-binary-data"});
}

TEST_F(IldgBadInput, FlippedDataBitFailsChecksum) {
  std::string b = bytes_;
  b[last_data_byte()] ^= 0x01;
  const std::string p = variant("flipped.lime", b);
  expect_error(p, {"checksum", "suma"});

  ReadOptions lenient;
  lenient.checksum_warning_only = true;
  ::testing::internal::CaptureStderr();
  FileInfo info;
  EXPECT_NO_THROW(read_ildg(p, self_world(), lenient, &info));
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("checksum"), std::string::npos) << warning;
  EXPECT_NE(warning.find("flipped.lime"), std::string::npos) << warning;
  EXPECT_NE(stored(info, "SCIDAC_SUMA"), computed(info, "SCIDAC_SUMA"));
  EXPECT_EQ(read_bytes(p), b);
}

TEST_F(IldgBadInput, DimsNotMatchingSize) {
  const std::string b =
      replaced(replaced(bytes_, "<lx>4</lx>", "<lx>6</lx>"), "<dims>4 4 4 4", "<dims>6 4 4 4");
  expect_error(variant("dims.lime", b), {"size", "dims 6x4x4x4"});
}

TEST_F(IldgBadInput, DimsOfTwoRecordsDisagree) {
  expect_error(variant("dims2.lime", replaced(bytes_, "<lt>4</lt>", "<lt>8</lt>")),
               {"dims", "4x4x4x8", "4x4x4x4"});
}

TEST_F(IldgBadInput, UnknownPrecision) {
  expect_error(variant("prec.lime",
                       replaced(bytes_, "<precision>64</precision>", "<precision>16</precision>")),
               {"precision", "16"});
}

TEST_F(IldgBadInput, FieldOtherThanSU3) {
  expect_error(variant("su2.lime", replaced(bytes_, "su3gauge", "su2gauge")),
               {"su2gauge", "SU(3) gauge fields only"});
}

TEST_F(IldgBadInput, NoBinaryRecord) {
  expect_error(variant("nodata.lime", replaced(bytes_, "ildg-binary-data", "ildg-binary-dat_")),
               {"no ildg-binary-data"});
}

TEST_F(IldgBadInput, CutBeforeChecksumRecordRefused) {
  const std::vector<LimeRecord> r = list_lime_records(good_);
  const std::string p =
      variant("nosum.lime", bytes_.substr(0, static_cast<std::size_t>(r.back().header_offset)));
  expect_error(p, {"truncated file", "message-end flag", "ildg-binary-data"});
}

TEST_F(IldgBadInput, MissingChecksumRecordRefusedUnlessWarningOnly) {
  std::vector<LimeBytes> records = lime_records(good_);
  ASSERT_EQ(records.back().type, "scidac-checksum");
  records.pop_back();
  records.back().me = true; // a well-formed file without a checksum
  const std::string p = variant("nosum.lime", lime_file(records));
  expect_error(p, {"no scidac-checksum record"});
  ReadOptions lenient;
  lenient.checksum_warning_only = true;
  FileInfo info;
  ::testing::internal::CaptureStderr();
  EXPECT_TRUE(bit_equal(read_ildg(p, self_world(), lenient, &info),
                        read_ildg(good_, self_world(), {}, nullptr)));
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("no scidac-checksum"), std::string::npos) << warning;
  EXPECT_TRUE(info.stored.empty());
  EXPECT_EQ(info.computed.size(), 2u);
}

TEST_F(IldgBadInput, RebuiltFileReads) {
  // the helpers that build the malformed files below reproduce a good file byte for byte
  EXPECT_EQ(lime_file(lime_records(good_)), bytes_);
}

TEST_F(IldgBadInput, NamespacedIldgFormatReads) {
  const std::string xml =
      "<?xml version=\"1.0\"?><ildg:ildgFormat xmlns:ildg=\"http://www.lqcd.org/ildg\">"
      "<ildg:version>1.0</ildg:version><ildg:field>su3gauge</ildg:field>"
      "<ildg:precision>64</ildg:precision><ildg:lx>4</ildg:lx><ildg:ly>4</ildg:ly>"
      "<ildg:lz>4</ildg:lz><ildg:lt>4</ildg:lt></ildg:ildgFormat>";
  const std::string p =
      variant("ns.lime", lime_file(with_payload(lime_records(good_), "ildg-format", xml)));
  EXPECT_TRUE(bit_equal(read_ildg(p, self_world(), {}, nullptr),
                        read_ildg(good_, self_world(), {}, nullptr)));
}

TEST_F(IldgBadInput, CommentedOutElementIsNotRead) {
  const std::string xml =
      "<?xml version=\"1.0\"?><ildgFormat xmlns=\"http://www.lqcd.org/ildg\"><!-- <lx>8</lx> "
      "--><version>1.0</version><field>su3gauge</field><precision><![CDATA[64]]></precision>"
      "<lx>4</lx><ly>4</ly><lz>4</lz><lt>4</lt></ildgFormat>";
  const std::string p =
      variant("comment.lime", lime_file(with_payload(lime_records(good_), "ildg-format", xml)));
  FileInfo info;
  EXPECT_NO_THROW(read_ildg(p, self_world(), {}, &info));
  EXPECT_EQ(info.dims[0], 4);
}

TEST_F(IldgBadInput, MalformedOrContradictingXmlRefused) {
  const auto with = [&](const char* name, const std::string& xml) {
    return variant(name, lime_file(with_payload(lime_records(good_), "ildg-format", xml)));
  };
  const std::string tail = "<lx>4</lx><ly>4</ly><lz>4</lz><lt>4</lt></ildgFormat>";
  const std::string head = "<ildgFormat><field>su3gauge</field><precision>64</precision>";
  expect_error(with("twice.lime", head + "<lx>8</lx>" + tail), {"ildg-format", "<lx> appears 2"});
  expect_error(with("broken.lime", head + "<lx>4</ly>" + tail), {"ildg-format", "not well-formed"});
  expect_error(with("doctype.lime", "<!DOCTYPE ildgFormat [<!ENTITY e \"4\">]>" + head +
                                        "<lx>&e;</lx><ly>4</ly><lz>4</lz><lt>4</lt></ildgFormat>"),
               {"ildg-format", "DOCTYPE"});
  expect_error(
      with("root.lime", "<ildg>" + head.substr(12) + tail.substr(0, tail.size() - 13) + "</ildg>"),
      {"ildg-format", "<ildgFormat>"});
  expect_error(with("nested.lime",
                    head + "<lx><n>4</n></lx><ly>4</ly><lz>4</lz><lt>4</lt>" + "</ildgFormat>"),
               {"<lx>", "where a value belongs"});
  const std::string huge = "<lx>1073741824</lx><ly>1073741824</ly><lz>1073741824</lz>"
                           "<lt>1073741824</lt></ildgFormat>";
  expect_error(with("huge.lime", head + huge), {"ildg-format", "overflows"});
  // the SciDAC record's precision against ildg-format's
  expect_error(variant("prec2.lime",
                       replaced(bytes_, "<precision>D</precision>", "<precision>F</precision>")),
               {"scidac-private-record-xml", "precision"});
  // one record type twice
  std::vector<LimeBytes> records = lime_records(good_);
  records.insert(records.begin() + 5, records[4]);
  ASSERT_EQ(records[4].type, "ildg-format");
  expect_error(variant("two.lime", lime_file(records)), {"ildg-format appears 2 times"});
}

TEST_F(IldgBadInput, ScidacUnknownPrecisionAndColors) {
  const int L[4] = {4, 4, 4, 4};
  WriteOptions w;
  w.format = FileFormat::scidac;
  write_ildg(dir_.file("s.lime"), random_field(L, 3, 5, 1.0), w, self_world(), {});
  const std::string s = read_bytes(dir_.file("s.lime"));
  expect_error(
      variant("sprec.lime", replaced(s, "<precision>D</precision>", "<precision>Q</precision>")),
      {"precision", "'Q'"});
  expect_error(variant("scol.lime", replaced(s, "<colors>3</colors>", "<colors>4</colors>")),
               {"colors", "4"});
  expect_error(
      variant("stype.lime", replaced(s, "<typesize>144</typesize>", "<typesize>072</typesize>")),
      {"typesize"});
}

TEST_F(IldgBadInput, LinksNotInSU3) {
  const int L[4] = {4, 4, 4, 4};
  HostField u = random_field(L, 3, 5, 1.0);
  for (Complex<double>& z : u.data)
    z = 1.01 * z;
  WriteOptions w;
  w.format = FileFormat::ildg;
  for (const bool dp : {true, false}) {
    w.double_precision = dp;
    const std::string p = dir_.file(dp ? "scaled64.lime" : "scaled32.lime");
    write_ildg(p, u, w, self_world(), {}); // a consistent checksum
    expect_error(p, {"unitarity", "SU(3)"});
  }
}

TEST_F(IldgBadInput, DoublePrecisionOfSinglePrecisionAccuracyIsReunitarised) {
  const int L[4] = {4, 4, 4, 4};
  HostField u = random_field(L, 3, 5, 1.0);
  for (Complex<double>& z : u.data)
    z = {double(float(z.re)), double(float(z.im))};
  WriteOptions w;
  w.format = FileFormat::ildg;
  write_ildg(dir_.file("rounded.lime"), u, w, self_world(), {});
  FileInfo info;
  ::testing::internal::CaptureStderr();
  const HostField r = read_ildg(dir_.file("rounded.lime"), self_world(), {}, &info);
  const std::string note = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(info.reunitarised);
  EXPECT_GT(info.unitarity_deviation, 1e-10);
  EXPECT_TRUE(bit_equal(r, single_precision_image(u)));
  EXPECT_NE(note.find("single-precision accuracy"), std::string::npos) << note;
  EXPECT_NE(note.find("rounded.lime"), std::string::npos) << note;
}

TEST_F(IldgBadInput, NotANumberInLinks) {
  const int L[4] = {4, 4, 4, 4};
  HostField u = random_field(L, 3, 5, 1.0);
  u.data[7].im = std::numeric_limits<double>::quiet_NaN();
  WriteOptions w;
  w.format = FileFormat::ildg;
  write_ildg(dir_.file("nan.lime"), u, w, self_world(), {});
  expect_error(dir_.file("nan.lime"), {"unitarity", "NaN"});
}

TEST_F(IldgBadInput, WriterRefusesSU2AsIldgAndOutputIsInput) {
  const int L[4] = {4, 4, 4, 4};
  WriteOptions w;
  w.format = FileFormat::ildg;
  try {
    write_ildg(dir_.file("su2.lime"), random_field(L, 2, 1, 1.0), w, self_world(), {});
    ADD_FAILURE() << "SU(2) written as ILDG";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("SU(3)"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_.file("su2.lime")));
  EXPECT_THROW(write_ildg(good_, random_field(L, 3, 1, 1.0), w, self_world(), {good_}), Error);
  EXPECT_EQ(read_bytes(good_), bytes_);
}

} // namespace
