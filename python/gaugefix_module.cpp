// gaugefix_module.cpp: the Python module `gaugefix` (docs/api.md): the functions of the C++
// API (include/gaugefix/gaugefix.h) on numpy arrays in the order [t, z, y, x, mu, a, b]
// (python_arrays.h) or CUDA device arrays (device_arrays.h; device_output=True returns
// DeviceArrays), keyword arguments named as the C++ options, gaugefix.Error for every
// failure the library reports. The interpreter lock is released while gaugefix computes,
// reads or writes; a progress callback takes it back for each call.
#include "device_arrays.h"
#include "gaugefix/device_memory.h"
#include "python_arrays.h"
#include <charconv>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace pybind11::literals;
using gaugefix_python::communicator;
using gaugefix_python::field_from_array;
using gaugefix_python::output_device;
using gaugefix_python::returned;

namespace {

// A real in the shortest form that reads back exactly, as Python's repr writes it (2.8e-22).
std::string shortest(double v) {
  char s[32];
  const auto end = std::to_chars(s, s + sizeof s, v).ptr;
  return std::string(s, end);
}

py::dict as_dict(const std::vector<std::pair<std::string, std::string>>& pairs) {
  py::dict d;
  for (const auto& [k, v] : pairs)
    d[py::str(k)] = v;
  return d;
}

// A measurement table as {column: 1-D float64 array}, in column order.
py::dict table_dict(const gaugefix::MeasurementTable& t) {
  py::dict d;
  const std::size_t rows = t.rows(), cols = t.columns.size();
  for (std::size_t c = 0; c < cols; ++c) {
    py::array_t<double> a(static_cast<py::ssize_t>(rows));
    double* out = a.mutable_data();
    for (std::size_t r = 0; r < rows; ++r)
      out[r] = t.values[r * cols + c];
    d[py::str(t.columns[c])] = a;
  }
  return d;
}

// A measurement of the links array (a field of the communicator's ranks) as table_dict gives it,
// computed with the GIL released.
template <class Measure>
py::dict measured_table(const py::handle& links, const py::object& comm, const Measure& measure) {
  const gaugefix::Communicator c = communicator(comm);
  const gaugefix::Field f = field_from_array(links, "links", c);
  gaugefix::MeasurementTable t;
  {
    py::gil_scoped_release unlocked;
    t = measure(f, c);
  }
  return table_dict(t);
}

py::tuple read_file(const std::string& path, bool checksum_warning_only, bool device_output,
                    const py::object& comm) {
  const int device = output_device(device_output, py::none(), "read");
  gaugefix::ReadOptions ro;
  ro.checksum_warning_only = checksum_warning_only;
  ro.communicator = communicator(comm);
  gaugefix::FileInfo info;
  gaugefix::Field f;
  {
    py::gil_scoped_release unlocked;
    f = gaugefix::read(path, ro, &info);
  }
  return py::make_tuple(returned(std::move(f), device), info);
}

void write_file(const std::string& path, const py::handle& array, const std::string& format,
                int bits, const std::map<std::string, std::string>& metadata,
                const std::string& ensemble_id, const std::string& ensemble_label,
                std::optional<long long> sequence_number,
                std::optional<gaugefix::GaugeFixingRecord> gauge_fixing, const py::object& comm) {
  gaugefix::WriteOptions wo;
  wo.format = format;
  wo.bits = bits;
  wo.metadata = metadata;
  wo.ensemble_id = ensemble_id;
  wo.ensemble_label = ensemble_label;
  wo.sequence_number = sequence_number;
  wo.gauge_fixing = std::move(gauge_fixing);
  wo.communicator = communicator(comm);
  const gaugefix::Field f = field_from_array(array, "array", wo.communicator);
  py::gil_scoped_release unlocked;
  gaugefix::write(path, f, wo);
}

py::tuple fix_copy(const py::handle& links, const gaugefix::FixOptions& options, int device) {
  gaugefix::Field f = field_from_array(links, "links", options.communicator);
  gaugefix::FixResult r;
  {
    py::gil_scoped_release unlocked;
    r = gaugefix::fix(f, options);
  }
  py::object g = r.transform.empty() ? py::none() : returned(std::move(r.transform), device);
  return py::make_tuple(returned(std::move(f), device), g, r);
}

// The progress callback with the interpreter lock held while it runs.
// The value a keyword argument names, through the option's name table (gaugefix/options.h):
// a bad name is gaugefix.Error "function: option: unknown ... (expected ...)".
template <class E>
E named(const char* function, E (*parse)(const std::string&, const std::string&),
        const std::string& name, const char* option) {
  try {
    return parse(name, option);
  } catch (const gaugefix::Error& e) {
    throw gaugefix::Error(std::string(function) + ": " + e.what());
  }
}

std::function<void(const gaugefix::Progress&)> locked(const py::object& callback) {
  if (callback.is_none()) return {};
  return [callback](const gaugefix::Progress& p) {
    py::gil_scoped_acquire locked;
    callback(p);
  };
}

} // namespace

