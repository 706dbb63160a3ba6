// gaugefix.h: the C++ API of libgaugefix (docs/api.md). Its options are typed: the enums of
// options.h (Gauge::landau, Precision::double_, ...), which it includes, with their names.
//
// Reads and writes gauge fields and gauge transformations g(x) in every format gaugefix
// knows, generates fields, fixes a field in memory to Landau, Coulomb or maximally Abelian
// gauge, and measures how well a field satisfies a gauge condition: the same code and the
// same results as the `gaugefix` command (a fix with the same options gives the same field,
// bit for bit). Conventions (directions, F, theta): docs/conventions.md.
//
// Field: SU(2) or SU(3) matrices on the host in double precision, natural order, slowest
// index first: [t, z, y, x, mu, a, b] (mu = x, y, z, t; row a, column b) for a gauge field,
// [t, z, y, x, a, b] for g(x). Extents are given as {Lx, Ly, Lz, Lt}.
//
// Communicator: none (the default) means this process holds the whole lattice and works
// alone, also inside an MPI job, and makes no MPI call (a program without MPI never starts
// it). With an MPI communicator the time direction is split over its ranks (L_t divisible by
// the number of ranks, at least 2 slices each): every rank holds the slices
// [rank nt, (rank + 1) nt) and calls each function together with the others. MPI is
// initialised on the first use of a communicator where the program has not done so
// (MPI_THREAD_FUNNELED, and finalised at exit); a program that uses MPI itself initialises it
// first.
//
// Errors: every bad argument, unreadable or malformed file, unsupported lattice or missing
// device throws gaugefix::Error whose message names the function, the option or file and the
// check that failed. Every field handed to a function must hold SU(N) matrices within 1e-10
// (max over matrices of max(|U U^dagger - 1|_ij, |det U - 1|), the check of the file readers
// for 64-bit data); others are refused with "<function>: <argument>: unitarity: links are not
// in SU(N): max deviation D > 1e-10 allowed for 64-bit data", unless FixOptions::reproject
// asks fix to project them onto SU(N). A fix that does not reach the tolerance is no error:
// the result says converged = false.
#pragma once
#include "gaugefix/options.h"
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gaugefix {

// The library's version, e.g. "0.1.0".
GAUGEFIX_API const char* version();

// An MPI communicator, or none. MPI's C handle does not appear here: pass the Fortran
// handle, from_fortran(MPI_Comm_c2f(comm)) in C or C++, from_fortran(comm.py2f()) with mpi4py.
class GAUGEFIX_API Communicator {
public:
  Communicator() = default; // none: this process alone, the whole lattice
  static Communicator from_fortran(int handle);
  bool none() const { return none_; }
  int fortran_handle() const { return handle_; }
  int rank() const; // of this process (0 for none)
  int size() const; // number of ranks (1 for none)

private:
  bool none_ = true;
  int handle_ = 0;
};

// A gauge field (ndir = 4) or a gauge transformation (ndir = 1): this process's time
// slices [t0, t0 + nt) of a lattice of extents {Lx, Ly, Lz, Lt}, N = nc.
class GAUGEFIX_API Field {
public:
  Field(); // empty
  // Zeros: the whole lattice, or with a communicator this rank's slab.
  Field(const std::array<int, 4>& lattice, int nc, int ndir = 4, const Communicator& comm = {});
  Field(const Field& other);
  Field(Field&& other) noexcept;
  Field& operator=(const Field& other);
  Field& operator=(Field&& other) noexcept;
  ~Field();

  bool empty() const;
  std::array<int, 4> lattice() const; // Lx, Ly, Lz, Lt of the whole lattice
  int nc() const;
  int ndir() const;
  int t0() const;           // first time slice held
  int nt() const;           // time slices held
  std::size_t size() const; // complex numbers held: nt Lz Ly Lx ndir nc^2
  std::complex<double>* data();
  const std::complex<double>* data() const;
  // Position in data() of element (a, b) of the matrix of direction mu at (x, y, z, t),
  // t global (t0 <= t < t0 + nt).
  std::size_t index(int x, int y, int z, int t, int mu, int a, int b) const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
  friend struct FieldAccess;
};

// ---------------------------------------------------------------------------------------
// Files

// What a file says about a field's origin and the record of a gauge fixing (the NERSC
// header, SciDAC XML and HDF5 attributes hold it; MILC and openQCD files do not): text as the
// file has it, the names of to_string (options.h) where gaugefix wrote it.
struct GaugeFixingRecord {
  std::string gauge;          // landau | coulomb | mag
  double tolerance = 0;       // on theta
  double theta = 0;           // reached
  double theta_max_slice = 0; // max over time slices of theta_t (the Coulomb criterion)
  double functional = 0;      // F reached
  long long iterations = 0;
  bool converged = false;
  std::string precision; // single | mixed | double
  std::string version;   // of gaugefix
  std::string date;      // UTC
  std::string algorithm; // the final phase's, as FixOptions::algorithm (empty: not recorded)
};

struct FileInfo {
  // gauge fields: nersc | ildg | scidac | milc | openqcd | hdf5; g(x): lime | hdf5 | binary
  std::string format;
  std::array<int, 4> lattice = {0, 0, 0, 0}; // Lx, Ly, Lz, Lt
  int nc = 3;
  int bits = 64; // per real, as stored
  // the checked values: as the file states them and as computed from its data
  std::vector<std::pair<std::string, std::string>> stored, computed;
  double plaquette = 0;           // gauge fields: of the returned links
  double link_trace = 0;          // gauge fields: of the returned links
  double unitarity_deviation = 0; // max over matrices, as stored
  bool reunitarised = false;      // 32-bit data projected back onto SU(N)
  std::string ensemble_id, ensemble_label;
  std::optional<long long> sequence_number;
  std::optional<GaugeFixingRecord> gauge_fixing;
  std::map<std::string, std::string> metadata; // g(x) files: their text, attributes or <meta>
};

struct ReadOptions {
  bool checksum_warning_only = false; // a checksum mismatch is a warning on stderr
  Communicator communicator;
};

// Reads a gauge field or a g(x) file of any supported format, detected from the content;
// every check of `gaugefix info` is made. info (where given) says what was found.
GAUGEFIX_API Field read(const std::string& path, const ReadOptions& options = {},
                        FileInfo* info = nullptr);

struct WriteOptions {
  // gauge fields: nersc (3x3), nersc-2row, ildg, scidac, milc, openqcd, hdf5; g(x): lime,
  // hdf5, binary. Empty: from the extension as `gaugefix fix --output` (.h5 hdf5, .lime ildg,
  // ..., else nersc; g(x): .h5/.hdf5 hdf5, .lime lime, else binary).
  std::string format;
  int bits = 0; // 32 or 64 per real (gauge fields); 0: 32 for milc, else 64
  std::map<std::string, std::string> metadata; // extra text where the format has room
  // where the format has room (gauge fields)
  std::string ensemble_id, ensemble_label;
  std::optional<long long> sequence_number;
  std::optional<GaugeFixingRecord> gauge_fixing; // e.g. FixResult::record
  Communicator communicator;
};

// Writes to a temporary file beside `path` and renames it when complete, so that `path`
// is complete or absent; only a regular file is replaced.
GAUGEFIX_API void write(const std::string& path, const Field& field,
                        const WriteOptions& options = {});

// ---------------------------------------------------------------------------------------
// Generating

struct GenerateOptions {
  std::array<int, 4> lattice = {0, 0, 0, 0}; // Lx, Ly, Lz, Lt: even, >= 2
  Group group = Group::su3;
  // cold (unit links), hot (random SU(N)) or smooth (1 + 0.2 (R - 1), reunitarised: the
  // field `gaugefix fix --generate smooth` makes with the same seed)
  Start start = Start::cold;
  // Wilson-action updates from the start: `sweeps` heatbath sweeps, each followed by
  // `or_sweeps` overrelaxation sweeps, then reunitarised: configuration 0 of `gaugefix
  // generate --thermalisation sweeps` with the same options, bit for bit (sweeps = 0: the
  // start field as made)
  double beta = 6.0; // > 0 where sweeps > 0
  int sweeps = 0;
  int or_sweeps = 0;
  std::uint64_t seed = 1;
  Precision precision = Precision::double_; // of the updates
  Backend backend = Backend::cpu;
  int storage = 12; // reals per SU(3) link in the update: 8, 12, 18
  Tuning tuning = Tuning::from_environment;
  Communicator communicator;
};

GAUGEFIX_API Field generate(const GenerateOptions& options);

// ---------------------------------------------------------------------------------------
// Gauge fixing

// F, theta (docs/conventions.md), max_t theta_t and theta_t of every time slice.
struct GaugeCondition {
  double functional = 0;
  double theta = 0;
  double theta_max_slice = 0;
  std::vector<double> theta_per_slice; // the whole lattice, t = 0 .. Lt - 1
};

struct Progress {
  long iteration = 0;
  std::string phase;      // anneal, stochastic, relaxation, overrelaxation, fasd or facg
  double temperature = 0; // annealing, else 0
  GaugeCondition measured;
  double seconds = 0;
};

// One row of a convergence history (`gaugefix fix --history`, docs/history.md): a check of
// the schedule, or the final measurement (phase "final").
struct HistoryRow {
  long iteration = 0;
  std::string phase;      // as Progress::phase, or "final"
  double temperature = 0; // annealing, else 0
  double functional = 0, theta = 0, theta_max_slice = 0;
  double det_deviation_mean = 0, det_deviation_max = 0; // |1 - det U| over the links
  double unitary_deviation_max = 0;                     // max_ij |(U U^dagger - 1)_ij|
  double seconds = 0;
};

// The options of `gaugefix fix` of the same names (--anneal-steps: anneal_steps, ...), with
// the same defaults. The schedule: anneal_steps annealing steps (heatbath at temperatures
// t_max down to t_min, each followed by micro_steps microcanonical sweeps), then sr_steps
// sweeps of stochastic relaxation, then `algorithm` until theta < tolerance (Coulomb gauge:
// every time slice's theta) or max_iterations sweeps (fasd, facg: steps).
struct FixOptions {
  Gauge gauge = Gauge::landau;
  // Fourier-accelerated fasd and facg: Landau and Coulomb gauge (docs/fourier.md)
  Algorithm algorithm = Algorithm::overrelaxation;
  double omega = 1.7;          // overrelaxation, in [1, 2)
  double alpha = 0;            // fasd: a fixed step > 0, facg: the first trial; 0: automatic
  double sr_probability = 0.5; // stochastic relaxation, in [0, 1]
  int anneal_steps = 0;
  double t_max = 4.0, t_min = 1e-4;
  int micro_steps = 3;
  int sr_steps = 0;
  double tolerance = 1e-12;
  int max_iterations = 20000;
  int check_interval = 100;   // sweeps between measurements
  int reproject_interval = 0; // sweeps between reprojections to SU(N); 0: never
  // project the links onto SU(N) before fixing (as a 32-bit file is on reading) instead of
  // refusing links further than 1e-10 from SU(N); the projected links must then be within it
  bool reproject = false;
  Precision precision = Precision::double_;
  // fasd, facg: the transforms of the preconditioner; single in a double or mixed fix holds
  // them in float (half their bytes); automatic: the fix's precision
  PreconditionerPrecision preconditioner_precision = PreconditionerPrecision::automatic;
  Backend backend = Backend::cpu;
  // reals per SU(3) link: 8, 12, 18 (SU(2): 12, 18); 0: auto, 18 for fasd/facg on the cpu,
  // else 12
  int storage = 0;
  bool transform = false; // return g(x) in FixResult::transform
  std::uint64_t seed = 1; // random numbers of annealing and stochastic relaxation
  Tuning tuning = Tuning::from_environment;
  Exchange exchange = Exchange::automatic; // halo path between GPUs
  Communicator communicator;
  std::function<void(const Progress&)> progress; // called at each measurement (may be empty)
  bool history = false;                          // FixResult::history, as `gaugefix fix --history`
};

struct FixResult {
  bool converged = false;
  long iterations = 0; // sweeps of every phase (annealing: heatbath and microcanonical)
  double seconds = 0;
  GaugeCondition final;
  Field transform;                 // g(x) with U'_mu(x) = g(x) U_mu(x) g(x + mu)^dagger (if asked)
  GaugeFixingRecord record;        // for WriteOptions::gauge_fixing
  std::vector<HistoryRow> history; // FixOptions::history: one row per check, then "final"
};

// Fixes `links` in place (where it throws, `links` is left as it was).
GAUGEFIX_API FixResult fix(Field& links, const FixOptions& options = {});

// The gauge condition of `links` measured as `gaugefix fix` and `gaugefix info --check`
// measure it (CPU, double precision).
GAUGEFIX_API GaugeCondition measure(const Field& links, Gauge gauge,
                                    const Communicator& communicator = {});

// (1/6V) sum_x sum_{mu<nu} Re tr P_mu,nu(x) / N.
GAUGEFIX_API double plaquette(const Field& links, const Communicator& communicator = {});

// U_mu(x) <- g(x) U_mu(x) g(x + mu)^dagger (as `gaugefix transform`).
GAUGEFIX_API void apply_transform(Field& links, const Field& g,
                                  const Communicator& communicator = {});

// Applies a random g(x), drawn from (seed, site) as `gaugefix fix --random-transform seed`
// does, to `links` and returns it.
GAUGEFIX_API Field random_transform(Field& links, std::uint64_t seed);

// ---------------------------------------------------------------------------------------
// Measurements on a gauge-fixed field (docs/measurements.md), as `gaugefix measure` writes
// them: the same columns and numbers as its CSV files. Computed on the host in double
// precision; with a communicator every rank passes its slab and gets the whole table.

struct MeasurementTable {
  std::vector<std::string> columns;
  std::vector<double> values; // rows() x columns.size(), row-major
  std::size_t rows() const { return columns.empty() ? 0 : values.size() / columns.size(); }
};

struct GluonPropagatorOptions {
  Gauge gauge = Gauge::landau; // landau, or coulomb: the equal-time propagators
  int max_n2 = 4;              // momenta with sum n_mu^2 <= max_n2 (GLU's MAXMOM)
  Cut cut = Cut::psq;
  double cylinder_width = 1.0; // cylinder: in units of 2 pi / min L
};

// Landau: nx, ny, nz, nt, p2, transverse, longitudinal; Coulomb: nx, ny, nz, p2, spatial,
// temporal.
GAUGEFIX_API MeasurementTable gluon_propagator(const Field& links,
                                               const GluonPropagatorOptions& options = {},
                                               const Communicator& communicator = {});

// r, t, correlator, potential for on-axis r <= L/2 and t = 1 .. max_t (max_t < L_t).
GAUGEFIX_API MeasurementTable static_potential(const Field& links, int max_t,
                                               const Communicator& communicator = {});

// The Landau-gauge ghost propagator: momenta of the gluon propagator's cuts without n = 0, each
// G(p) from conjugate-gradient solves of the Faddeev-Popov operator.
struct GhostPropagatorOptions {
  int max_n2 = 4; // >= 1: momenta of the cut with sum n_mu^2 <= max_n2
  Cut cut = Cut::psq;
  double cylinder_width = 1.0; // cylinder: in units of 2 pi / min L
  double tolerance = 1e-10;    // of each solve: |r| <= tolerance |b|
  int max_iterations = 1000;   // of each solve
};

// nx, ny, nz, nt, p2, ghost, iterations, residual (a residual above the tolerance: a solve
// did not converge). Landau-gauge links of the first Gribov region.
GAUGEFIX_API MeasurementTable ghost_propagator(const Field& links,
                                               const GhostPropagatorOptions& options = {},
                                               const Communicator& communicator = {});

// The lowest non-trivial eigenvalue of the Landau-gauge Faddeev-Popov operator (Lanczos).
struct LowestEigenvalueOptions {
  double tolerance = 1e-6;   // of the Ritz residual, absolute
  int max_iterations = 1000; // Lanczos steps
};

// One row: eigenvalue, lanczos_steps, residual (above the tolerance: not converged).
GAUGEFIX_API MeasurementTable lowest_eigenvalue(const Field& links,
                                                const LowestEigenvalueOptions& options = {},
                                                const Communicator& communicator = {});

// The Abelian projection of maximally-Abelian-gauge links. One row: plaquette, polyakov_re,
// polyakov_im (the mean over colours), polyakov_re_i, polyakov_im_i and density_i (monopole
// density) for each colour i = 1 .. N, unconserved (sites and colours where the monopole
// currents are not conserved: 0).
GAUGEFIX_API MeasurementTable abelian_projection(const Field& links,
                                                 const Communicator& communicator = {});

} // namespace gaugefix
