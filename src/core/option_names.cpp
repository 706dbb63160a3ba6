#include "core/option_names.h"
#include "core/error.h"
#include "core/nearest_name.h"
#include <utility>

namespace gf {

using namespace gaugefix;

namespace {

template <class E>
struct NameTable {
  const char* noun; // "unknown <noun> 'x'"
  std::vector<std::pair<E, std::string>> entries;
};

template <class E>
const NameTable<E>& table();

template <>
const NameTable<Gauge>& table() {
  static const NameTable<Gauge> t{
      "gauge", {{Gauge::landau, "landau"}, {Gauge::coulomb, "coulomb"}, {Gauge::mag, "mag"}}};
  return t;
}

template <>
const NameTable<Algorithm>& table() {
  static const NameTable<Algorithm> t{"algorithm",
                                      {{Algorithm::relaxation, "relaxation"},
                                       {Algorithm::overrelaxation, "overrelaxation"},
                                       {Algorithm::stochastic, "stochastic"},
                                       {Algorithm::fasd, "fasd"},
                                       {Algorithm::facg, "facg"}}};
  return t;
}

template <>
const NameTable<Precision>& table() {
  static const NameTable<Precision> t{
      "precision",
      {{Precision::single, "single"}, {Precision::mixed, "mixed"}, {Precision::double_, "double"}}};
  return t;
}

template <>
const NameTable<Backend>& table() {
  static const NameTable<Backend> t{"backend", {{Backend::cpu, "cpu"}, {Backend::cuda, "cuda"}}};
  return t;
}

template <>
const NameTable<Tuning>& table() {
  static const NameTable<Tuning> t{"tuning mode",
                                   {{Tuning::from_environment, ""},
                                    {Tuning::off, "off"},
                                    {Tuning::cached, "cached"},
                                    {Tuning::on, "on"},
                                    {Tuning::force, "force"}}};
  return t;
}

template <>
const NameTable<Exchange>& table() {
  static const NameTable<Exchange> t{"exchange path",
                                     {{Exchange::automatic, "auto"},
                                      {Exchange::staged, "staged"},
                                      {Exchange::direct, "direct"},
                                      {Exchange::peer, "peer"}}};
  return t;
}

template <>
const NameTable<PreconditionerPrecision>& table() {
  static const NameTable<PreconditionerPrecision> t{"preconditioner precision",
                                                    {{PreconditionerPrecision::automatic, "auto"},
                                                     {PreconditionerPrecision::single, "single"},
                                                     {PreconditionerPrecision::double_, "double"}}};
  return t;
}

template <>
const NameTable<Group>& table() {
  static const NameTable<Group> t{"group", {{Group::su2, "su2"}, {Group::su3, "su3"}}};
  return t;
}

template <>
const NameTable<Start>& table() {
  static const NameTable<Start> t{
      "start", {{Start::cold, "cold"}, {Start::hot, "hot"}, {Start::smooth, "smooth"}}};
  return t;
}

template <>
const NameTable<Cut>& table() {
  static const NameTable<Cut> t{
      "cut", {{Cut::psq, "psq"}, {Cut::hypercubic, "hypercubic"}, {Cut::cylinder, "cylinder"}}};
  return t;
}

// "a, b or c"
std::string listed(const std::vector<std::string>& shown) {
  std::string text;
  for (std::size_t i = 0; i < shown.size(); ++i)
    text += (i == 0 ? "" : i + 1 == shown.size() ? " or " : ", ") + shown[i];
  return text;
}

} // namespace

template <class E>
const char* name_of(E value) {
  for (const auto& [v, name] : table<E>().entries)
    if (v == value) return name.c_str();
  return "?";
}

template <class E>
std::vector<std::string> names() {
  std::vector<std::string> all;
  for (const auto& entry : table<E>().entries)
    all.push_back(entry.second);
  return all;
}

template <class E>
std::string name_problem(const std::string& name) {
  for (const auto& entry : table<E>().entries)
    if (entry.second == name) return "";
  std::vector<std::string> shown; // the names an option is given (the empty one aside)
  for (const std::string& n : names<E>())
    if (!n.empty()) shown.push_back(n);
  const std::string near = nearest_name(name, shown);
  return std::string("unknown ") + table<E>().noun + " '" + name + "' (expected " + listed(shown) +
         (near.empty() ? "" : "; did you mean " + near + "?") + ")";
}

template <class E>
E parse_name(const std::string& option, const std::string& name) {
  for (const auto& [v, n] : table<E>().entries)
    if (n == name) return v;
  throw Error(option + ": " + name_problem<E>(name));
}

#define GAUGEFIX_NAME_TABLE(E)                                                                     \
  template const char* name_of<E>(E);                                                              \
  template std::vector<std::string> names<E>();                                                    \
  template std::string name_problem<E>(const std::string&);                                        \
  template E parse_name<E>(const std::string&, const std::string&);

GAUGEFIX_NAME_TABLE(Gauge)
GAUGEFIX_NAME_TABLE(Algorithm)
GAUGEFIX_NAME_TABLE(Precision)
GAUGEFIX_NAME_TABLE(Backend)
GAUGEFIX_NAME_TABLE(Tuning)
GAUGEFIX_NAME_TABLE(Exchange)
GAUGEFIX_NAME_TABLE(PreconditionerPrecision)
GAUGEFIX_NAME_TABLE(Group)
GAUGEFIX_NAME_TABLE(Start)
GAUGEFIX_NAME_TABLE(Cut)

} // namespace gf
