// The names of the API's typed options (include/gaugefix/options.h): the name tables of
// core/option_names.h, their errors as gaugefix::Error.
#include "core/option_names.h"
#include "core/error.h"

namespace gaugefix {

namespace {

template <class E>
E parsed(const std::string& name, const std::string& option) {
  try {
    return gf::parse_name<E>(option, name);
  } catch (const gf::Error& e) {
    throw Error(e.what());
  }
}

} // namespace

const char* to_string(Gauge value) {
  return gf::name_of(value);
}
const char* to_string(Algorithm value) {
  return gf::name_of(value);
}
const char* to_string(Precision value) {
  return gf::name_of(value);
}
const char* to_string(Backend value) {
  return gf::name_of(value);
}
const char* to_string(Tuning value) {
  return gf::name_of(value);
}
const char* to_string(Exchange value) {
  return gf::name_of(value);
}
const char* to_string(PreconditionerPrecision value) {
  return gf::name_of(value);
}
const char* to_string(Group value) {
  return gf::name_of(value);
}
const char* to_string(Start value) {
  return gf::name_of(value);
}
const char* to_string(Cut value) {
  return gf::name_of(value);
}

Gauge parse_gauge(const std::string& name, const std::string& option) {
  return parsed<Gauge>(name, option);
}
Algorithm parse_algorithm(const std::string& name, const std::string& option) {
  return parsed<Algorithm>(name, option);
}
Precision parse_precision(const std::string& name, const std::string& option) {
  return parsed<Precision>(name, option);
}
Backend parse_backend(const std::string& name, const std::string& option) {
  return parsed<Backend>(name, option);
}
Tuning parse_tuning(const std::string& name, const std::string& option) {
  return parsed<Tuning>(name, option);
}
Exchange parse_exchange(const std::string& name, const std::string& option) {
  return parsed<Exchange>(name, option);
}
PreconditionerPrecision parse_preconditioner_precision(const std::string& name,
                                                       const std::string& option) {
  return parsed<PreconditionerPrecision>(name, option);
}
Group parse_group(const std::string& name, const std::string& option) {
  return parsed<Group>(name, option);
}
Start parse_start(const std::string& name, const std::string& option) {
  return parsed<Start>(name, option);
}
Cut parse_cut(const std::string& name, const std::string& option) {
  return parsed<Cut>(name, option);
}

} // namespace gaugefix
