// test_fix_plan.cpp: the two front-ends describe a fix alike (run/fix_plan.h): `gaugefix fix`
// parsing a command line and gaugefix::fix given FixOptions of the same values fill the same
// FixPlan, field for field, and so do their defaults; a bad name of a typed option on the
// command line ends the parse with the name table's message naming the option.
#include "api/fix_plan_of.h"
#include "app/fix_command.h"
#include "core/error.h"
#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace gf {
namespace {

// The options of `gaugefix fix <args>`, as run_fix completes them.
FixCommandOptions parsed(std::vector<std::string> args) {
  CLI::App app;
  FixCommandOptions opt;
  add_fix_options(*app.add_subcommand("fix"), opt);
  args.insert(args.begin(), "fix");
  std::vector<char*> argv = {const_cast<char*>("gaugefix")};
  for (std::string& a : args)
    argv.push_back(a.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  complete_plan(opt);
  return opt;
}

TEST(FixPlan, DefaultsOfTheCommandLineAndTheLibraryAgree) {
  EXPECT_TRUE(parsed({}).plan == gaugefix::fix_plan_of(gaugefix::FixOptions{}));
}

TEST(FixPlan, TheSameOptionsGiveTheSamePlan) {
  const FixCommandOptions cli = parsed({"--gauge",
                                        "coulomb",
                                        "--algorithm",
                                        "facg",
                                        "--alpha",
                                        "0.25",
                                        "--omega",
                                        "1.5",
                                        "--sr-probability",
                                        "0.3",
                                        "--anneal-steps",
                                        "7",
                                        "--t-max",
                                        "3",
                                        "--t-min",
                                        "0.01",
                                        "--micro-steps",
                                        "2",
                                        "--sr-steps",
                                        "5",
                                        "--tolerance",
                                        "1e-9",
                                        "--max-iterations",
                                        "123",
                                        "--check-interval",
                                        "7",
                                        "--reproject-interval",
                                        "11",
                                        "--precision",
                                        "single",
                                        "--preconditioner-precision",
                                        "single",
                                        "--backend",
                                        "cuda",
                                        "--storage",
                                        "18",
                                        "--seed",
                                        "99",
                                        "--tuning",
                                        "off",
                                        "--exchange",
                                        "staged",
                                        "--transform-output",
                                        "g.bin",
                                        "--history",
                                        "h.csv"});
  gaugefix::FixOptions o;
  o.gauge = gaugefix::Gauge::coulomb;
  o.algorithm = gaugefix::Algorithm::facg;
  o.alpha = 0.25;
  o.omega = 1.5;
  o.sr_probability = 0.3;
  o.anneal_steps = 7;
  o.t_max = 3;
  o.t_min = 0.01;
  o.micro_steps = 2;
  o.sr_steps = 5;
  o.tolerance = 1e-9;
  o.max_iterations = 123;
  o.check_interval = 7;
  o.reproject_interval = 11;
  o.precision = gaugefix::Precision::single;
  o.preconditioner_precision = gaugefix::PreconditionerPrecision::single;
  o.backend = gaugefix::Backend::cuda;
  o.storage = 18;
  o.seed = 99;
  o.tuning = gaugefix::Tuning::off;
  o.exchange = gaugefix::Exchange::staged;
  o.transform = true;
  o.history = true;
  EXPECT_TRUE(cli.plan == gaugefix::fix_plan_of(o));
  EXPECT_FALSE(cli.plan == FixPlan{}); // every option above was read
  EXPECT_EQ(cli.plan.gauge, GaugeKind::coulomb);
  EXPECT_EQ(cli.plan.exchange, ExchangePath::staged);
  EXPECT_EQ(cli.plan.alpha, 0.25);
}

TEST(FixPlan, ABadNameOnTheCommandLineNamesTheOption) {
  for (const auto& [args, message] :
       {std::pair<std::vector<std::string>, std::string>{
            {"--gauge", "landua"},
            "--gauge: unknown gauge 'landua' (expected landau, coulomb or mag; did you mean "
            "landau?)"},
        {{"--tuning", "always"},
         "--tuning: unknown tuning mode 'always' (expected off, cached, on or force)"},
        {{"--algorithm", "heatbath"},
         "--algorithm: unknown algorithm 'heatbath' (expected relaxation, overrelaxation, "
         "stochastic, fasd or facg)"}}) {
    try {
      parsed(args);
      ADD_FAILURE() << "no error for " << args[0];
    } catch (const CLI::ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

// A double preconditioner in a single fix is refused by both front-ends, naming the options.
TEST(FixPlan, ADoublePreconditionerInASingleFixIsRefused) {
  try {
    parsed({"--precision", "single", "--preconditioner-precision", "double"});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--preconditioner-precision double needs --precision "
                                         "double or mixed"),
              std::string::npos)
        << e.what();
  }
  gaugefix::FixOptions o;
  o.precision = gaugefix::Precision::single;
  o.preconditioner_precision = gaugefix::PreconditionerPrecision::double_;
  EXPECT_THROW(fix_schedule(gaugefix::fix_plan_of(o), OptionSpelling::api), Error);
  for (const char* p : {"double", "mixed"})
    EXPECT_EQ(parsed({"--precision", p, "--preconditioner-precision", "single"})
                  .plan.preconditioner_precision,
              gaugefix::PreconditionerPrecision::single);
}

} // namespace
} // namespace gf
