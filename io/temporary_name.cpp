#include "io/temporary_name.h"
#include "core/error.h"
#include "core/fnv1a.h"
#include <climits>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace gf {

namespace fs = std::filesystem;

namespace {

const std::string marker = ".gaugefix-tmp.";

// The longest file name the directory of `final_path` takes (NAME_MAX where it does not say).
std::size_t name_max(const fs::path& final_path) {
  const fs::path dir = final_path.parent_path().empty() ? fs::path(".") : final_path.parent_path();
  const long n = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return n > 0 ? static_cast<std::size_t>(n) : NAME_MAX;
}

std::string hashed(const std::string& name) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(name)));
  return hex;
}

} // namespace

std::string temporary_name_prefix(const std::string& final_path) {
  const fs::path p(final_path);
  const std::string name = p.filename().string();
  const bool fits = 1 + name.size() + marker.size() + temporary_suffix_length <= name_max(p);
  std::string prefix = "."; // built step by step: "." + string trips GCC 12's -Wrestrict
  prefix += fits ? name : hashed(name);
  prefix += marker;
  return prefix;
}

void check_name_lengths(const std::string& what, const std::string& final_path) {
  const fs::path p(final_path);
  const std::size_t name = p.filename().string().size(), limit = name_max(p);
  if (name > limit)
    throw Error(what + " '" + final_path + "': the file name has " + std::to_string(name) +
                " bytes, more than the " + std::to_string(limit) +
                " its directory allows (NAME_MAX)");
  const std::size_t temporary =
      (p.parent_path() / temporary_name_prefix(final_path)).string().size() +
      temporary_suffix_length;
  if (temporary >= PATH_MAX)
    throw Error(what + " '" + final_path + "': the path of its temporary file would have " +
                std::to_string(temporary) + " bytes, PATH_MAX is " + std::to_string(PATH_MAX));
}

} // namespace gf
