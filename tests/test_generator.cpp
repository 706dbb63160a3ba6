// The quenched ensemble generator (src/gen): the single-link heatbath distribution, the
// overrelaxation step, the plaquette at strong coupling and at beta = 6, SU(N) membership,
// independence of the thread count, bitwise resumption, and the parameter checks.
#include "core/error.h"
#include "fix/random_field.h"
#include "gen/ensemble.h"
#include "io/gauge_file.h"
#include "io/nersc.h"
#include "math/random_group.h"
#include "observables/observables.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>
#include <vector>

namespace gf {
namespace {

// Plaquette after each of `sweeps` sweeps (1 heatbath + or_sweeps overrelaxation) from a
// cold start; the first `skip` are left out. Full storage: the fastest on the CPU.
std::vector<double> plaquette_history(const int L[4], int nc, double beta, int or_sweeps, int skip,
                                      int sweeps) {
  const HostField u = random_field(L, nc, 1, 0.0, RandomPurpose::test);
  GeneratorOptions opt;
  opt.beta = beta;
  opt.seed = 20261122;
  opt.storage = Storage::full;
  auto gen = make_generator(u, opt);
  std::vector<double> p;
  for (int k = 1; k <= sweeps; ++k) {
    gen->sweep(LinkUpdateKind::heatbath, k);
    for (int o = 0; o < or_sweeps; ++o)
      gen->sweep(LinkUpdateKind::overrelaxation, k);
    if (k > skip) p.push_back(normalise(gen->measure(), u.geom, nc).plaquette);
  }
  return p;
}

struct MeanError {
  double mean, error;
};

// Jackknife over bins of `bin` consecutive measurements (autocorrelations shorter than a
// bin do not bias the error).
MeanError binned_jackknife(const std::vector<double>& x, int bin) {
  const int nb = static_cast<int>(x.size()) / bin;
  std::vector<double> sums(nb, 0.0);
  double total = 0;
  for (int b = 0; b < nb; ++b) {
    for (int i = 0; i < bin; ++i)
      sums[b] += x[b * bin + i];
    total += sums[b];
  }
  const double mean = total / (nb * bin);
  double var = 0;
  for (int b = 0; b < nb; ++b) {
    const double jk = (total - sums[b]) / ((nb - 1) * bin);
    var += (jk - mean) * (jk - mean);
  }
  return {mean, std::sqrt(var * (nb - 1) / nb)};
}

// ---- single link ---------------------------------------------------------------------

constexpr int n_samples = 20000;
const double ks_critical = 1.95 / std::sqrt(double(n_samples)); // 0.1% level

double ks_distance(std::vector<double> x, const std::function<double(double)>& cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    d = std::max({d, std::abs(cdf(x[i]) - i / n), std::abs((i + 1) / n - cdf(x[i]))});
  return d;
}

// CDF of sqrt(1 - a^2) exp(b a) on [-1, 1]: a = cos(th), midpoint rule in th on a fine grid.
std::function<double(double)> a0_cdf(double b) {
  const int m = 40000;
  std::vector<double> tail(m + 1, 0.0); // weight of th in [th_k, pi], th_k = k pi / m
  const double h = M_PI / m;
  for (int k = m - 1; k >= 0; --k) {
    const double th = (k + 0.5) * h;
    tail[k] = tail[k + 1] + h * std::sin(th) * std::sin(th) * std::exp(b * std::cos(th));
  }
  return [tail, h, m](double a) {
    const double th = std::acos(std::clamp(a, -1.0, 1.0));
    const int k = std::min(m - 1, static_cast<int>(th / h));
    const double f = th / h - k;
    return ((1 - f) * tail[k] + f * tail[k + 1]) / tail[0];
  };
}

class GeneratorSingleLink : public ::testing::TestWithParam<double> {};

// SU(2) link U with a fixed staple sum A = k V (k = sqrt(det A)): after a heatbath update,
// a0 = Re tr(U A) / (2k) has the density sqrt(1 - a0^2) exp(beta k a0). b = beta k spans
// Creutz's method (b < 2) and Kennedy-Pendleton (b >= 2).
TEST_P(GeneratorSingleLink, HeatbathMatchesExactDensity) {
  const double b = GetParam();
  Matrix<double, 2> a = Matrix<double, 2>::zero();
  for (int i = 0; i < 3; ++i)
    a = a + random_sun<double, 2>({5, std::uint64_t(i), 0, 0}, RandomPurpose::test);
  const double k = std::sqrt(determinant(a).re);
  const double beta = b / k;
  const Matrix<double, 2> u0 = random_sun<double, 2>({6, 0, 0, 0}, RandomPurpose::test);
  std::vector<double> a0;
  int accepted = 0;
  for (int n = 0; n < n_samples; ++n) {
    Matrix<double, 2> u = u0;
    accepted += update_link(LinkUpdateKind::heatbath, u, a, beta / 2, {11, 3, std::uint32_t(n), 1});
    ASSERT_LT(unitarity_deviation(u), 1e-13);
    a0.push_back(trace(u * a).re / (2 * k));
  }
  EXPECT_EQ(accepted, n_samples);
  EXPECT_LT(ks_distance(a0, a0_cdf(b)), ks_critical) << "b = " << b;
}

INSTANTIATE_TEST_SUITE_P(GeneratorCouplings, GeneratorSingleLink,
                         ::testing::Values(0.3, 1.9, 2.5, 12.0));

// The overrelaxation step keeps Re tr(U A) (SU(3): after all three subgroups) and is its own
// inverse for SU(2).
TEST(GeneratorSingleLinkOverrelaxation, KeepsActionAndIsInvolution) {
  Matrix<double, 3> a3 = Matrix<double, 3>::zero();
  for (int i = 0; i < 6; ++i)
    a3 = a3 + random_sun<double, 3>({7, std::uint64_t(i), 0, 0}, RandomPurpose::test) *
                  random_sun<double, 3>({8, std::uint64_t(i), 0, 0}, RandomPurpose::test);
  Matrix<double, 3> u3 = random_sun<double, 3>({9, 0, 0, 0}, RandomPurpose::test);
  const double before = trace(u3 * a3).re;
  update_link(LinkUpdateKind::overrelaxation, u3, a3, 2.0, {1, 0, 0, 0});
  EXPECT_NEAR(trace(u3 * a3).re, before, 1e-12);
  EXPECT_LT(unitarity_deviation(u3), 1e-14);

  Matrix<double, 2> a2 = random_sun<double, 2>({7, 0, 0, 0}, RandomPurpose::test) +
                         random_sun<double, 2>({7, 1, 0, 0}, RandomPurpose::test);
  const Matrix<double, 2> u2 = random_sun<double, 2>({9, 0, 0, 0}, RandomPurpose::test);
  Matrix<double, 2> v = u2;
  update_link(LinkUpdateKind::overrelaxation, v, a2, 1.0, {1, 0, 0, 0});
  EXPECT_GT(distance2(v, u2), 1e-4);
  EXPECT_NEAR(trace(v * a2).re, trace(u2 * a2).re, 1e-13);
  update_link(LinkUpdateKind::overrelaxation, v, a2, 1.0, {1, 0, 0, 0});
  EXPECT_LT(distance2(v, u2), 1e-26);
}

// ---- lattice ---------------------------------------------------------------------------

// Strong coupling: one plaquette's weight exp((beta/N) Re tr U_P) gives
//   SU(3): <P> = beta/18 + beta^2/216 + O(beta^3),   SU(2): <P> = beta/4 - beta^3/96 + ...;
// closed surfaces add O(u^5) (u the leading term). Tolerance: the next-order term (beta^2/216,
// beta^3/96) plus three jackknife errors. 6^4 lattice, one heatbath sweep per measurement,
// 10 sweeps discarded, 80 measurements in 8 bins of 10.
struct StrongCase {
  int nc;
  double beta, leading, next_order;
};

class GeneratorStrongCoupling : public ::testing::TestWithParam<StrongCase> {};

TEST_P(GeneratorStrongCoupling, PlaquetteMatchesLeadingOrder) {
  const StrongCase c = GetParam();
  const int L[4] = {6, 6, 6, 6};
  const MeanError p = binned_jackknife(plaquette_history(L, c.nc, c.beta, 0, 10, 90), 10);
  EXPECT_NEAR(p.mean, c.leading, 3 * p.error + c.next_order)
      << "SU(" << c.nc << ") beta " << c.beta << ": " << p.mean << " +- " << p.error;
  EXPECT_LT(p.error, 0.1 * c.leading); // the test can tell beta/18 from beta/9 or beta/36
}

INSTANTIATE_TEST_SUITE_P(GeneratorGroups, GeneratorStrongCoupling,
                         ::testing::Values(StrongCase{3, 0.5, 0.5 / 18, 0.5 * 0.5 / 216},
                                           StrongCase{2, 0.5, 0.5 / 4, 0.5 * 0.5 * 0.5 / 96}));

// SU(3) at beta = 6.0 on 8^4, 1 heatbath + 1 overrelaxation sweep per measurement from a
// cold start: 20 sweeps discarded, 120 measurements in 12 bins of 10 (the integrated
// autocorrelation time of the plaquette is a few sweeps, docs/generator.md); the mean
// agrees with 0.5937 (literature, large volumes) within three jackknife errors.
TEST(GeneratorBeta6, PlaquetteMatchesLiterature) {
  const int L[4] = {8, 8, 8, 8};
  const MeanError p = binned_jackknife(plaquette_history(L, 3, 6.0, 1, 20, 140), 10);
  EXPECT_NEAR(p.mean, 0.5937, 3 * p.error) << p.mean << " +- " << p.error;
  EXPECT_LT(p.error, 5e-4);
}

// Full (18-real) storage is never reunitarised during the run, so this measures the rounding
// drift of the updates themselves; 12-real storage reunitarises on every load, 8-real
// storage decodes to SU(3) by construction.
TEST(GeneratorLattice, LinksStayInSUN) {
  const int L[4] = {4, 4, 4, 4};
  for (int nc : {2, 3})
    for (Storage storage : {Storage::full, Storage::rows, Storage::params8}) {
      if (storage == Storage::params8 && nc != 3) continue;
      HostField u = random_field(L, nc, 3, 1.0, RandomPurpose::test);
      GeneratorOptions opt;
      opt.beta = nc == 3 ? 5.7 : 2.3;
      opt.storage = storage;
      auto gen = make_generator(u, opt);
      for (int k = 1; k <= 10; ++k) {
        gen->sweep(LinkUpdateKind::heatbath, k);
        gen->sweep(LinkUpdateKind::overrelaxation, k);
        gen->sweep(LinkUpdateKind::overrelaxation, k);
      }
      gen->download(u);
      EXPECT_LT(max_unitarity_violation(u), 1e-12) << "SU(" << nc << ") storage " << int(storage);
    }
}

// The engine's plaquette (per-slice sums in fixed order) equals the host-side one.
TEST(GeneratorLattice, PlaquetteMatchesHostObservable) {
  const int L[4] = {4, 6, 4, 8};
  for (int nc : {2, 3}) {
    const HostField u = random_field(L, nc, 4, 0.6, RandomPurpose::test);
    auto gen = make_generator(u, GeneratorOptions{});
    EXPECT_NEAR(normalise(gen->measure(), u.geom, nc).plaquette, plaquette(u), 1e-14);
  }
}

// The same seed gives bitwise the same field and measurement on 1 and 2 OpenMP threads.
TEST(GeneratorLattice, SameFieldForAnyThreadCount) {
  const int L[4] = {4, 4, 6, 4};
  for (int nc : {2, 3}) {
    HostField result[2];
    GeneratorSums sums[2];
    const int saved = omp_get_max_threads();
    for (int threads : {1, 2}) {
      omp_set_num_threads(threads);
      HostField u = random_field(L, nc, 5, 1.0, RandomPurpose::test);
      GeneratorOptions opt;
      opt.beta = 5.0;
      opt.seed = 99;
      auto gen = make_generator(u, opt);
      for (int k = 1; k <= 3; ++k) {
        gen->sweep(LinkUpdateKind::heatbath, k);
        gen->sweep(LinkUpdateKind::overrelaxation, k);
      }
      sums[threads - 1] = gen->measure();
      gen->download(u);
      result[threads - 1] = u;
    }
    omp_set_num_threads(saved);
    EXPECT_EQ(result[0].data.size(), result[1].data.size());
    EXPECT_EQ(0, std::memcmp(result[0].data.data(), result[1].data.data(),
                             result[0].data.size() * sizeof(Complex<double>)));
    EXPECT_EQ(sums[0].plaquette, sums[1].plaquette);
    EXPECT_EQ(sums[0].accepted, sums[1].accepted);
  }
}

// ---- ensemble runs ---------------------------------------------------------------------

class GeneratorEnsemble : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gaugefix_gen_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  EnsembleOptions options(const std::string& name) const {
    EnsembleOptions o;
    o.lattice = {4, 4, 4, 4};
    o.start = "hot";
    o.thermalisation = 3;
    o.separation = 2;
    o.configs = 4;
    o.or_sweeps = 2;
    o.output_prefix = (dir_ / name).string();
    o.generator.beta = 5.8;
    o.generator.seed = 314;
    return o;
  }

