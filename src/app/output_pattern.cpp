#include "app/output_pattern.h"
#include "core/error.h"
#include <filesystem>

namespace gf {

namespace {

constexpr const char* keys[] = {"stem", "name", "index", "seq", "copy"};

// Calls f(key) for each "{key}" and f("") for the text between them, in order; throws for
// an unknown key or a brace that does not belong to one.
template <class F>
void scan(const std::string& option, const std::string& pattern, F&& f) {
  std::size_t i = 0;
  while (i < pattern.size()) {
    const std::size_t open = pattern.find_first_of("{}", i);
    f(std::string(), pattern.substr(i, open == std::string::npos ? std::string::npos : open - i));
    if (open == std::string::npos) return;
    const std::size_t close = pattern[open] == '{' ? pattern.find('}', open) : std::string::npos;
    const std::string key =
        close == std::string::npos ? std::string() : pattern.substr(open + 1, close - open - 1);
    bool known = false;
    for (const char* k : keys)
      known = known || key == k;
    if (!known)
      throw Error(
          option + " '" + pattern + "': '" +
          pattern.substr(open, close == std::string::npos ? 1 : close - open + 1) +
          "' is not a pattern (known: {stem}, {name}, {index}, {seq}; {copy} in --history)");
    f(key, std::string());
    i = close + 1;
  }
}

} // namespace

void check_pattern(const std::string& option, const std::string& pattern) {
  scan(option, pattern, [](const std::string&, const std::string&) {});
}

bool has_pattern(const std::string& pattern) {
  bool found = false;
  scan("", pattern,
       [&](const std::string& key, const std::string&) { found = found || !key.empty(); });
  return found;
}

namespace {

bool uses_key(const std::string& pattern, const char* name) {
  bool found = false;
  scan("", pattern,
       [&](const std::string& key, const std::string&) { found = found || key == name; });
  return found;
}

} // namespace

bool uses_sequence(const std::string& pattern) {
  return uses_key(pattern, "seq");
}

bool uses_copy(const std::string& pattern) {
  return uses_key(pattern, "copy");
}

std::string expand_pattern(const std::string& option, const std::string& pattern,
                           const PatternInput& in) {
  const std::filesystem::path p(in.path);
  std::string out;
  scan(option, pattern, [&](const std::string& key, const std::string& text) {
    if (key.empty())
      out += text;
    else if (key == "stem")
      out += p.stem().string();
    else if (key == "name")
      out += p.filename().string();
    else if (key == "index")
      out += std::to_string(in.index);
    else if (key == "copy" && !in.copy)
      throw Error(option + " '" + pattern + "': {copy} names a Gribov copy, for --history only");
    else if (key == "copy")
      out += std::to_string(*in.copy);
    else if (!in.sequence)
      throw Error(option + " '" + pattern + "' uses {seq}, but the input '" + in.path +
                  "' states no sequence number (NERSC SEQUENCE_NUMBER, or gaugefix's provenance)");
    else
      out += std::to_string(*in.sequence);
  });
  return out;
}

std::string copy_path(const std::string& path, int copy) {
  const std::filesystem::path p(path);
  const std::string tag = ".copy" + std::to_string(copy);
  const std::string name = p.filename().string();
  const std::size_t dot = name.rfind('.');
  const std::string renamed = dot == std::string::npos || dot == 0
                                  ? name + tag
                                  : name.substr(0, dot) + tag + name.substr(dot);
  return (p.parent_path() / renamed).string();
}

} // namespace gf
