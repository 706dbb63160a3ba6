// test_provenance.cpp: provenance in every format (io/provenance.h): the ensemble and the
// gauge-fixing record written and read back (NERSC, ILDG, SciDAC, HDF5: every field equal;
// MILC, openQCD: nothing to carry), the NERSC defaults (SEQUENCE_NUMBER 1, never 0, marked
// SEQUENCE_NUMBER_KNOWN = FALSE where there is none, which reads back as none), the
// typed HDF5 attributes, malformed values refused naming the key, and the choice of an
// output format (io/output_format.h): extensions, contradictions, what a format holds.
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "io/hdf5_dataset.h"
#include "io/lime.h"
#include "io/nersc.h"
#include "io/output_format.h"
#include "test_fields.h"

namespace {

using namespace gf;
using namespace gf::testing;

Provenance full_provenance() {
  Provenance p;
  p.ensemble_id = "4x4x4x8x4_rjt";
  p.ensemble_label = "wilson beta=5.7 <a & b> 'q'";
  p.sequence_number = 400;
  GaugeFixingRecord& g = p.gauge_fixing.emplace();
  g.gauge = "coulomb";
  g.tolerance = 1e-13;
  g.theta = 3.8891901582452115e-23;
  g.theta_max_slice = 6.638449958878611e-23;
  g.functional = 0.90181861535360619;
  g.iterations = 1234;
  g.converged = true;
  g.precision = "mixed";
  g.version = "0.1.0";
  g.date = "Mon Nov 23 07:36:25 2026 UTC";
  g.algorithm = "facg";
  return p;
}

void expect_equal(const Provenance& a, const Provenance& b, const std::string& what) {
  EXPECT_EQ(a.ensemble_id, b.ensemble_id) << what;
  EXPECT_EQ(a.ensemble_label, b.ensemble_label) << what;
  EXPECT_EQ(a.sequence_number, b.sequence_number) << what;
  ASSERT_EQ(a.gauge_fixing.has_value(), b.gauge_fixing.has_value()) << what;
  if (!a.gauge_fixing) return;
  const GaugeFixingRecord &x = *a.gauge_fixing, &y = *b.gauge_fixing;
  EXPECT_EQ(x.gauge, y.gauge) << what;
  EXPECT_EQ(x.tolerance, y.tolerance) << what;
  EXPECT_EQ(x.theta, y.theta) << what;
  EXPECT_EQ(x.theta_max_slice, y.theta_max_slice) << what;
  EXPECT_EQ(x.functional, y.functional) << what;
  EXPECT_EQ(x.iterations, y.iterations) << what;
  EXPECT_EQ(x.converged, y.converged) << what;
  EXPECT_EQ(x.precision, y.precision) << what;
  EXPECT_EQ(x.version, y.version) << what;
  EXPECT_EQ(x.date, y.date) << what;
  EXPECT_EQ(x.algorithm, y.algorithm) << what;
}

class ProvenanceRoundTrip : public ::testing::TestWithParam<FileFormat> {};

TEST_P(ProvenanceRoundTrip, ReadsBackWhatWasWritten) {
  const FileFormat format = GetParam();
  const int L[4] = {4, 4, 2, 4};
  TempDir dir;
  const std::string path = dir.file("cfg");
  WriteOptions w;
  w.format = format;
  w.double_precision = format != FileFormat::milc;
  w.provenance = full_provenance();
  write_gauge_file(path, random_field(L, 3, 7, 0.3), w, self_world());
  FileInfo info;
  read_gauge_file(path, self_world(), {}, &info);
  const bool holds = format != FileFormat::milc && format != FileFormat::openqcd;
  expect_equal(info.provenance, holds ? w.provenance : Provenance{}, format_name(format));
  // nothing given: nothing read back (NERSC: no sequence number from the placeholder 1)
  w.provenance = {};
  write_gauge_file(path, random_field(L, 3, 7, 0.3), w, self_world());
  read_gauge_file(path, self_world(), {}, &info);
  expect_equal(info.provenance, Provenance{},
               std::string(format_name(format)) + " without provenance");
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, ProvenanceRoundTrip,
                         ::testing::Values(FileFormat::nersc, FileFormat::ildg, FileFormat::scidac,
                                           FileFormat::milc, FileFormat::openqcd, FileFormat::hdf5),
                         [](const auto& p) { return std::string(format_name(p.param)); });

TEST(Provenance, NerscHeaderSaysWhatOtherReadersExpect) {
  const int L[4] = {2, 2, 2, 2};
  TempDir dir;
  WriteOptions w;
  write_nersc(dir.file("plain"), random_field(L, 3, 1, 0.3), w, self_world());
  NerscHeader h = read_nersc_header(dir.file("plain"));
  EXPECT_EQ(h.entries.at("ENSEMBLE_ID"), "unspecified");
  EXPECT_EQ(h.entries.at("SEQUENCE_NUMBER"), "1"); // Grid needs the key, GLU refuses 0
  EXPECT_EQ(h.entries.at("SEQUENCE_NUMBER_KNOWN"), "FALSE");
  EXPECT_EQ(h.entries.count("GAUGE_FIXING"), 0u);
  w.provenance = full_provenance();
  write_nersc(dir.file("fixed"), random_field(L, 3, 1, 0.3), w, self_world());
  h = read_nersc_header(dir.file("fixed"));
  EXPECT_EQ(h.entries.at("ENSEMBLE_ID"), "4x4x4x8x4_rjt");
  EXPECT_EQ(h.entries.at("SEQUENCE_NUMBER"), "400");
  EXPECT_EQ(h.entries.count("SEQUENCE_NUMBER_KNOWN"), 0u);
  EXPECT_EQ(h.entries.at("GAUGE_FIXING"), "COULOMB");
  EXPECT_EQ(h.entries.at("GAUGE_FIXING_TOLERANCE"), "1e-13");
  EXPECT_EQ(h.entries.at("GAUGE_FIXING_CONVERGED"), "TRUE");
  EXPECT_EQ(h.entries.at("GAUGE_FIXING_PRECISION"), "MIXED");
  EXPECT_EQ(h.entries.at("GAUGEFIX_VERSION"), "0.1.0");
}

TEST(Provenance, SamplesCarryTheirEnsemble) {
  GF_SAMPLE(glu, "lat..400");
  FileInfo info;
  read_gauge_file(glu, self_world(), {}, &info);
  EXPECT_EQ(info.provenance.ensemble_id, "4x4x4x8x4_rjt");
  EXPECT_EQ(info.provenance.ensemble_label, "4x4x4x8x4 rjt 2.13 m0.04");
  EXPECT_EQ(info.provenance.sequence_number, 400);
  EXPECT_FALSE(info.provenance.gauge_fixing);
  for (const char* other : {"lat.sample.l4444.ildg", "t_dprec_ildg.lime"}) {
    GF_SAMPLE(path, other);
    read_gauge_file(path, self_world(), {}, &info); // user XML without a <gaugefix> element
    expect_equal(info.provenance, {}, other);
  }
}

TEST(Provenance, Hdf5AttributesAreTyped) {
  const int L[4] = {2, 2, 2, 2};
  TempDir dir;
  WriteOptions w;
  w.format = FileFormat::hdf5;
  w.provenance = full_provenance();
  write_gauge_file(dir.file("f.h5"), random_field(L, 2, 1, 0.3), w, self_world());
  const Hdf5FieldData d =
      read_field_dataset(dir.file("f.h5"), "/gauge/links", 4, self_world(), false);
  EXPECT_EQ(d.integers.at("sequence_number"), 400);
  EXPECT_EQ(d.integers.at("gauge_fixing_iterations"), 1234);
  EXPECT_EQ(d.numbers.at("gauge_fixing_theta"), 3.8891901582452115e-23);
  EXPECT_EQ(d.numbers.at("gauge_fixing_tolerance"), 1e-13);
  EXPECT_EQ(d.booleans.at("gauge_fixing_converged"), true);
  EXPECT_EQ(d.strings.at("gauge_fixing"), "coulomb");
  EXPECT_EQ(d.strings.count("gauge_fixing_theta"), 0u);
}

TEST(Provenance, SciDacRecordXmlCarriesTheRecord) {
  const int L[4] = {2, 2, 2, 2};
  TempDir dir;
  WriteOptions w;
  w.format = FileFormat::ildg;
  w.provenance = full_provenance();
  write_gauge_file(dir.file("f.lime"), random_field(L, 3, 1, 0.3), w, self_world());
  const std::vector<LimeRecord> records = list_lime_records(dir.file("f.lime"));
  for (const char* type : {"scidac-file-xml", "scidac-record-xml"}) {
    const std::string xml = read_lime_text(dir.file("f.lime"), *find_lime_record(records, type));
    EXPECT_NE(xml.find("<gauge_fixing><gauge>coulomb</gauge><tolerance>1e-13</tolerance>"),
              std::string::npos)
        << type << ": " << xml;
    EXPECT_NE(xml.find("<converged>true</converged>"), std::string::npos) << type;
    EXPECT_NE(xml.find("wilson beta=5.7 &lt;a &amp; b&gt; &apos;q&apos;"), std::string::npos)
        << type;
  }
}

TEST(Provenance, MalformedValuesAreRefusedNamingTheKey) {
  const int L[4] = {2, 2, 2, 2};
  TempDir dir;
  WriteOptions w;
  w.provenance = full_provenance();
  write_nersc(dir.file("good"), random_field(L, 3, 1, 0.3), w, self_world());
  const std::string good = read_bytes(dir.file("good"));
  for (const auto& [from, to, key] :
       {std::tuple{"GAUGE_FIXING_THETA = 3.8891901582452115e-23", "GAUGE_FIXING_THETA = small",
                   "GAUGE_FIXING_THETA"},
        std::tuple{"SEQUENCE_NUMBER = 400", "SEQUENCE_NUMBER = 4x0", "SEQUENCE_NUMBER"},
        std::tuple{"GAUGE_FIXING_CONVERGED = TRUE", "GAUGE_FIXING_CONVERGED = yes",
                   "GAUGE_FIXING_CONVERGED"}}) {
    std::string bad = good;
    const std::size_t at = bad.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    bad.replace(at, std::string(from).size(), to);
    write_bytes(dir.file("bad"), bad);
    try {
      read_gauge_file(dir.file("bad"), self_world());
      ADD_FAILURE() << to << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("bad"), std::string::npos) << e.what();
    }
  }
}

