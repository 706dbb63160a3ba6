// test_gauge_check.cpp: what `gaugefix fix` writes can be verified: the F and theta that
// `gaugefix info --check` measures in the written file (measure_gauge) agree with the
// summary's to 1e-12, for every gauge, SU(2) and SU(3), and several output formats; and the
// written file carries the input's ensemble and the record of the fixing (provenance).
#include "app/fix_command.h"
#include "core/log.h"
#include "fix/gauge_check.h"
#include "gauge_file_test_util.h"
#include "io/gauge_file.h"
#include "test_fields.h"
#include <tuple>
#include <yaml-cpp/yaml.h>

namespace gf {
namespace {

using testing::self_world;
using testing::TempDir;

using Case = std::tuple<GaugeKind, int, const char*>; // gauge, group, output format

class GaugeCheck : public ::testing::TestWithParam<Case> {};

TEST_P(GaugeCheck, InfoCheckAgreesWithTheFixSummary) {
  const auto [gauge, nc, format] = GetParam();
  TempDir dir;
  const int L[4] = {4, 4, 4, 6};
  WriteOptions in;
  in.provenance.ensemble_id = "check";
  in.provenance.ensemble_label = "test ensemble";
  in.provenance.sequence_number = 12;
  write_gauge_file(dir.file("in.nersc"), testing::random_field(L, nc, 3, 0.3), in, self_world());

  FixCommandOptions opt;
  opt.input = {dir.file("in.nersc")};
  opt.output = dir.file("fixed");
  opt.output_format = format;
  opt.summary = dir.file("summary.yaml");
  opt.plan.gauge = gauge;
  opt.plan.tolerance = 1e-12;
  opt.plan.check_interval = 10;
  gf::log::set_verbosity(gf::log::Verbosity::quiet); // no progress lines
  ASSERT_EQ(run_fix(opt, "test"), 0);

  const YAML::Node s = YAML::LoadFile(opt.summary)["configurations"][0];
  FileInfo info;
  const HostField fixed = read_gauge_file(opt.output, self_world(), {}, &info);
  const std::string written = format;
  EXPECT_EQ(format_name(info.format), written == "nersc-2row" ? "nersc" : written);
  const Measurement m = measure_gauge(fixed, gauge, self_world());
  EXPECT_NEAR(m.functional, s["functional"].as<double>(), 1e-12);
  EXPECT_NEAR(m.theta, s["theta"].as<double>(), 1e-12);
  EXPECT_NEAR(m.theta_max_slice, s["theta_max_slice"].as<double>(), 1e-12);
  EXPECT_EQ(m.theta_per_slice.size(), std::size_t(L[3]));

  const Provenance& p = info.provenance;
  EXPECT_EQ(p.ensemble_id, "check");
  EXPECT_EQ(p.ensemble_label, "test ensemble");
  EXPECT_EQ(p.sequence_number, 12);
  ASSERT_TRUE(p.gauge_fixing);
  EXPECT_EQ(p.gauge_fixing->gauge, name_of(gauge));
  EXPECT_EQ(p.gauge_fixing->functional, s["functional"].as<double>());
  EXPECT_EQ(p.gauge_fixing->theta, s["theta"].as<double>());
  EXPECT_EQ(p.gauge_fixing->iterations, s["iterations"].as<long long>());
  EXPECT_EQ(p.gauge_fixing->tolerance, 1e-12);
  EXPECT_TRUE(p.gauge_fixing->converged);
  EXPECT_EQ(p.gauge_fixing->precision, "double");
}

INSTANTIATE_TEST_SUITE_P(
    EveryGauge, GaugeCheck,
    ::testing::Values(Case{GaugeKind::landau, 3, "nersc"}, Case{GaugeKind::coulomb, 3, "hdf5"},
                      Case{GaugeKind::mag, 3, "ildg"}, Case{GaugeKind::landau, 2, "scidac"},
                      Case{GaugeKind::coulomb, 2, "nersc-2row"}, Case{GaugeKind::mag, 2, "hdf5"}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string format = std::get<2>(info.param);
      std::replace(format.begin(), format.end(), '-', '_');
      return std::string(name_of(std::get<0>(info.param))) + "_SU" +
             std::to_string(std::get<1>(info.param)) + "_" + format;
    });

} // namespace
} // namespace gf
