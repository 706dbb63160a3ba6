#include "app/structured_output.h"
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace gf {

Value& Value::add(const std::string& key, Value value) {
  std::get<Map>(v).emplace_back(key, std::move(value));
  return *this;
}

namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\')
      out += {'\\', ch};
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20)
      out += fmt::format("\\u{:04x}", c);
    else
      out += ch;
  }
  return out + "\"";
}

void json(const Value& value, std::string& out, int indent) {
  const std::string pad(std::size_t(indent + 2), ' ');
  if (const auto* s = std::get_if<std::string>(&value.v)) {
    out += json_string(*s);
  } else if (const auto* i = std::get_if<std::int64_t>(&value.v)) {
    out += std::to_string(*i);
  } else if (const auto* d = std::get_if<double>(&value.v)) {
    out += std::isfinite(*d) ? fmt::format("{}", *d) : "null";
  } else if (const auto* b = std::get_if<bool>(&value.v)) {
    out += *b ? "true" : "false";
  } else if (const auto* l = std::get_if<Value::List>(&value.v)) {
    out += "[";
    for (std::size_t k = 0; k < l->size(); ++k) {
      out += k ? ", " : "";
      json((*l)[k], out, indent + 2);
    }
    out += "]";
  } else {
    const auto& m = std::get<Value::Map>(value.v);
    out += "{";
    for (std::size_t k = 0; k < m.size(); ++k) {
      out += (k ? ",\n" : "\n") + pad + json_string(m[k].first) + ": ";
      json(m[k].second, out, indent + 2);
    }
    if (!m.empty()) {
      out += '\n';
      out.append(std::size_t(indent), ' ');
    }
    out += '}';
  }
}

void yaml(const Value& value, YAML::Emitter& e) {
  if (const auto* s = std::get_if<std::string>(&value.v)) {
    e << *s;
  } else if (const auto* i = std::get_if<std::int64_t>(&value.v)) {
    e << static_cast<long long>(*i);
  } else if (const auto* d = std::get_if<double>(&value.v)) {
    e << (std::isfinite(*d) ? fmt::format("{}", *d)
          : *d > 0          ? ".inf"
          : *d < 0          ? "-.inf"
                            : ".nan");
  } else if (const auto* b = std::get_if<bool>(&value.v)) {
    e << *b;
  } else if (const auto* l = std::get_if<Value::List>(&value.v)) {
    const bool flat = std::all_of(l->begin(), l->end(), [](const Value& x) {
      return !std::holds_alternative<Value::List>(x.v) && !std::holds_alternative<Value::Map>(x.v);
    });
    if (flat) e << YAML::Flow;
    e << YAML::BeginSeq;
    for (const Value& x : *l)
      yaml(x, e);
    e << YAML::EndSeq;
  } else {
    e << YAML::BeginMap;
    for (const auto& [key, x] : std::get<Value::Map>(value.v)) {
      e << YAML::Key << key << YAML::Value;
      yaml(x, e);
    }
    e << YAML::EndMap;
  }
}

} // namespace

std::string to_json(const Value& value) {
  std::string out;
  json(value, out, 0);
  return out + "\n";
}

std::string to_yaml(const Value& value) {
  YAML::Emitter e;
  e.SetBoolFormat(YAML::TrueFalseBool);
  yaml(value, e);
  return std::string("---\n") + e.c_str() + "\n";
}

} // namespace gf