// A converted file whose input records no sequence number (MILC, openQCD) has none after
// the conversion either, and a sequence number the input records is carried over: what
// `gaugefix convert` does (read_gauge_file, then write_gauge_file with the input's provenance).
TEST(Provenance, ConversionsToNerscInventNoSequenceNumber) {
  const int L[4] = {4, 4, 2, 4};
  TempDir dir;
  for (const FileFormat from : {FileFormat::milc, FileFormat::openqcd, FileFormat::hdf5}) {
    const std::string name = format_name(from);
    WriteOptions w;
    w.format = from;
    w.double_precision = from != FileFormat::milc;
    if (from == FileFormat::hdf5) w.provenance.sequence_number = 120;
    write_gauge_file(dir.file(name), random_field(L, 3, 7, 0.3), w, self_world());
    FileInfo in;
    const HostField u = read_gauge_file(dir.file(name), self_world(), {}, &in);
    WriteOptions to;
    to.format = FileFormat::nersc;
    to.provenance = in.provenance;
    write_gauge_file(dir.file(name + ".nersc"), u, to, self_world());
    const NerscHeader h = read_nersc_header(dir.file(name + ".nersc"));
    FileInfo out;
    read_gauge_file(dir.file(name + ".nersc"), self_world(), {}, &out);
    if (from == FileFormat::hdf5) {
      EXPECT_EQ(h.entries.at("SEQUENCE_NUMBER"), "120");
      EXPECT_EQ(h.entries.count("SEQUENCE_NUMBER_KNOWN"), 0u);
      EXPECT_EQ(out.provenance.sequence_number, 120);
    } else {
      EXPECT_EQ(h.entries.at("SEQUENCE_NUMBER_KNOWN"), "FALSE") << name;
      EXPECT_FALSE(out.provenance.sequence_number) << name;
      EXPECT_FALSE(read_sequence_number(dir.file(name + ".nersc"))) << name;
    }
  }
}