  std::filesystem::path dir_;
};

std::string entry(const FileInfo& info, const std::string& key) {
  for (const auto& [k, v] : info.stored)
    if (k == key) return v;
  return "";
}

// Run A: 4 configurations in one go. Run B: 2, then resumed to 4, and once more (nothing to
// do). Every configuration is bitwise the same, with the same SEQUENCE_NUMBER.
TEST_F(GeneratorEnsemble, ResumeIsBitwiseIdentical) {
  for (int nc : {2, 3}) {
    EnsembleOptions a = options("a" + std::to_string(nc)), b = options("b" + std::to_string(nc));
    a.nc = b.nc = nc;
    EXPECT_EQ(run_ensemble(a).written, 4);
    b.configs = 2;
    EXPECT_EQ(run_ensemble(b).written, 2);
    b.configs = 4;
    const EnsembleResult resumed = run_ensemble(b);
    EXPECT_EQ(resumed.written, 2);
    EXPECT_EQ(resumed.sweeps, 4);
    EXPECT_EQ(run_ensemble(b).written, 0);
    for (int j = 0; j < 4; ++j) {
      FileInfo ia, ib;
      const HostField ua = read_nersc(config_path(a.output_prefix, j), World(), {}, &ia);
      const HostField ub = read_nersc(config_path(b.output_prefix, j), World(), {}, &ib);
      EXPECT_EQ(entry(ia, "SEQUENCE_NUMBER"), std::to_string(3 + 2 * j));
      EXPECT_EQ(entry(ia, "SEQUENCE_NUMBER"), entry(ib, "SEQUENCE_NUMBER"));
      ASSERT_EQ(ua.data.size(), ub.data.size());
      EXPECT_EQ(
          0, std::memcmp(ua.data.data(), ub.data.data(), ua.data.size() * sizeof(Complex<double>)))
          << "SU(" << nc << ") configuration " << j;
    }
  }
}

// A resumed run with other parameters is refused instead of mixing two ensembles.
TEST_F(GeneratorEnsemble, ResumeRefusesOtherParameters) {
  EnsembleOptions o = options("c");
  o.configs = 1;
  run_ensemble(o);
  o.configs = 2;
  EnsembleOptions other_beta = o, other_separation = o, other_lattice = o;
  other_beta.generator.beta = 6.0;
  other_separation.thermalisation = 1;
  other_lattice.lattice = {4, 4, 4, 6};
  for (const EnsembleOptions& bad : {other_beta, other_separation, other_lattice})
    EXPECT_THROW(run_ensemble(bad), Error);
  EXPECT_EQ(run_ensemble(o).written, 1);
}

// Starting from a file continues its chain; an SU(2) file with --group su3 is refused.
TEST_F(GeneratorEnsemble, StartsFromFile) {
  EnsembleOptions o = options("s");
  o.nc = 2;
  o.configs = 1;
  run_ensemble(o);
  EnsembleOptions f = options("f");
  f.start = config_path(o.output_prefix, 0);
  f.lattice = {0, 0, 0, 0};
  f.configs = 1;
  EXPECT_EQ(run_ensemble(f).written, 1);
  EXPECT_EQ(read_nersc(config_path(f.output_prefix, 0), World()).nc, 2);
  f.output_prefix = (dir_ / "g").string();
  f.nc = 3;
  EXPECT_THROW(run_ensemble(f), Error);
}

// --start reads every format fix reads (read_gauge_file): a 64-bit start file in any format
// continues to the configuration the NERSC start file gives, bit for bit; a 32-bit MILC start
// (reunitarised on reading) runs and writes an SU(3) configuration of the same lattice.
TEST_F(GeneratorEnsemble, StartsFromEveryFormat) {
  const int L[4] = {4, 4, 4, 6};
  const HostField hot = random_field(L, 3, 77, 1.0, RandomPurpose::test);
  const auto start_run = [&](FileFormat format, bool double_precision) {
    const std::string name = std::string("start_") + format_name(format);
    WriteOptions w;
    w.format = format;
    w.double_precision = double_precision;
    w.full_matrix = true;
    const std::string start = (dir_ / (name + ".cfg")).string();
    write_gauge_file(start, hot, w, World());
    EXPECT_EQ(detect_format(start), format);
    EnsembleOptions o = options(name);
    o.start = start;
    o.lattice = {0, 0, 0, 0};
    o.configs = 1;
    EXPECT_EQ(run_ensemble(o).written, 1) << name;
    return read_nersc(config_path(o.output_prefix, 0), World());
  };
  const HostField reference = start_run(FileFormat::nersc, true);
  for (FileFormat format :
       {FileFormat::ildg, FileFormat::scidac, FileFormat::openqcd, FileFormat::hdf5}) {
    const HostField u = start_run(format, true);
    ASSERT_EQ(u.data.size(), reference.data.size());
    EXPECT_EQ(0, std::memcmp(u.data.data(), reference.data.data(),
                             u.data.size() * sizeof(Complex<double>)))
        << format_name(format);
  }
  const HostField milc = start_run(FileFormat::milc, false);
  EXPECT_EQ(milc.nc, 3);
  EXPECT_EQ(milc.geom.L[3], 6);
  EXPECT_LT(max_unitarity_violation(milc), 1e-12);
}

void expect_error_naming(const EnsembleOptions& o, const std::string& option) {
  try {
    validate(o);
    ADD_FAILURE() << "no error for " << option;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(option), std::string::npos) << e.what();
  }
}

