// Fixing through the C API (include/gaugefix/gaugefix_c.h): the options handle holding a
// gaugefix::FixOptions, set by name from text or, for the typed options, by the C enums (value
// for value the C++ ones); fix, measure, plaquette and the random gauge transformation through
// the C++ API.
#include "api/c_fields.h"
#include "api/c_status.h"
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>

using gaugefix::c_api::c_call;
using gaugefix::c_api::c_require_pointer;

struct gaugefix_fix_options {
  gaugefix::FixOptions options;
};

namespace {

[[noreturn]] void bad_value(const std::string& name, const std::string& value,
                            const char* expected) {
  throw gaugefix::Error(name + ": '" + value + "' is not " + expected);
}

double parse_double(const std::string& name, const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE) bad_value(name, value, "a number");
  return d;
}

long long parse_integer(const std::string& name, const std::string& value, long long least,
                        long long most) {
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE || i < least || i > most)
    bad_value(name, value, "an integer in range");
  return i;
}

bool parse_bool(const std::string& name, const std::string& value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  bad_value(name, value, "true, false, 1 or 0");
}

using Setter =
    std::function<void(gaugefix::FixOptions&, const std::string& name, const std::string& value)>;

// A typed option from its name, through the option's name table (parse: gaugefix::parse_gauge,
// ...).
template <class E>
Setter named(E gaugefix::FixOptions::*member, E (*parse)(const std::string&, const std::string&)) {
  return [member, parse](auto& o, const auto& n, const auto& v) { o.*member = parse(v, n); };
}
Setter real(double gaugefix::FixOptions::*member) {
  return [member](auto& o, const auto& n, const auto& v) { o.*member = parse_double(n, v); };
}
Setter integer(int gaugefix::FixOptions::*member) {
  return [member](auto& o, const auto& n, const auto& v) {
    o.*member = static_cast<int>(
        parse_integer(n, v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  };
}

// The members of gaugefix::FixOptions a text sets, by name.
const std::map<std::string, Setter>& setters() {
  using O = gaugefix::FixOptions;
  static const std::map<std::string, Setter> s = {
      {"gauge", named(&O::gauge, gaugefix::parse_gauge)},
      {"algorithm", named(&O::algorithm, gaugefix::parse_algorithm)},
      {"omega", real(&O::omega)},
      {"alpha", real(&O::alpha)},
      {"sr_probability", real(&O::sr_probability)},
      {"anneal_steps", integer(&O::anneal_steps)},
      {"t_max", real(&O::t_max)},
      {"t_min", real(&O::t_min)},
      {"micro_steps", integer(&O::micro_steps)},
      {"sr_steps", integer(&O::sr_steps)},
      {"tolerance", real(&O::tolerance)},
      {"max_iterations", integer(&O::max_iterations)},
      {"check_interval", integer(&O::check_interval)},
      {"reproject_interval", integer(&O::reproject_interval)},
      {"reproject", [](O& o, const auto& n, const auto& v) { o.reproject = parse_bool(n, v); }},
      {"precision", named(&O::precision, gaugefix::parse_precision)},
      {"preconditioner_precision",
       named(&O::preconditioner_precision, gaugefix::parse_preconditioner_precision)},
      {"backend", named(&O::backend, gaugefix::parse_backend)},
      {"storage", integer(&O::storage)},
      {"seed",
       [](O& o, const auto& n, const auto& v) {
         if (!v.empty() && v[0] == '-') bad_value(n, v, "an integer >= 0");
         char* end = nullptr;
         errno = 0;
         o.seed = std::strtoull(v.c_str(), &end, 10);
         if (v.empty() || *end != '\0' || errno == ERANGE) bad_value(n, v, "an integer >= 0");
       }},
      {"tuning", named(&O::tuning, gaugefix::parse_tuning)},
      {"exchange", named(&O::exchange, gaugefix::parse_exchange)},
  };
  return s;
}

static_assert(int(gaugefix::Gauge::mag) == GAUGEFIX_MAG);
static_assert(int(gaugefix::Algorithm::facg) == GAUGEFIX_FACG);
static_assert(int(gaugefix::Precision::double_) == GAUGEFIX_DOUBLE);
static_assert(int(gaugefix::Backend::cuda) == GAUGEFIX_CUDA);
static_assert(int(gaugefix::Tuning::force) == GAUGEFIX_TUNING_FORCE);
static_assert(int(gaugefix::Exchange::peer) == GAUGEFIX_EXCHANGE_PEER);

// The C++ value of a C enum's value (the same number), `last` the enum's last value.
template <class E>
E cpp_value(int value, E last, const char* option) {
  if (value < 0 || value > static_cast<int>(last))
    throw gaugefix::Error(std::string(option) + ": " + std::to_string(value) +
                          " is not a value of its enum");
  return static_cast<E>(value);
}

// Sets a typed option of the handle from its C enum's value.
template <class E>
gaugefix_status set_typed(const char* function, gaugefix_fix_options* options,
                          E gaugefix::FixOptions::*member, int value, E last, const char* option) {
  return c_call(function, [&] {
    c_require_pointer(options, function, "options");
    options->options.*member = cpp_value(value, last, option);
  });
}

} // namespace

extern "C" {

gaugefix_status gaugefix_fix_options_create(gaugefix_fix_options** options) {
  return c_call("gaugefix_fix_options_create", [&] {
    c_require_pointer(options, "gaugefix_fix_options_create", "options");
    *options = new gaugefix_fix_options{};
  });
}

void gaugefix_fix_options_free(gaugefix_fix_options* options) {
  delete options;
}

gaugefix_status gaugefix_fix_options_set(gaugefix_fix_options* options, const char* name,
                                         const char* value) {
  return c_call("gaugefix_fix_options_set", [&] {
    c_require_pointer(options, "gaugefix_fix_options_set", "options");
    c_require_pointer(name, "gaugefix_fix_options_set", "name");
    c_require_pointer(value, "gaugefix_fix_options_set", "value");
    const auto s = setters().find(name);
    if (s == setters().end()) {
      std::string known;
      for (const auto& [n, setter] : setters())
        known += (known.empty() ? "" : ", ") + n;
      throw gaugefix::Error(std::string("unknown option '") + name + "' (options: " + known + ")");
    }
    gaugefix::FixOptions changed = options->options; // unchanged where the value is bad
    s->second(changed, name, value);
    options->options = std::move(changed);
  });
}

gaugefix_status gaugefix_fix_options_set_gauge(gaugefix_fix_options* options,
                                               gaugefix_gauge gauge) {
  return set_typed("gaugefix_fix_options_set_gauge", options, &gaugefix::FixOptions::gauge, gauge,
                   gaugefix::Gauge::mag, "gauge");
}

gaugefix_status gaugefix_fix_options_set_algorithm(gaugefix_fix_options* options,
                                                   gaugefix_algorithm algorithm) {
  return set_typed("gaugefix_fix_options_set_algorithm", options, &gaugefix::FixOptions::algorithm,
                   algorithm, gaugefix::Algorithm::facg, "algorithm");
}

gaugefix_status gaugefix_fix_options_set_precision(gaugefix_fix_options* options,
                                                   gaugefix_precision precision) {
  return set_typed("gaugefix_fix_options_set_precision", options, &gaugefix::FixOptions::precision,
                   precision, gaugefix::Precision::double_, "precision");
}

gaugefix_status gaugefix_fix_options_set_backend(gaugefix_fix_options* options,
                                                 gaugefix_backend backend) {
  return set_typed("gaugefix_fix_options_set_backend", options, &gaugefix::FixOptions::backend,
                   backend, gaugefix::Backend::cuda, "backend");
}

gaugefix_status gaugefix_fix_options_set_tuning(gaugefix_fix_options* options,
                                                gaugefix_tuning tuning) {
  return set_typed("gaugefix_fix_options_set_tuning", options, &gaugefix::FixOptions::tuning,
                   tuning, gaugefix::Tuning::force, "tuning");
}

gaugefix_status gaugefix_fix_options_set_exchange(gaugefix_fix_options* options,
                                                  gaugefix_exchange exchange) {
  return set_typed("gaugefix_fix_options_set_exchange", options, &gaugefix::FixOptions::exchange,
                   exchange, gaugefix::Exchange::peer, "exchange");
}

gaugefix_status gaugefix_fix(gaugefix_field* links, const gaugefix_fix_options* options,
                             gaugefix_fix_result* result, gaugefix_field** transform) {
  return c_call("gaugefix_fix", [&] {
    c_require_pointer(links, "gaugefix_fix", "links");
    c_require_pointer(result, "gaugefix_fix", "result");
    gaugefix::FixOptions o = options != nullptr ? options->options : gaugefix::FixOptions{};
    o.transform = transform != nullptr;
    gaugefix::FixResult r = gaugefix::fix(links->field, o);
    gaugefix_field* g = transform != nullptr ? new gaugefix_field{std::move(r.transform)} : nullptr;
    *result = {r.converged ? 1 : 0, r.iterations,  r.seconds,
               r.final.functional,  r.final.theta, r.final.theta_max_slice};
    if (transform != nullptr) *transform = g;
  });
}

gaugefix_status gaugefix_measure(const gaugefix_field* links, gaugefix_gauge gauge,
                                 double* functional, double* theta, double* theta_max_slice) {
  return c_call("gaugefix_measure", [&] {
    c_require_pointer(links, "gaugefix_measure", "links");
    const gaugefix::GaugeCondition c =
        gaugefix::measure(links->field, cpp_value(gauge, gaugefix::Gauge::mag, "gauge"));
    if (functional != nullptr) *functional = c.functional;
    if (theta != nullptr) *theta = c.theta;
    if (theta_max_slice != nullptr) *theta_max_slice = c.theta_max_slice;
  });
}

gaugefix_status gaugefix_plaquette(const gaugefix_field* links, double* plaquette) {
  return c_call("gaugefix_plaquette", [&] {
    c_require_pointer(links, "gaugefix_plaquette", "links");
    c_require_pointer(plaquette, "gaugefix_plaquette", "plaquette");
    *plaquette = gaugefix::plaquette(links->field);
  });
}

gaugefix_status gaugefix_random_transform(gaugefix_field* links, uint64_t seed) {
  return c_call("gaugefix_random_transform", [&] {
    c_require_pointer(links, "gaugefix_random_transform", "links");
    gaugefix::random_transform(links->field, seed);
  });
}

} // extern "C"
