// Fixing through the C API (include/gaugefix/gaugefix_c.h): the options handle holding a
// gaugefix::FixOptions, set by name from text; fix, measure, plaquette and the random gauge
// transformation through the C++ API.
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

Setter text(std::string gaugefix::FixOptions::*member) {
  return [member](auto& o, const auto&, const auto& v) { o.*member = v; };
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
      {"gauge", text(&O::gauge)},
      {"algorithm", text(&O::algorithm)},
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
      {"precision", text(&O::precision)},
      {"backend", text(&O::backend)},
      {"storage", integer(&O::storage)},
      {"seed",
       [](O& o, const auto& n, const auto& v) {
         if (!v.empty() && v[0] == '-') bad_value(n, v, "an integer >= 0");
         char* end = nullptr;
         errno = 0;
         o.seed = std::strtoull(v.c_str(), &end, 10);
         if (v.empty() || *end != '\0' || errno == ERANGE) bad_value(n, v, "an integer >= 0");
       }},
      {"tuning", text(&O::tuning)},
      {"exchange", text(&O::exchange)},
  };
  return s;
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

gaugefix_status gaugefix_measure(const gaugefix_field* links, const char* gauge, double* functional,
                                 double* theta, double* theta_max_slice) {
  return c_call("gaugefix_measure", [&] {
    c_require_pointer(links, "gaugefix_measure", "links");
    c_require_pointer(gauge, "gaugefix_measure", "gauge");
    const gaugefix::GaugeCondition c = gaugefix::measure(links->field, gauge);
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