// Every --output-format that records the label and the sweep: a run resumed from its files
// writes the configurations of the uninterrupted NERSC run, bit for bit; ILDG for SU(2) is
// refused before any sweep.
TEST_F(GeneratorEnsemble, ResumesInEveryFormatThatRecordsTheEnsemble) {
  EnsembleOptions reference = options("nersc");
  reference.configs = 3;
  run_ensemble(reference);
  for (FileFormat format : {FileFormat::ildg, FileFormat::scidac, FileFormat::hdf5}) {
    EnsembleOptions o = options(format_name(format));
    o.format = format;
    o.configs = 2;
    EXPECT_EQ(run_ensemble(o).written, 2);
    o.configs = 3;
    EXPECT_EQ(run_ensemble(o).written, 1) << format_name(format);
    for (int j = 0; j < 3; ++j) {
      const std::string path = config_path(o.output_prefix, j);
      EXPECT_EQ(detect_format(path), format);
      EXPECT_EQ(read_sequence_number(path), 3 + 2 * j);
      const HostField u = read_gauge_file(path, World());
      const HostField r = read_nersc(config_path(reference.output_prefix, j), World());
      ASSERT_EQ(u.data.size(), r.data.size());
      EXPECT_EQ(0,
                std::memcmp(u.data.data(), r.data.data(), u.data.size() * sizeof(Complex<double>)))
          << format_name(format) << " configuration " << j;
    }
  }
  EnsembleOptions su2 = options("su2_ildg");
  su2.nc = 2;
  su2.format = FileFormat::ildg;
  EXPECT_THROW(run_ensemble(su2), Error);
  EXPECT_FALSE(std::filesystem::exists(config_path(su2.output_prefix, 0)));
}