// pybind11 before 2.12 reads numpy arrays' descriptors in numpy 1's layout: under numpy 2 the
// item sizes, hence the strides of the arrays the module makes, come out wrong. Such a module
// refuses to import there, naming both versions (pybind11 2.12 and later read both layouts).
static void check_numpy_abi() {
#if PYBIND11_VERSION_MAJOR == 2 && PYBIND11_VERSION_MINOR < 12
  const auto numpy = py::module_::import("numpy").attr("__version__").cast<std::string>();
  if (std::stoi(numpy) >= 2)
    throw py::import_error("gaugefix was built with pybind11 2." +
                           std::to_string(PYBIND11_VERSION_MINOR) +
                           ", which cannot read the arrays of numpy " + numpy +
                           ": rebuild it with pybind11 2.12 or later (pip install pybind11)");
#endif
}

PYBIND11_MODULE(gaugefix, m) {
  check_numpy_abi();
  m.doc() = "gaugefix: Landau, Coulomb and maximally Abelian gauge fixing of lattice gauge "
            "fields. Arrays are complex128 in the order [t, z, y, x, mu, a, b] (gauge fields) "
            "or [t, z, y, x, a, b] (gauge transformations g(x)); lattices are given as "
            "(Lx, Ly, Lz, Lt). See docs/api.md.";
  m.attr("__version__") = gaugefix::version();
  py::register_exception<gaugefix::Error>(m, "Error", PyExc_RuntimeError);
  m.attr("built_with_cuda") = gaugefix::built_with_cuda();
  gaugefix_python::register_device_array(m);

  py::class_<gaugefix::GaugeFixingRecord>(m, "GaugeFixingRecord",
                                          "the record of a gauge fixing a file carries")
      .def(py::init<>())
      .def_readwrite("gauge", &gaugefix::GaugeFixingRecord::gauge)
      .def_readwrite("tolerance", &gaugefix::GaugeFixingRecord::tolerance)
      .def_readwrite("theta", &gaugefix::GaugeFixingRecord::theta)
      .def_readwrite("theta_max_slice", &gaugefix::GaugeFixingRecord::theta_max_slice)
      .def_readwrite("functional", &gaugefix::GaugeFixingRecord::functional)
      .def_readwrite("iterations", &gaugefix::GaugeFixingRecord::iterations)
      .def_readwrite("converged", &gaugefix::GaugeFixingRecord::converged)
      .def_readwrite("precision", &gaugefix::GaugeFixingRecord::precision)
      .def_readwrite("version", &gaugefix::GaugeFixingRecord::version)
      .def_readwrite("date", &gaugefix::GaugeFixingRecord::date)
      .def_readwrite("algorithm", &gaugefix::GaugeFixingRecord::algorithm)
      .def("__repr__", [](const gaugefix::GaugeFixingRecord& r) {
        return "GaugeFixingRecord(gauge=" + r.gauge + ", algorithm=" + r.algorithm +
               ", theta=" + shortest(r.theta) + ", converged=" + (r.converged ? "True" : "False") +
               ")";
      });

  py::class_<gaugefix::FileInfo>(m, "FileInfo", "what gaugefix.read found in a file")
      .def_readonly("format", &gaugefix::FileInfo::format)
      .def_readonly("lattice", &gaugefix::FileInfo::lattice)
      .def_readonly("nc", &gaugefix::FileInfo::nc)
      .def_readonly("bits", &gaugefix::FileInfo::bits)
      .def_property_readonly("stored",
                             [](const gaugefix::FileInfo& i) { return as_dict(i.stored); })
      .def_property_readonly("computed",
                             [](const gaugefix::FileInfo& i) { return as_dict(i.computed); })
      .def_readonly("plaquette", &gaugefix::FileInfo::plaquette)
      .def_readonly("link_trace", &gaugefix::FileInfo::link_trace)
      .def_readonly("unitarity_deviation", &gaugefix::FileInfo::unitarity_deviation)
      .def_readonly("reunitarised", &gaugefix::FileInfo::reunitarised)
      .def_readonly("ensemble_id", &gaugefix::FileInfo::ensemble_id)
      .def_readonly("ensemble_label", &gaugefix::FileInfo::ensemble_label)
      .def_readonly("sequence_number", &gaugefix::FileInfo::sequence_number)
      .def_readonly("gauge_fixing", &gaugefix::FileInfo::gauge_fixing)
      .def_readonly("metadata", &gaugefix::FileInfo::metadata)
      .def("__repr__", [](const gaugefix::FileInfo& i) {
        return "FileInfo(format=" + i.format + ", lattice=" + std::to_string(i.lattice[0]) + "x" +
               std::to_string(i.lattice[1]) + "x" + std::to_string(i.lattice[2]) + "x" +
               std::to_string(i.lattice[3]) + ", SU(" + std::to_string(i.nc) + "), " +
               std::to_string(i.bits) + " bits)";
      });

  py::class_<gaugefix::GaugeCondition>(m, "GaugeCondition",
                                       "F, theta, max_t theta_t and theta_t per time slice")
      .def_readonly("functional", &gaugefix::GaugeCondition::functional)
      .def_readonly("theta", &gaugefix::GaugeCondition::theta)
      .def_readonly("theta_max_slice", &gaugefix::GaugeCondition::theta_max_slice)
      .def_readonly("theta_per_slice", &gaugefix::GaugeCondition::theta_per_slice)
      .def("__repr__", [](const gaugefix::GaugeCondition& c) {
        return "GaugeCondition(functional=" + shortest(c.functional) +
               ", theta=" + shortest(c.theta) + ", theta_max_slice=" + shortest(c.theta_max_slice) +
               ")";
      });

  py::class_<gaugefix::Progress>(m, "Progress", "what a progress callback of gaugefix.fix gets")
      .def_readonly("iteration", &gaugefix::Progress::iteration)
      .def_readonly("phase", &gaugefix::Progress::phase)
      .def_readonly("temperature", &gaugefix::Progress::temperature)
      .def_readonly("measured", &gaugefix::Progress::measured)
      .def_readonly("seconds", &gaugefix::Progress::seconds);

  py::class_<gaugefix::HistoryRow>(m, "HistoryRow",
                                   "one check of gaugefix.fix(history=True) (docs/history.md)")
      .def_readonly("iteration", &gaugefix::HistoryRow::iteration)
      .def_readonly("phase", &gaugefix::HistoryRow::phase)
      .def_readonly("temperature", &gaugefix::HistoryRow::temperature)
      .def_readonly("functional", &gaugefix::HistoryRow::functional)
      .def_readonly("theta", &gaugefix::HistoryRow::theta)
      .def_readonly("theta_max_slice", &gaugefix::HistoryRow::theta_max_slice)
      .def_readonly("det_deviation_mean", &gaugefix::HistoryRow::det_deviation_mean)
      .def_readonly("det_deviation_max", &gaugefix::HistoryRow::det_deviation_max)
      .def_readonly("unitary_deviation_max", &gaugefix::HistoryRow::unitary_deviation_max)
      .def_readonly("seconds", &gaugefix::HistoryRow::seconds);

  py::class_<gaugefix::FixResult>(m, "FixResult", "the outcome of gaugefix.fix")
      .def_readonly("converged", &gaugefix::FixResult::converged)
      .def_readonly("iterations", &gaugefix::FixResult::iterations)
      .def_readonly("seconds", &gaugefix::FixResult::seconds)
      .def_readonly("final", &gaugefix::FixResult::final)
      .def_property_readonly("functional",
                             [](const gaugefix::FixResult& r) { return r.final.functional; })
      .def_property_readonly("theta", [](const gaugefix::FixResult& r) { return r.final.theta; })
      .def_readonly("record", &gaugefix::FixResult::record)
      .def_readonly("history", &gaugefix::FixResult::history)
      .def("__repr__", [](const gaugefix::FixResult& r) {
        return std::string("FixResult(converged=") + (r.converged ? "True" : "False") +
               ", iterations=" + std::to_string(r.iterations) +
               ", functional=" + shortest(r.final.functional) +
               ", theta=" + shortest(r.final.theta) + ")";
      });

  m.def("read", &read_file, "path"_a, py::kw_only(), "checksum_warning_only"_a = false,
        "device_output"_a = false, "comm"_a = py::none(),
        "Reads a gauge field or a g(x) file of any supported format (detected from the "
        "content) and checks it. Returns (array, FileInfo); the array is a DeviceArray with "
        "device_output=True.");

  m.def("write", &write_file, "path"_a, "array"_a, py::kw_only(), "format"_a = "", "bits"_a = 0,
        "metadata"_a = std::map<std::string, std::string>{}, "ensemble_id"_a = "",
        "ensemble_label"_a = "", "sequence_number"_a = py::none(), "gauge_fixing"_a = py::none(),
        "comm"_a = py::none(),
        "Writes a gauge field (format nersc, nersc-2row, ildg, scidac, milc, openqcd, hdf5) "
        "or a g(x) (lime, hdf5, binary); format '' takes it from the extension.");

  const gaugefix::FixOptions d; // the defaults
  m.def(
      "fix",
      [](const py::handle& links, const std::string& gauge, const std::string& algorithm,
         double alpha, double omega, double sr_probability, int anneal_steps, double t_max,
         double t_min, int micro_steps, int sr_steps, double tolerance, int max_iterations,
         int check_interval, int reproject_interval, bool reproject, const std::string& precision,
         const std::string& preconditioner_precision, const std::string& backend, int storage,
         bool transform, std::uint64_t seed, const std::string& tuning, const std::string& exchange,
         const py::object& progress, bool history, bool device_output, const py::object& comm) {
        const int device = output_device(device_output, links, "fix");
        gaugefix::FixOptions o;
        o.gauge = named("fix", gaugefix::parse_gauge, gauge, "gauge");
        o.algorithm = named("fix", gaugefix::parse_algorithm, algorithm, "algorithm");
        o.alpha = alpha;
        o.omega = omega;
        o.sr_probability = sr_probability;
        o.anneal_steps = anneal_steps;
        o.t_max = t_max;
        o.t_min = t_min;
        o.micro_steps = micro_steps;
        o.sr_steps = sr_steps;
        o.tolerance = tolerance;
        o.max_iterations = max_iterations;
        o.check_interval = check_interval;
        o.reproject_interval = reproject_interval;
        o.reproject = reproject;
        o.precision = named("fix", gaugefix::parse_precision, precision, "precision");
        o.preconditioner_precision = named("fix", gaugefix::parse_preconditioner_precision,
                                           preconditioner_precision, "preconditioner_precision");
        o.backend = named("fix", gaugefix::parse_backend, backend, "backend");
        o.storage = storage;
        o.transform = transform;
        o.seed = seed;
        o.tuning = named("fix", gaugefix::parse_tuning, tuning, "tuning");
        o.exchange = named("fix", gaugefix::parse_exchange, exchange, "exchange");
        o.progress = locked(progress);
        o.history = history;
        o.communicator = communicator(comm);
        return fix_copy(links, o, device);
      },
      "links"_a, py::kw_only(), "gauge"_a = gaugefix::to_string(d.gauge),
      "algorithm"_a = gaugefix::to_string(d.algorithm), "alpha"_a = d.alpha, "omega"_a = d.omega,
      "sr_probability"_a = d.sr_probability, "anneal_steps"_a = d.anneal_steps, "t_max"_a = d.t_max,
      "t_min"_a = d.t_min, "micro_steps"_a = d.micro_steps, "sr_steps"_a = d.sr_steps,
      "tolerance"_a = d.tolerance, "max_iterations"_a = d.max_iterations,
      "check_interval"_a = d.check_interval, "reproject_interval"_a = d.reproject_interval,
      "reproject"_a = d.reproject, "precision"_a = gaugefix::to_string(d.precision),
      "preconditioner_precision"_a = gaugefix::to_string(d.preconditioner_precision),
      "backend"_a = gaugefix::to_string(d.backend), "storage"_a = d.storage, "transform"_a = true,
      "seed"_a = d.seed, "tuning"_a = gaugefix::to_string(d.tuning),
      "exchange"_a = gaugefix::to_string(d.exchange), "progress"_a = py::none(),
      "history"_a = d.history, "device_output"_a = false, "comm"_a = py::none(),
      "Fixes a copy of the links (a numpy array or a CUDA device array) to the gauge. Returns "
      "(fixed links, g(x) or None, FixResult) with fixed = g(x) links g(x + mu)^dagger, as "
      "numpy arrays or, with device_output=True, DeviceArrays; the options are those of "
      "`gaugefix fix`.");

  const gaugefix::GenerateOptions gd;
  m.def(
      "generate",
      [](const std::array<int, 4>& lattice, const std::string& group, const std::string& start,
         double beta, int sweeps, int or_sweeps, std::uint64_t seed, const std::string& precision,
         const std::string& backend, int storage, const std::string& tuning, bool device_output,
         const py::object& comm) {
        const int device = output_device(device_output, py::none(), "generate");
        gaugefix::GenerateOptions o;
        o.lattice = lattice;
        o.group = named("generate", gaugefix::parse_group, group, "group");
        o.start = named("generate", gaugefix::parse_start, start, "start");
        o.beta = beta;
        o.sweeps = sweeps;
        o.or_sweeps = or_sweeps;
        o.seed = seed;
        o.precision = named("generate", gaugefix::parse_precision, precision, "precision");
        o.backend = named("generate", gaugefix::parse_backend, backend, "backend");
        o.storage = storage;
        o.tuning = named("generate", gaugefix::parse_tuning, tuning, "tuning");
        o.communicator = communicator(comm);
        gaugefix::Field f;
        {
          py::gil_scoped_release unlocked;
          f = gaugefix::generate(o);
        }
        return returned(std::move(f), device);
      },
      "lattice"_a, py::kw_only(), "group"_a = gaugefix::to_string(gd.group),
      "start"_a = gaugefix::to_string(gd.start), "beta"_a = gd.beta, "sweeps"_a = gd.sweeps,
      "or_sweeps"_a = gd.or_sweeps, "seed"_a = gd.seed,
      "precision"_a = gaugefix::to_string(gd.precision),
      "backend"_a = gaugefix::to_string(gd.backend), "storage"_a = gd.storage,
      "tuning"_a = gaugefix::to_string(gd.tuning), "device_output"_a = false, "comm"_a = py::none(),
      "Generates a gauge field on a lattice (Lx, Ly, Lz, Lt): a cold, hot or smooth start, "
      "then `sweeps` Wilson-action heatbath sweeps at beta (as `gaugefix generate`).");

  m.def(
      "measure",
      [](const py::handle& links, const std::string& gauge, const py::object& comm) {
        const gaugefix::Gauge g = named("measure", gaugefix::parse_gauge, gauge, "gauge");
        const gaugefix::Communicator c = communicator(comm);
        const gaugefix::Field f = field_from_array(links, "links", c);
        py::gil_scoped_release unlocked;
        return gaugefix::measure(f, g, c);
      },
      "links"_a, py::kw_only(), "gauge"_a = "landau", "comm"_a = py::none(),
      "The gauge condition of the links (F, theta, theta_t) as `gaugefix info --check` measures "
      "it.");

  m.def(
      "plaquette",
      [](const py::handle& links, const py::object& comm) {
        const gaugefix::Communicator c = communicator(comm);
        const gaugefix::Field f = field_from_array(links, "links", c);
        py::gil_scoped_release unlocked;
        return gaugefix::plaquette(f, c);
      },
      "links"_a, py::kw_only(), "comm"_a = py::none(),
      "(1/6V) sum_x sum_{mu<nu} Re tr P_mu,nu(x) / N");

  m.def(
      "gluon_propagator",
      [](const py::handle& links, int max_n2, const std::string& cut, double cylinder_width,
         const std::string& gauge, const py::object& comm) {
        gaugefix::GluonPropagatorOptions o;
        o.max_n2 = max_n2;
        o.cut = named("gluon_propagator", gaugefix::parse_cut, cut, "cut");
        o.cylinder_width = cylinder_width;
        o.gauge = named("gluon_propagator", gaugefix::parse_gauge, gauge, "gauge");
        return measured_table(links, comm,
                              [&](const gaugefix::Field& f, const gaugefix::Communicator& c) {
                                return gaugefix::gluon_propagator(f, o, c);
                              });
      },
      "links"_a, py::kw_only(), "max_n2"_a = 4, "cut"_a = "psq", "cylinder_width"_a = 1.0,
      "gauge"_a = "landau", "comm"_a = py::none(),
      "The gluon propagator of gauge-fixed links as `gaugefix measure --gluon-propagator` "
      "writes it: a dict of arrays (Landau: nx, ny, nz, nt, p2, transverse, longitudinal; "
      "Coulomb: nx, ny, nz, p2, spatial, temporal).");

  m.def(
      "static_potential",
      [](const py::handle& links, int max_t, const py::object& comm) {
        return measured_table(links, comm,
                              [&](const gaugefix::Field& f, const gaugefix::Communicator& c) {
                                return gaugefix::static_potential(f, max_t, c);
                              });
      },
      "links"_a, "max_t"_a, py::kw_only(), "comm"_a = py::none(),
      "C(r, T) and V(r, T) = log(C(r, T)/C(r, T+1)) from the temporal Wilson lines of "
      "Coulomb-gauge links, as `gaugefix measure --static-potential` writes them: a dict of "
      "arrays r, t, correlator, potential.");

  m.def(
      "ghost_propagator",
      [](const py::handle& links, int max_n2, const std::string& cut, double cylinder_width,
         double tolerance, int max_iterations, const py::object& comm) {
        gaugefix::GhostPropagatorOptions o;
        o.max_n2 = max_n2;
        o.cut = named("ghost_propagator", gaugefix::parse_cut, cut, "cut");
        o.cylinder_width = cylinder_width;
        o.tolerance = tolerance;
        o.max_iterations = max_iterations;
        return measured_table(links, comm,
                              [&](const gaugefix::Field& f, const gaugefix::Communicator& c) {
                                return gaugefix::ghost_propagator(f, o, c);
                              });
      },
      "links"_a, py::kw_only(), "max_n2"_a = 4, "cut"_a = "psq", "cylinder_width"_a = 1.0,
      "tolerance"_a = 1e-10, "max_iterations"_a = 1000, "comm"_a = py::none(),
      "The ghost propagator of Landau-gauge links as `gaugefix measure --ghost-propagator` "
      "writes it, at the momenta of the cut without n = 0: a dict of arrays nx, ny, nz, nt, p2, "
      "ghost, iterations, residual (of the conjugate-gradient solves).");

  m.def(
      "lowest_eigenvalue",
      [](const py::handle& links, double tolerance, int max_iterations, const py::object& comm) {
        gaugefix::LowestEigenvalueOptions o;
        o.tolerance = tolerance;
        o.max_iterations = max_iterations;
        return measured_table(links, comm,
                              [&](const gaugefix::Field& f, const gaugefix::Communicator& c) {
                                return gaugefix::lowest_eigenvalue(f, o, c);
                              });
      },
      "links"_a, py::kw_only(), "tolerance"_a = 1e-6, "max_iterations"_a = 1000,
      "comm"_a = py::none(),
      "The lowest non-trivial eigenvalue of the Faddeev-Popov operator of Landau-gauge links "
      "(Lanczos) as `gaugefix measure --lowest-eigenvalue` writes it: a dict of one-element "
      "arrays eigenvalue, lanczos_steps, residual.");

  m.def(
      "abelian_projection",
      [](const py::handle& links, const py::object& comm) {
        return measured_table(links, comm,
                              [&](const gaugefix::Field& f, const gaugefix::Communicator& c) {
                                return gaugefix::abelian_projection(f, c);
                              });
      },
      "links"_a, py::kw_only(), "comm"_a = py::none(),
      "The Abelian projection of maximally-Abelian-gauge links as `gaugefix measure --abelian` "
      "writes it: a dict of one-element arrays plaquette, polyakov_re, polyakov_im, then "
      "polyakov_re_i, polyakov_im_i and density_i (monopole density) of each colour i, "
      "unconserved.");

  m.def(
      "apply_transform",
      [](const py::handle& links, const py::handle& g, bool device_output, const py::object& comm) {
        const int device = output_device(device_output, links, "apply_transform");
        const gaugefix::Communicator c = communicator(comm);
        gaugefix::Field u = field_from_array(links, "links", c);
        const gaugefix::Field gf = field_from_array(g, "g", c);
        {
          py::gil_scoped_release unlocked;
          gaugefix::apply_transform(u, gf, c);
        }
        return returned(std::move(u), device);
      },
      "links"_a, "g"_a, py::kw_only(), "device_output"_a = false, "comm"_a = py::none(),
      "g(x) links_mu(x) g(x + mu)^dagger (as `gaugefix transform`), a new array.");

  m.def(
      "random_transform",
      [](const py::handle& links, std::uint64_t seed, bool device_output, const py::object& comm) {
        const int device = output_device(device_output, links, "random_transform");
        gaugefix::Field u = field_from_array(links, "links", communicator(comm));
        gaugefix::Field g;
        {
          py::gil_scoped_release unlocked;
          g = gaugefix::random_transform(u, seed);
        }
        return py::make_tuple(returned(std::move(u), device), returned(std::move(g), device));
      },
      "links"_a, "seed"_a, py::kw_only(), "device_output"_a = false, "comm"_a = py::none(),
      "A random gauge transformation drawn from (seed, site), as `gaugefix fix "
      "--random-transform seed`. Returns (transformed links, g).");
}
