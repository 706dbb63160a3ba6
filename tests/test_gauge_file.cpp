// test_gauge_file.cpp: the format-independent layer (io/gauge_file.h): format names,
// detection from the content, dispatching round trips in every format and precision, a
// field carried through one format after another, the samples of tests/data that
// hold the same field in different formats, refusals (output = input, unknown content),
// and (suite GaugeFileRanks, also run under mpirun with 2 and 4 ranks) files written by all
// ranks and read back by slab, compared with what a single rank reads and writes.
#include "comm/decomposition.h"
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "io/nersc.h"
#include "test_fields.h"
#include <tuple>

namespace {

using namespace gf;
using namespace gf::testing;

struct Case {
  FileFormat format;
  int nc;
  bool double_precision;
  bool full_matrix;       // NERSC
  const char* byte_order; // NERSC, MILC: "" (the format's default), "big" or "little"
};

// How a file of this case reads back: every bit, the float image (single_precision_image),
// or close (32-bit NERSC with rebuilt rows).
enum class Fidelity { exact, float_image, close };

Fidelity fidelity(const Case& c) {
  if (c.double_precision)
    return c.format == FileFormat::nersc && !c.full_matrix ? Fidelity::close : Fidelity::exact;
  return c.format == FileFormat::nersc && !c.full_matrix ? Fidelity::close : Fidelity::float_image;
}

WriteOptions options(const Case& c) {
  WriteOptions w;
  w.format = c.format;
  w.double_precision = c.double_precision;
  w.full_matrix = c.full_matrix;
  if (*c.byte_order) w.metadata["BYTE_ORDER"] = c.byte_order;
  w.provenance.ensemble_id = "ranks";
  w.provenance.sequence_number = 3;
  w.provenance.gauge_fixing =
      GaugeFixingRecord{"mag", 1e-12, 2e-13, 3e-13, 0.5, 7, true, "single", "0.1.0", "today"};
  return w;
}

void expect_reads_as(const HostField& r, const HostField& u, Fidelity f) {
  switch (f) {
  case Fidelity::exact:
    EXPECT_TRUE(bit_equal(r, u));
    break;
  case Fidelity::float_image:
    EXPECT_TRUE(bit_equal(r, single_precision_image(u)));
    break;
  case Fidelity::close:
    EXPECT_LE(max_difference(r, u), 1e-6);
    break;
  }
}

const Case cases[] = {
    {FileFormat::nersc, 3, true, true, ""},     {FileFormat::nersc, 3, false, false, "little"},
    {FileFormat::nersc, 2, true, true, ""},     {FileFormat::ildg, 3, true, false, ""},
    {FileFormat::ildg, 3, false, false, ""},    {FileFormat::scidac, 2, true, false, ""},
    {FileFormat::scidac, 3, false, false, ""},  {FileFormat::milc, 3, false, false, ""},
    {FileFormat::milc, 3, false, false, "big"}, {FileFormat::openqcd, 3, true, false, ""},
    {FileFormat::hdf5, 3, true, false, ""},     {FileFormat::hdf5, 2, false, false, ""},
};

std::string case_name(const ::testing::TestParamInfo<Case>& p) {
  const Case& c = p.param;
  return std::string(format_name(c.format)) + "_SU" + std::to_string(c.nc) +
         (c.double_precision ? "_64" : "_32") + (c.full_matrix ? "_full" : "") +
         (*c.byte_order ? std::string("_") + c.byte_order : "");
}

// ---------------------------------------------------------------------------------------------

TEST(GaugeFile, FormatNames) {
  for (const FileFormat f : {FileFormat::nersc, FileFormat::ildg, FileFormat::scidac,
                             FileFormat::milc, FileFormat::openqcd, FileFormat::hdf5})
    EXPECT_EQ(parse_format(format_name(f)), f);
  EXPECT_EQ(parse_format("HDF5"), FileFormat::hdf5);
  EXPECT_STREQ(format_name(FileFormat::openqcd), "openqcd");
  try {
    parse_format("lime");
    ADD_FAILURE() << "lime accepted as a format";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown file format 'lime'"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("openqcd"), std::string::npos) << e.what();
  }
}

class GaugeFileRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(GaugeFileRoundTrip, DetectsAndReadsBack) {
  const Case& c = GetParam();
  const int L[4] = {4, 6, 2, 8};
  const HostField u = random_field(L, c.nc, 31, 1.0);
  TempDir dir;
  const std::string path = dir.file("cfg");
  write_gauge_file(path, u, options(c), self_world());
  EXPECT_EQ(detect_format(path), c.format);
  FileInfo info;
  const HostField r = read_gauge_file(path, self_world(), {}, &info);
  EXPECT_EQ(info.format, c.format);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(info.dims[k], L[k]);
  EXPECT_EQ(info.nc, c.nc);
  EXPECT_EQ(info.bytes_per_real, c.double_precision ? 8 : 4);
  EXPECT_EQ(info.reunitarised, !c.double_precision);
  EXPECT_FALSE(info.computed.empty());
  expect_reads_as(r, u, fidelity(c));
  EXPECT_NEAR(info.plaquette, plaquette(u), c.double_precision ? 1e-14 : 1e-6);
}

TEST_P(GaugeFileRoundTrip, RefusesToOverwriteItsInput) {
  const Case& c = GetParam();
  const int L[4] = {4, 4, 4, 4};
  TempDir dir;
  const std::string in = dir.file("in");
  write_gauge_file(in, random_field(L, c.nc, 1, 1.0), options(c), self_world());
  const std::string before = read_bytes(in);
  fs::create_symlink(in, dir.file("alias"));
  for (const std::string& out : {in, dir.file("alias")}) {
    try {
      write_gauge_file(out, random_field(L, c.nc, 2, 1.0), options(c), self_world(), {in});
      ADD_FAILURE() << out << " overwrote its input";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("input"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(read_bytes(in), before);
}

INSTANTIATE_TEST_SUITE_P(Formats, GaugeFileRoundTrip, ::testing::ValuesIn(cases), case_name);

// A field written as ILDG, read through the dispatcher and written on as NERSC, openQCD, HDF5,
// SciDAC (all 64-bit, all rows): every step keeps every bit.
TEST(GaugeFile, FieldCarriedThroughEveryFormat) {
  const int L[4] = {4, 2, 6, 4};
  const HostField u = random_field(L, 3, 8, 1.0);
  TempDir dir;
  WriteOptions w;
  w.format = FileFormat::ildg;
  write_gauge_file(dir.file("0"), u, w, self_world());
  std::string previous = dir.file("0");
  int n = 1;
  for (const FileFormat f :
       {FileFormat::nersc, FileFormat::openqcd, FileFormat::hdf5, FileFormat::scidac}) {
    const HostField v = read_gauge_file(previous, self_world());
    EXPECT_TRUE(bit_equal(v, u)) << previous;
    w.format = f;
    w.full_matrix = true;
    const std::string next = dir.file(std::to_string(n++));
    write_gauge_file(next, v, w, self_world(), {previous});
    EXPECT_EQ(detect_format(next), f);
    previous = next;
  }
  EXPECT_TRUE(bit_equal(read_gauge_file(previous, self_world()), u));
  // The NERSC step through its own reader, not the dispatcher.
  EXPECT_TRUE(bit_equal(read_nersc(dir.file("1"), self_world()), u));
}

TEST(GaugeFile, UnknownContentAndMissingFile) {
  TempDir dir;
  write_bytes(dir.file("noise"), std::string(1000, '\x17'));
  for (const std::string& p : {dir.file("noise"), dir.file("missing")}) {
    expect_read_error(p, [&] { detect_format(p); }, {});
    expect_read_error(p, [&] { read_gauge_file(p, self_world()); }, {});
  }
  expect_read_error(dir.file("noise"), [&] { detect_format(dir.file("noise")); },
                    {"unknown format", "1000 bytes"});
  // A file whose first words look like an openQCD header of the wrong size.
  std::string fake(24 + 100, '\0');
  fake[0] = fake[4] = fake[8] = fake[12] = 2;
  write_bytes(dir.file("fake"), fake);
  expect_read_error(dir.file("fake"), [&] { detect_format(dir.file("fake")); }, {"unknown format"});
}

// ---------------------------------------------------------------------------------------------
// Samples (tests/data): the detected format, and files that hold the same field.

TEST(GaugeFileSamples, DetectsEveryFormat) {
  const std::pair<const char*, FileFormat> expected[] = {
      {"lat..400", FileFormat::nersc},
      {"nersc.l8t4b3360", FileFormat::nersc},
      {"ildg.l8t4b3360", FileFormat::ildg},
      {"HILAT.nersc", FileFormat::nersc},
      {"t_nersc.cfg", FileFormat::nersc},
      {"t_dprec_ildg.lime", FileFormat::ildg},
      {"lat.sample.l4444", FileFormat::milc},
      {"lat.sample.l4444.ildg", FileFormat::ildg},
      {"lat.sample.l4444.scidac", FileFormat::scidac},
      {"lat.sample.l4448", FileFormat::milc}};
  for (const auto& [file, format] : expected) {
    GF_SAMPLE(p, file);
    EXPECT_EQ(detect_format(p), format) << file;
  }
}

TEST(GaugeFileSamples, IldgAndNerscHoldTheSameField) {
  GF_SAMPLE(ildg, "ildg.l8t4b3360");
  GF_SAMPLE(nersc, "nersc.l8t4b3360");
  // The two files differ in the last bit of some numbers.
  EXPECT_LE(
      max_difference(read_gauge_file(ildg, self_world()), read_gauge_file(nersc, self_world())),
      1e-15);
}

TEST(GaugeFileSamples, DoublePrecisionIldgOfSinglePrecisionNersc) {
  GF_SAMPLE(ildg, "t_dprec_ildg.lime");
  GF_SAMPLE(nersc, "t_nersc.cfg");
  FileInfo a, b;
  const HostField u = read_gauge_file(ildg, self_world(), {}, &a);
  const HostField v = read_gauge_file(nersc, self_world(), {}, &b);
  EXPECT_LE(max_difference(u, v), 1e-6); // single precision
  EXPECT_NEAR(a.plaquette, 0.0382422893, 1e-7);
  EXPECT_NEAR(b.plaquette, 0.0382422893, 1e-7);
}

TEST(GaugeFileSamples, MilcIldgAndScidacHoldTheSameField) {
  GF_SAMPLE(milc, "lat.sample.l4444");
  GF_SAMPLE(ildg, "lat.sample.l4444.ildg");
  GF_SAMPLE(scidac, "lat.sample.l4444.scidac");
  const HostField u = read_gauge_file(milc, self_world());
  EXPECT_TRUE(
      bit_equal(read_gauge_file(ildg, self_world()), u)); // the same floats, reunitarised alike
  EXPECT_TRUE(bit_equal(read_gauge_file(scidac, self_world()), u));
}

// ---------------------------------------------------------------------------------------------
// All ranks write one file, each its slab, and read it back by slab (run by tests/meson.build
// under mpirun with 2 and 4 ranks; with one rank it checks the same on the whole lattice).

HostField cut(const HostField& whole, const Geometry& g) {
  HostField s(g, whole.nc, whole.ndir);
  const std::size_t per_slice = static_cast<std::size_t>(g.v3) * whole.ndir * whole.nc * whole.nc;
  std::copy_n(whole.data.begin() + static_cast<std::ptrdiff_t>(g.t0 * per_slice), s.data.size(),
              s.data.begin());
  return s;
}

class GaugeFileRanks : public ::testing::TestWithParam<Case> {};

TEST_P(GaugeFileRanks, SlabsWrittenAndReadByEveryRank) {
  const Case& c = GetParam();
  const World world;
  const int L[4] = {4, 6, 2, 8};
  const Geometry g = decompose_time(L, world);
  const HostField slab = gf::random_field(g, c.nc, 55, 1.0, RandomPurpose::test);
  const HostField whole = random_field(L, c.nc, 55, 1.0);
  ASSERT_TRUE(bit_equal(slab, cut(whole, g)));
  TempDir dir(world);
  const std::string many = dir.file("many"), one = dir.file("one");
  write_gauge_file(many, slab, options(c), world);

  FileInfo info, info_all;
  const HostField r = read_gauge_file(many, world, {}, &info);
  const HostField all = read_gauge_file(many, self_world(), {}, &info_all); // by this rank alone
  EXPECT_TRUE(bit_equal(r, cut(all, g)));
  expect_reads_as(all, whole, fidelity(c));
  EXPECT_EQ(info.stored, info_all.stored);
  EXPECT_EQ(info.computed, info_all.computed);
  EXPECT_DOUBLE_EQ(info.plaquette, info_all.plaquette);
  EXPECT_DOUBLE_EQ(info.link_trace, info_all.link_trace);
  EXPECT_EQ(info.unitarity_deviation, info_all.unitarity_deviation);
  if (c.format != FileFormat::milc && c.format != FileFormat::openqcd) {
    EXPECT_EQ(info.provenance.sequence_number, 3);
    ASSERT_TRUE(info.provenance.gauge_fixing);
    EXPECT_EQ(info.provenance.gauge_fixing->theta, 2e-13);
    EXPECT_TRUE(info.provenance.gauge_fixing->converged);
  }

  // The same field written by one rank holds the same data.
  if (world.rank() == 0) write_gauge_file(one, whole, options(c), self_world());
  world.barrier();
  FileInfo info_one;
  EXPECT_TRUE(bit_equal(read_gauge_file(one, self_world(), {}, &info_one), all));
  EXPECT_EQ(info_one.computed, info_all.computed);
  if (c.format == FileFormat::openqcd) {
    EXPECT_EQ(read_bytes(one), read_bytes(many));
  }
  if (c.format == FileFormat::milc) { // all but the time stamp
    EXPECT_EQ(read_bytes(one).substr(84), read_bytes(many).substr(84));
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, GaugeFileRanks, ::testing::ValuesIn(cases), case_name);

} // namespace
