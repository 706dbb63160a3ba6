#include "app/input_list.h"
#include "core/error.h"
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <glob.h>
#include <map>
#include <sys/stat.h>

namespace gf {

namespace {

bool is_glob(const std::string& s) {
  return s.find_first_of("*?[") != std::string::npos;
}

std::vector<std::string> expand_glob(const std::string& pattern) {
  glob_t g{};
  const int status = ::glob(pattern.c_str(), GLOB_ERR, nullptr, &g);
  std::vector<std::string> out(g.gl_pathv, g.gl_pathv + g.gl_pathc);
  ::globfree(&g);
  if (status == GLOB_NOMATCH || (status == 0 && out.empty()))
    throw Error("--input '" + pattern + "': the pattern matches no file");
  if (status != 0)
    throw Error("--input '" + pattern +
                "': the pattern cannot be expanded (a folder is unreadable)");
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> read_list(const std::string& list) {
  std::ifstream in(list);
  if (!in) throw Error("--input-list '" + list + "': cannot open: " + std::strerror(errno));
  std::vector<std::string> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::size_t last = line.find_last_not_of(" \t\r");
    out.push_back(line.substr(first, last - first + 1));
  }
  if (in.bad())
    throw Error("--input-list '" + list + "': read error after line " + std::to_string(number));
  if (out.empty())
    throw Error("--input-list '" + list + "': lists no input (only blank lines or comments)");
  return out;
}

} // namespace

std::vector<std::string> resolve_inputs(const std::vector<std::string>& input,
                                        const std::string& input_list) {
  if (!input.empty() && !input_list.empty())
    throw Error("--input and --input-list cannot both be given: list every input in one of them");
  std::vector<std::string> out;
  const std::string from = input_list.empty() ? "--input" : "--input-list '" + input_list + "'";
  if (!input_list.empty()) out = read_list(input_list);
  for (const std::string& value : input) {
    struct stat st;
    if (is_glob(value) && ::stat(value.c_str(), &st) != 0) {
      const std::vector<std::string> matches = expand_glob(value);
      out.insert(out.end(), matches.begin(), matches.end());
    } else {
      out.push_back(value);
    }
  }
  std::map<std::pair<dev_t, ino_t>, std::string> seen;
  for (const std::string& path : out) {
    struct stat st;
    if (path.empty()) throw Error(from + ": empty file name");
    if (::stat(path.c_str(), &st) != 0)
      throw Error(from + ": input '" + path + "': " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) throw Error(from + ": input '" + path + "' is not a regular file");
    if (const auto [it, fresh] = seen.emplace(std::pair{st.st_dev, st.st_ino}, path); !fresh)
      throw Error(from + ": the input '" + path + "' is listed twice (also as '" + it->second +
                  "'): each configuration once");
  }
  return out;
}

} // namespace gf
