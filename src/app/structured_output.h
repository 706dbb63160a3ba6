// structured_output.h: what `gaugefix info --format json|yaml` prints for scripts: a tree of
// maps (keys in insertion order), lists and scalars (text, whole numbers, reals, booleans),
// written as JSON (RFC 8259; reals with 17 significant digits, non-finite ones as null) or
// as YAML (a block document, one per tree).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gf {

struct Value {
  using Map = std::vector<std::pair<std::string, Value>>;
  using List = std::vector<Value>;
  std::variant<std::string, std::int64_t, double, bool, List, Map> v;

  Value() : v(Map{}) {}
  Value(std::string s) : v(std::move(s)) {}
  Value(const char* s) : v(std::string(s)) {}
  Value(int i) : v(std::int64_t(i)) {}
  Value(long i) : v(std::int64_t(i)) {}
  Value(long long i) : v(std::int64_t(i)) {}
  Value(double d) : v(d) {}
  Value(bool b) : v(b) {}
  Value(List l) : v(std::move(l)) {}
  Value(Map m) : v(std::move(m)) {}

  // Appends key: value to a map.
  Value& add(const std::string& key, Value value);
};

std::string to_json(const Value& value);
std::string to_yaml(const Value& value);

} // namespace gf
