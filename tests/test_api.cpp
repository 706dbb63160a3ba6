// test_api.cpp: the public C++ API (include/gaugefix/gaugefix.h) through the shared
// libgaugefix, linked as a user links it (nothing of namespace gf is visible): the memory
// order of Field; a fix that reaches its tolerance, whose g(x) takes the input to the fixed
// field and which leaves the plaquette alone; the progress callback; the automatic storage;
// errors as gaugefix::Error naming the function and the option or file; fields not in SU(N)
// refused, or projected onto it with reproject; the measurements' tables. ApiRanks (also run
// on 2 ranks): with a communicator every rank's slab of generate, fix, measure and write, and
// the gluon propagator, static potential, ghost propagator, lowest eigenvalue and Abelian
// projection of the slabs, are the single-process result, bit for bit.
#include "gaugefix/gaugefix.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <mpi.h>
#include <string>
#include <unistd.h>

namespace {

using namespace gaugefix;

Communicator world() {
  return Communicator::from_fortran(MPI_Comm_c2f(MPI_COMM_WORLD));
}

// A fresh folder shared by the ranks of MPI_COMM_WORLD, removed at the end.
class TempDir {
public:
  TempDir() {
    char buf[4096] = {};
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      const std::string pattern =
          (std::filesystem::temp_directory_path() / "gaugefix_api_test_XXXXXX").string();
      std::copy(pattern.begin(), pattern.end(), buf);
      if (!mkdtemp(buf)) std::abort();
    }
    MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
    path_ = buf;
  }
  ~TempDir() {
    MPI_Barrier(MPI_COMM_WORLD);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::error_code ec;
    if (rank == 0) std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

double max_difference(const Field& a, const Field& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    worst = std::max(worst, std::abs(a.data()[i] - b.data()[i]));
  return worst;
}

// The slab [t0, t0 + nt) of `whole` equals `slab` bit for bit.
void expect_slab_of(const Field& slab, const Field& whole) {
  ASSERT_EQ(slab.lattice(), whole.lattice());
  const std::size_t per_slice = whole.size() / whole.lattice()[3];
  ASSERT_EQ(slab.size(), per_slice * slab.nt());
  EXPECT_TRUE(
      std::equal(slab.data(), slab.data() + slab.size(), whole.data() + per_slice * slab.t0()));
}

template <class F>
void expect_error(F f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no gaugefix::Error; expected one naming '" << part << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

Field generated(std::array<int, 4> lattice, const Communicator& comm = {}) {
  GenerateOptions g;
  g.lattice = lattice;
  g.beta = 5.8;
  g.sweeps = 3;
  g.communicator = comm;
  return generate(g);
}

TEST(Api, FieldMemoryOrderIsTZYXMuAB) {
  const Field f({4, 6, 2, 8}, 3);
  EXPECT_EQ(f.size(), std::size_t(8) * 2 * 6 * 4 * 4 * 9);
  EXPECT_EQ(f.t0(), 0);
  EXPECT_EQ(f.nt(), 8);
  EXPECT_EQ(f.ndir(), 4);
  const int x = 3, y = 5, z = 1, t = 6, mu = 2, a = 1, b = 2;
  EXPECT_EQ(f.index(x, y, z, t, mu, a, b),
            std::size_t(((((t * 2 + z) * 6 + y) * 4 + x) * 4 + mu) * 9 + a * 3 + b));
  EXPECT_TRUE(std::all_of(f.data(), f.data() + f.size(), [](auto c) { return c == 0.0; }));
  const Field g({4, 4, 4, 4}, 2, 1);
  EXPECT_EQ(g.size(), std::size_t(256) * 4);
  EXPECT_EQ(g.index(1, 0, 0, 0, 0, 1, 0), std::size_t(4 + 2));
  EXPECT_TRUE(Field().empty());
}

TEST(Api, FixReachesTheToleranceAndItsTransformTakesTheInputThere) {
  for (const Gauge gauge : {Gauge::landau, Gauge::coulomb, Gauge::mag}) {
    SCOPED_TRACE(to_string(gauge));
    Field u = generated({4, 4, 4, 8});
    random_transform(u, 11);
    const Field input = u;
    FixOptions o;
    o.gauge = gauge;
    o.transform = true;
    const FixResult r = fix(u, o);
    EXPECT_TRUE(r.converged);
    const GaugeCondition m = measure(u, gauge);
    if (gauge == Gauge::coulomb) {
      EXPECT_LT(r.final.theta_max_slice, o.tolerance);
      EXPECT_LT(m.theta_max_slice, o.tolerance);
      EXPECT_EQ(m.theta_per_slice.size(), 8u);
    } else {
      EXPECT_LT(r.final.theta, o.tolerance);
      EXPECT_LT(m.theta, o.tolerance);
    }
    EXPECT_NEAR(m.functional, r.final.functional, 1e-12);
    EXPECT_NEAR(plaquette(u), plaquette(input), 1e-12);
    Field rotated = input;
    apply_transform(rotated, r.transform);
    EXPECT_LT(max_difference(rotated, u), 1e-12);
    EXPECT_EQ(r.record.gauge, to_string(gauge));
    EXPECT_TRUE(r.record.converged);
    EXPECT_EQ(r.record.version, version());
    EXPECT_EQ(r.record.theta, r.final.theta);
  }
}

TEST(Api, ProgressIsReportedAtEachMeasurement) {
  Field u = generated({4, 4, 4, 4});
  random_transform(u, 3);
  FixOptions o;
  o.anneal_steps = 4;
  o.check_interval = 2;
  std::vector<Progress> seen;
  o.progress = [&seen](const Progress& p) { seen.push_back(p); };
  const FixResult r = fix(u, o);
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[0].phase, "anneal");
  EXPECT_GT(seen[0].temperature, 0);
  EXPECT_EQ(seen.back().phase, "overrelaxation");
  EXPECT_EQ(seen.back().iteration, r.iterations);
  EXPECT_EQ(seen.back().measured.theta, r.final.theta);
  for (std::size_t k = 1; k < seen.size(); ++k)
    EXPECT_GT(seen[k].iteration, seen[k - 1].iteration);
}

TEST(Api, NotConvergedIsAResultNotAnError) {
  GenerateOptions g;
  g.lattice = {4, 4, 4, 4};
  g.start = Start::hot;
  Field u = generate(g);
  FixOptions o;
  o.max_iterations = 2;
  const FixResult r = fix(u, o);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_GT(r.final.theta, o.tolerance);
  EXPECT_TRUE(r.transform.empty());
}

// storage 0 (auto) takes 18 reals for fasd/facg on the CPU and 12 otherwise: its fixed field
// is bitwise the one of that storage, and not the one of the other (the two round apart).
TEST(Api, AutomaticStorageIsEighteenRealsForFourierOnTheCpu) {
  Field start = generated({4, 4, 4, 8});
  random_transform(start, 5);
  auto fixed = [&start](Algorithm algorithm, int storage) {
    Field u = start;
    FixOptions o;
    o.algorithm = algorithm;
    o.storage = storage;
    o.max_iterations = 30; // converged or not: the fields are compared, not the result
    fix(u, o);
    return u;
  };
  for (const Algorithm algorithm : {Algorithm::facg, Algorithm::overrelaxation}) {
    SCOPED_TRACE(to_string(algorithm));
    const bool fourier = algorithm == Algorithm::facg;
    const Field automatic = fixed(algorithm, 0), with18 = fixed(algorithm, 18),
                with12 = fixed(algorithm, 12);
    const Field& chosen = fourier ? with18 : with12;
    const Field& other = fourier ? with12 : with18;
    EXPECT_EQ(max_difference(automatic, chosen), 0.0);
    EXPECT_GT(max_difference(automatic, other), 0.0);
  }
}

// Every typed option's names (gaugefix/options.h) read back as the values they name; a bad
// name is an Error naming the option, the value, the names accepted and the nearest one.
template <class E>
void expect_names_round_trip(std::initializer_list<E> values,
                             E (*parse)(const std::string&, const std::string&)) {
  for (const E v : values)
    EXPECT_EQ(parse(to_string(v), "option"), v) << to_string(v);
}

TEST(Api, OptionNamesRoundTripAndABadNameNamesTheOption) {
  expect_names_round_trip({Gauge::landau, Gauge::coulomb, Gauge::mag}, parse_gauge);
  expect_names_round_trip({Algorithm::relaxation, Algorithm::overrelaxation, Algorithm::stochastic,
                           Algorithm::fasd, Algorithm::facg},
                          parse_algorithm);
  expect_names_round_trip({Precision::single, Precision::mixed, Precision::double_},
                          parse_precision);
  expect_names_round_trip({Backend::cpu, Backend::cuda}, parse_backend);
  expect_names_round_trip(
      {Tuning::from_environment, Tuning::off, Tuning::cached, Tuning::on, Tuning::force},
      parse_tuning);
  expect_names_round_trip({Exchange::automatic, Exchange::staged, Exchange::direct, Exchange::peer},
                          parse_exchange);
  expect_names_round_trip({PreconditionerPrecision::automatic, PreconditionerPrecision::single,
                           PreconditionerPrecision::double_},
                          parse_preconditioner_precision);
  expect_names_round_trip({Group::su2, Group::su3}, parse_group);
  expect_names_round_trip({Start::cold, Start::hot, Start::smooth}, parse_start);
  expect_names_round_trip({Cut::psq, Cut::hypercubic, Cut::cylinder}, parse_cut);
  EXPECT_STREQ(to_string(Precision::double_), "double");
  EXPECT_STREQ(to_string(Exchange::automatic), "auto");
  EXPECT_STREQ(to_string(Tuning::from_environment), "");
  expect_error([] { parse_gauge("landua", "--gauge"); },
               "--gauge: unknown gauge 'landua' (expected landau, coulomb or mag; did you mean "
               "landau?)");
  expect_error([] { parse_algorithm("heatbath"); },
               "algorithm: unknown algorithm 'heatbath' (expected relaxation, overrelaxation, "
               "stochastic, fasd or facg)");
  expect_error([] { parse_tuning("always"); },
               "tuning: unknown tuning mode 'always' (expected off, cached, on or force)");
  expect_error([] { parse_exchange("mail"); },
               "exchange: unknown exchange path 'mail' (expected auto, staged, direct or peer)");
  expect_error([] { parse_precision("quad"); }, "precision: unknown precision 'quad'");
  expect_error([] { parse_preconditioner_precision("mixed"); },
               "preconditioner_precision: unknown preconditioner precision 'mixed' (expected "
               "auto, single or double)");
  expect_error([] { parse_backend("tpu"); }, "backend: unknown backend 'tpu'");
  expect_error([] { parse_group("su4"); },
               "group: unknown group 'su4' (expected su2 or su3; did you mean su2?)");
  expect_error([] { parse_start("warm"); }, "start: unknown start 'warm'");
  expect_error([] { parse_cut("sphere"); }, "cut: unknown cut 'sphere'");
}

TEST(Api, ErrorsNameTheFunctionAndTheOptionOrFile) {
  const Field u = generated({4, 4, 4, 4});
  const auto fix_with = [&u](auto set) {
    return [&u, set] {
      FixOptions o;
      set(o);
      Field copy = u;
      fix(copy, o);
    };
  };
  expect_error([] { read("/nonexistent/cfg.lime"); }, "read: ");
  expect_error([] { read("/nonexistent/cfg.lime"); }, "/nonexistent/cfg.lime");
  expect_error(fix_with([](FixOptions& o) { o.tolerance = INFINITY; }), "fix: tolerance");
  expect_error(fix_with([](FixOptions& o) {
                 o.algorithm = Algorithm::fasd;
                 o.gauge = Gauge::mag;
               }),
               "fix: algorithm fasd: Fourier acceleration exists for Landau and Coulomb gauge");
  expect_error(fix_with([](FixOptions& o) { o.alpha = 0.5; }),
               "fix: alpha applies to algorithm fasd or facg, not to overrelaxation");
  expect_error(fix_with([](FixOptions& o) { o.omega = 2.5; }), "omega");
  expect_error(fix_with([](FixOptions& o) { o.max_iterations = 0; }), "fix: max_iterations");
  expect_error(fix_with([](FixOptions& o) { o.storage = 16; }), "fix: storage must be 8, 12 or 18");
  expect_error(fix_with([](FixOptions& o) {
                 o.t_min = 5;
                 o.anneal_steps = 2;
               }),
               "fix: t_min 5 exceeds t_max 4");
  expect_error(
      [] {
        Field empty;
        fix(empty);
      },
      "fix: links: the field is empty");
  expect_error(
      [] {
        Field g({4, 4, 4, 4}, 3, 1);
        fix(g);
      },
      "a gauge field (4 matrices per site) is needed");
  expect_error([] { Field({4, 4, 4, 4}, 4); }, "Field: nc must be 2 or 3");
  expect_error([] { generated({4, 4, 4, 5}); }, "generate: lattice: extent 5 in direction 3");
  expect_error(
      [] {
        GenerateOptions g;
        g.lattice = {4, 4, 4, 4};
        g.group = Group::su2;
        g.storage = 8;
        generate(g);
      },
      "generate: storage 8 holds SU(3) links only");
  TempDir dir;
  expect_error(
      [&] {
        WriteOptions w;
        w.bits = 64;
        write(dir.file("u.milc"), u, w);
      },
      "single precision");
  expect_error(
      [&] {
        WriteOptions w;
        w.format = "nersc";
        write(dir.file("u.h5"), u, w);
      },
      "write: ");
  EXPECT_FALSE(std::filesystem::exists(dir.file("u.h5")));
  Field other({4, 4, 4, 8}, 3);
  expect_error([&] { apply_transform(other, Field({4, 4, 4, 4}, 3, 1)); }, "another lattice");
}

// Fields whose matrices are not in SU(N) within 1e-10: refused by every function, naming the
// argument, the check, the worst deviation and the tolerance, and left as they were; fix with
// reproject projects them onto SU(N) first.
TEST(Api, FieldsNotInSuNAreRefused) {
  const Field u = generated({4, 4, 4, 4});
  Field scaled = u, real = u, zeros({4, 4, 4, 4}, 3), nan = u;
  for (std::size_t i = 0; i < u.size(); ++i) {
    scaled.data()[i] *= 1.1;
    real.data()[i] = u.data()[i].real();
  }
  nan.data()[nan.index(1, 2, 3, 0, 2, 1, 1)] = NAN;
  const std::string check = "links: unitarity: links are not in SU(3): max deviation ";
  const std::string limit = " > 1e-10 allowed for 64-bit data";
  for (Field* f : {&scaled, &real, &zeros, &nan}) {
    const Field before = *f;
    expect_error([&] { fix(*f); }, "fix: " + check);
    expect_error([&] { fix(*f); }, limit);
    EXPECT_EQ(max_difference(*f, before), 0.0);
    expect_error([&] { measure(*f, Gauge::landau); }, "measure: " + check);
    expect_error([&] { plaquette(*f); }, "plaquette: " + check);
    expect_error([&] { random_transform(*f, 1); }, "random_transform: " + check);
    TempDir dir;
    expect_error([&] { write(dir.file("u.nersc"), *f); }, "write: field: unitarity: ");
    EXPECT_FALSE(std::filesystem::exists(dir.file("u.nersc")));
  }
  expect_error([&] { fix(scaled); }, "max deviation 0.331 >"); // |det(1.1 U) - 1| = 1.1^3 - 1
  expect_error([&] { fix(nan); }, "max deviation inf");
  Field g = u, links = u;
  g = random_transform(links, 3);
  for (std::size_t i = 0; i < g.size(); ++i)
    g.data()[i] *= 1.1;
  expect_error([&] { apply_transform(links, g); }, "apply_transform: g: unitarity: ");

  // reproject: the scaled and the real links are projected onto SU(N) and fixed; zeros and a
  // NaN cannot be projected
  FixOptions o;
  o.reproject = true;
  o.tolerance = 1e-10;
  Field fixed = scaled;
  EXPECT_TRUE(fix(fixed, o).converged);
  EXPECT_NEAR(plaquette(fixed), plaquette(u), 1e-12); // 1.1 U projects back onto U
  Field fixed_real = real;
  EXPECT_TRUE(fix(fixed_real, o).converged);
  EXPECT_NO_THROW(measure(fixed_real, Gauge::landau));
  for (Field* f : {&zeros, &nan}) {
    const Field before = *f;
    expect_error([&] { fix(*f, o); }, "fix: links (reprojected): unitarity: ");
    EXPECT_EQ(max_difference(*f, before), 0.0);
  }
}

// The value of `column` in row `row` of a table.
double cell(const MeasurementTable& t, std::size_t row, const std::string& column) {
  const auto c = std::find(t.columns.begin(), t.columns.end(), column);
  EXPECT_NE(c, t.columns.end()) << column;
  return t.values.at(row * t.columns.size() + std::size_t(c - t.columns.begin()));
}

// The unit field: G(p) = 1/p^2 at every momentum of the cut, the lowest eigenvalue the smallest
// p^2 = 4 sin^2(pi/4) = 2 on 4^4, an Abelian projection of ones without monopoles; on fixed
// fields a positive G and eigenvalue and conserved currents; bad options named.
TEST(Api, GhostPropagatorLowestEigenvalueAndAbelianProjection) {
  GenerateOptions cold;
  cold.lattice = {4, 4, 4, 4};
  const Field unit = generate(cold);
  GhostPropagatorOptions g;
  g.max_n2 = 1;
  g.cut = Cut::hypercubic;
  g.tolerance = 1e-12;
  const MeasurementTable ghost = ghost_propagator(unit, g);
  EXPECT_EQ(ghost.columns, (std::vector<std::string>{"nx", "ny", "nz", "nt", "p2", "ghost",
                                                     "iterations", "residual"}));
  EXPECT_EQ(ghost.rows(), 80u); // |n_mu| <= 1 but n = 0
  for (std::size_t r = 0; r < ghost.rows(); ++r) {
    EXPECT_NEAR(cell(ghost, r, "ghost") * cell(ghost, r, "p2"), 1.0, 1e-10) << r;
    EXPECT_LE(cell(ghost, r, "residual"), 1e-12);
  }
  LowestEigenvalueOptions e;
  e.tolerance = 1e-8;
  const MeasurementTable eigen = lowest_eigenvalue(unit, e);
  EXPECT_EQ(eigen.columns, (std::vector<std::string>{"eigenvalue", "lanczos_steps", "residual"}));
  ASSERT_EQ(eigen.rows(), 1u);
  EXPECT_NEAR(cell(eigen, 0, "eigenvalue"), 2.0, 1e-9);
  EXPECT_LE(cell(eigen, 0, "residual"), 1e-8);
  const MeasurementTable ones = abelian_projection(unit);
  ASSERT_EQ(ones.columns.size(), 13u); // SU(3)
  EXPECT_EQ(ones.columns.front(), "plaquette");
  EXPECT_EQ(ones.columns.back(), "unconserved");
  for (const char* c : {"plaquette", "polyakov_re", "polyakov_re_1", "polyakov_re_3"})
    EXPECT_NEAR(cell(ones, 0, c), 1.0, 1e-14) << c;
  for (const char* c : {"polyakov_im", "density_1", "density_2", "density_3", "unconserved"})
    EXPECT_EQ(cell(ones, 0, c), 0.0) << c;

  Field landau = generated({4, 4, 4, 4}), mag = landau;
  FixOptions o;
  ASSERT_TRUE(fix(landau, o).converged);
  o.gauge = Gauge::mag;
  ASSERT_TRUE(fix(mag, o).converged);
  g.cut = Cut::psq;
  const MeasurementTable fixed_ghost = ghost_propagator(landau, g);
  EXPECT_EQ(fixed_ghost.rows(), 8u);
  for (std::size_t r = 0; r < fixed_ghost.rows(); ++r)
    EXPECT_GT(cell(fixed_ghost, r, "ghost") * cell(fixed_ghost, r, "p2"), 1.0) << r;
  const double lowest = cell(lowest_eigenvalue(landau), 0, "eigenvalue");
  EXPECT_GT(lowest, 0);
  EXPECT_LT(lowest, 2.0);
  const MeasurementTable abelian = abelian_projection(mag);
  EXPECT_EQ(cell(abelian, 0, "unconserved"), 0.0);
  EXPECT_GT(cell(abelian, 0, "plaquette"), 0.0);
  EXPECT_LT(cell(abelian, 0, "plaquette"), 1.0);
  EXPECT_NEAR(cell(abelian, 0, "polyakov_re"),
              (cell(abelian, 0, "polyakov_re_1") + cell(abelian, 0, "polyakov_re_2") +
               cell(abelian, 0, "polyakov_re_3")) /
                  3,
              1e-14);

  g.max_n2 = 0;
  expect_error([&] { ghost_propagator(unit, g); }, "ghost_propagator: max_n2");
  g.max_n2 = 1;
  g.max_iterations = 0;
  expect_error([&] { ghost_propagator(unit, g); }, "ghost_propagator: ghost propagator: maximum");
  e.tolerance = 0;
  expect_error([&] { lowest_eigenvalue(unit, e); }, "lowest_eigenvalue: lowest eigenvalue: tol");
  expect_error([&] { abelian_projection(Field({4, 4, 4, 4}, 3, 1)); }, "abelian_projection: links");
}

TEST(ApiRanks, EveryRanksSlabIsTheSingleProcessResult) {
  const Communicator comm = world();
  const std::array<int, 4> L = {4, 4, 4, 8};
  Field whole = generated(L);
  Field slab = generated(L, comm);
  ASSERT_EQ(slab.nt(), 8 / comm.size());
  EXPECT_EQ(slab.t0(), comm.rank() * slab.nt());
  expect_slab_of(slab, whole);

  FixOptions o;
  o.gauge = Gauge::coulomb;
  o.anneal_steps = 3;
  o.sr_steps = 5;
  o.transform = true;
  const FixResult r_whole = fix(whole, o);
  o.communicator = comm;
  const FixResult r_slab = fix(slab, o);
  expect_slab_of(slab, whole);
  expect_slab_of(r_slab.transform, r_whole.transform);
  EXPECT_EQ(r_slab.iterations, r_whole.iterations);
  EXPECT_EQ(r_slab.final.theta_per_slice, r_whole.final.theta_per_slice);
  EXPECT_EQ(measure(slab, Gauge::coulomb, comm).theta_per_slice,
            measure(whole, Gauge::coulomb).theta_per_slice);
  EXPECT_EQ(plaquette(slab, comm), plaquette(whole));
  // the measurements: every rank gets the whole table, the single process's
  GluonPropagatorOptions g;
  g.gauge = Gauge::coulomb;
  g.max_n2 = 2;
  const MeasurementTable gluon = gluon_propagator(whole, g);
  EXPECT_EQ(gluon.columns,
            (std::vector<std::string>{"nx", "ny", "nz", "p2", "spatial", "temporal"}));
  EXPECT_EQ(gluon.rows(), 19u); // spatial n with n^2 <= 2 on 4^3
  EXPECT_EQ(gluon_propagator(slab, g, comm).values, gluon.values);
  const MeasurementTable potential = static_potential(whole, 2);
  EXPECT_EQ(potential.rows(), 6u);                   // r = 0..2, T = 1..2
  EXPECT_NEAR(potential.values[2], 3.0 * 64, 1e-10); // C(0, 1) = N V3
  EXPECT_EQ(static_potential(slab, 2, comm).values, potential.values);
  // the ghost propagator, the eigenvalue and the Abelian projection of Landau- and MAG-fixed
  // slabs: the single process's tables
  Field landau = generated(L), landau_slab = generated(L, comm);
  Field mag = landau, mag_slab = landau_slab;
  FixOptions fixing;
  fix(landau, fixing);
  fixing.communicator = comm;
  fix(landau_slab, fixing);
  fixing.gauge = Gauge::mag;
  fix(mag_slab, fixing);
  fixing.communicator = {};
  fix(mag, fixing);
  GhostPropagatorOptions ghost;
  ghost.max_n2 = 1;
  ghost.max_iterations = 30; // converged or not, every iteration agrees
  const MeasurementTable ghost_whole = ghost_propagator(landau, ghost);
  EXPECT_EQ(ghost_whole.rows(), 10u); // n^2 <= 1 on 4^3 x 8, where n_t = 2 counts as 1
  EXPECT_EQ(ghost_propagator(landau_slab, ghost, comm).values, ghost_whole.values);
  LowestEigenvalueOptions eigen;
  eigen.max_iterations = 30;
  EXPECT_EQ(lowest_eigenvalue(landau_slab, eigen, comm).values,
            lowest_eigenvalue(landau, eigen).values);
  EXPECT_EQ(abelian_projection(mag_slab, comm).values, abelian_projection(mag).values);
  g.gauge = Gauge::mag;
  expect_error([&] { gluon_propagator(whole, g); }, "gluon_propagator: gauge");
  expect_error([&] { static_potential(whole, 8); }, "static_potential: static potential: max_t");

  TempDir dir;
  WriteOptions w;
  w.communicator = comm;
  write(dir.file("fixed.h5"), slab, w);
  write(dir.file("g.lime"), r_slab.transform, w);
  EXPECT_EQ(max_difference(read(dir.file("fixed.h5")), whole), 0.0);
  EXPECT_EQ(max_difference(read(dir.file("g.lime")), r_whole.transform), 0.0);
  if (comm.size() > 1)
    expect_error([&] { measure(whole, Gauge::landau, comm); }, "holds the time slices 0..7");
}

} // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int status = RUN_ALL_TESTS();
  MPI_Finalize();
  return status;
}