TEST(Provenance, SequenceNumberKnownIsTrueOrFalse) {
  const int L[4] = {2, 2, 2, 2};
  TempDir dir;
  write_nersc(dir.file("plain"), random_field(L, 3, 1, 0.3), WriteOptions{}, self_world());
  std::string bytes = read_bytes(dir.file("plain"));
  const std::string from = "SEQUENCE_NUMBER_KNOWN = FALSE";
  const std::size_t at = bytes.find(from);
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, from.size(), "SEQUENCE_NUMBER_KNOWN = TRUE ");
  write_bytes(dir.file("known"), bytes); // same length: the data stays where it was
  FileInfo info;
  read_gauge_file(dir.file("known"), self_world(), {}, &info);
  EXPECT_EQ(info.provenance.sequence_number, 1);
  bytes.replace(at, from.size(), "SEQUENCE_NUMBER_KNOWN = maybe");
  write_bytes(dir.file("bad"), bytes);
  try {
    read_gauge_file(dir.file("bad"), self_world());
    ADD_FAILURE() << "SEQUENCE_NUMBER_KNOWN = maybe accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("SEQUENCE_NUMBER_KNOWN"), std::string::npos) << e.what();
  }
}

TEST(OutputFormat, ExtensionsAndWhatFormatsHold) {
  EXPECT_EQ(output_format("--output", "a/out.h5", "--output-format", std::nullopt),
            FileFormat::hdf5);
  EXPECT_EQ(output_format("--output", "out.HDF5", "--output-format", std::nullopt),
            FileFormat::hdf5);
  EXPECT_EQ(output_format("--output", "out.lime", "--output-format", std::nullopt),
            FileFormat::ildg);
  EXPECT_EQ(output_format("--output", "out.lime", "--output-format", FileFormat::scidac),
            FileFormat::scidac);
  EXPECT_EQ(output_format("--output", "cfg.0000", "--output-format", std::nullopt),
            FileFormat::nersc);
  EXPECT_EQ(output_format("--output", "cfg.0000", "--output-format", FileFormat::milc),
            FileFormat::milc);
  try {
    output_format("--output", "out.h5", "--output-format", FileFormat::nersc);
    ADD_FAILURE() << "out.h5 as NERSC accepted";
  } catch (const Error& e) {
    for (const char* word : {"--output", "out.h5", "hdf5", "--output-format", "nersc"})
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << word << ": " << e.what();
  }
  EXPECT_EQ(format_limit(FileFormat::nersc, 2, 4), "");
  EXPECT_EQ(format_limit(FileFormat::scidac, 2, 8), "");
  EXPECT_NE(format_limit(FileFormat::ildg, 2, 8), "");
  EXPECT_NE(format_limit(FileFormat::milc, 3, 8), "");
  EXPECT_EQ(format_limit(FileFormat::milc, 3, 4), "");
  EXPECT_NE(format_limit(FileFormat::openqcd, 3, 4), "");
  EXPECT_NE(format_limit(FileFormat::openqcd, 2, 8), "");
}

} // namespace