// MILC and openQCD configurations are the NERSC run's (openQCD bit for bit, MILC to its 32
// bits) without label or sweep; a run cannot resume from them (the refusal names the file and
// --start, and writes nothing), and --start of the last one continues the stream as a new
// ensemble in the same format.
TEST_F(GeneratorEnsemble, WritesMilcAndOpenqcdThatCannotBeResumed) {
  EnsembleOptions reference = options("nersc");
  reference.configs = 2;
  run_ensemble(reference);
  for (FileFormat format : {FileFormat::milc, FileFormat::openqcd}) {
    const std::string name = format_name(format);
    EnsembleOptions o = options(name);
    o.format = format;
    o.configs = 2;
    EXPECT_EQ(run_ensemble(o).written, 2) << name;
    for (int j = 0; j < 2; ++j) {
      const std::string path = config_path(o.output_prefix, j);
      EXPECT_EQ(detect_format(path), format);
      FileInfo info;
      const HostField u = read_gauge_file(path, World(), {}, &info);
      EXPECT_TRUE(info.provenance.ensemble_label.empty()) << path;
      EXPECT_FALSE(info.provenance.sequence_number) << path;
      const HostField r = read_nersc(config_path(reference.output_prefix, j), World());
      ASSERT_EQ(u.data.size(), r.data.size());
      double worst = 0;
      for (std::size_t i = 0; i < u.data.size(); ++i)
        worst =
            std::max(worst, std::hypot(u.data[i].re - r.data[i].re, u.data[i].im - r.data[i].im));
      EXPECT_LE(worst, format == FileFormat::milc ? 1e-6 : 0.0) << path;
    }
    o.configs = 3;
    try {
      run_ensemble(o);
      ADD_FAILURE() << name << ": resumed from a file without label and sweep";
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(config_path(o.output_prefix, 1)), std::string::npos) << message;
      EXPECT_NE(message.find("--start"), std::string::npos) << message;
    }
    EXPECT_FALSE(std::filesystem::exists(config_path(o.output_prefix, 2)));
    EnsembleOptions next = options(name + "_next");
    next.start = config_path(o.output_prefix, 1);
    next.lattice = {0, 0, 0, 0};
    next.format = format;
    next.configs = 1;
    EXPECT_EQ(run_ensemble(next).written, 1) << name;
    EXPECT_EQ(detect_format(config_path(next.output_prefix, 0)), format);
  }
}

TEST_F(GeneratorEnsemble, BadParametersNameTheOption) {
  const EnsembleOptions good = options("x");
  EXPECT_NO_THROW(validate(good));
  EnsembleOptions o = good;
  o.generator.beta = 0;
  expect_error_naming(o, "--beta");
  o.generator.beta = -1;
  expect_error_naming(o, "--beta");
  o = good;
  o.lattice = {4, 4, 4, 5};
  expect_error_naming(o, "--lattice");
  o.lattice = {4, 0, 4, 4};
  expect_error_naming(o, "--lattice");
  o.lattice = {0, 0, 0, 0};
  expect_error_naming(o, "--lattice");
  o = good;
  o.configs = 0;
  expect_error_naming(o, "--configs");
  o = good;
  o.separation = 0;
  expect_error_naming(o, "--separation");
  o = good;
  o.thermalisation = -1;
  expect_error_naming(o, "--thermalisation");
  o = good;
  o.or_sweeps = -2;
  expect_error_naming(o, "--or-sweeps");
  o = good;
  o.measure_interval = 0;
  expect_error_naming(o, "--measure-interval");
  o = good;
  o.nc = 4;
  expect_error_naming(o, "--group");
  o = good;
  o.output_prefix = "";
  expect_error_naming(o, "--output-prefix");
  o.output_prefix = "/nonexistent/dir/cfg";
  expect_error_naming(o, "--output-prefix");
}

} // namespace
} // namespace gf
