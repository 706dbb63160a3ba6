#include "io/path_checks.h"
#include "core/error.h"
#include "io/temporary_name.h"
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace gf {

namespace fs = std::filesystem;

namespace {

// The path with ".", ".." and symbolic links resolved as far as it exists.
fs::path resolved(const std::string& p) {
  std::error_code ec;
  const fs::path abs = fs::absolute(p, ec);
  const fs::path r = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : r;
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string quoted(const NamedPath& p) {
  return p.option + " '" + p.path + "'";
}

} // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return resolved(a) == resolved(b);
}

void check_replaceable(const std::string& what, const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw Error(what + " '" + path + "' exists and is " + kind_of(st.st_mode) +
                ": only regular files are replaced");
}

void check_output_path(const std::string& output, const std::vector<std::string>& inputs) {
  check_replaceable("output file", output);
  check_name_lengths("output file", output);
  for (const std::string& in : inputs)
    if (same_file(output, in))
      throw Error("output file '" + output + "' is the input file '" + in +
                  "' (same file after resolving the path): refusing to overwrite an input");
}

void check_run_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  // One identity per path (same_file's rule: device and inode where the file exists, else the
  // resolved path), so that many outputs (a batch) are compared in N log N.
  const auto identity = [](const std::string& p) {
    struct stat st;
    if (::stat(p.c_str(), &st) == 0)
      return "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    return "path " + resolved(p).string();
  };
  std::map<std::string, const NamedPath*> inputs_by_identity, outputs_by_identity;
  for (const NamedPath& in : inputs)
    if (!in.path.empty()) inputs_by_identity.emplace(identity(in.path), &in);
  std::set<std::string> directories_checked;
  for (const NamedPath& out : outputs) {
    if (out.path.empty()) throw Error(out.option + ": empty file name");
    check_replaceable(out.option, out.path);
    check_name_lengths(out.option, out.path);
    std::error_code ec;
    const fs::path dir = fs::absolute(out.path, ec).parent_path();
    if (directories_checked.insert(dir.string()).second) {
      if (!fs::exists(dir, ec))
        throw Error(quoted(out) + ": directory '" + dir.string() + "' does not exist");
      if (!fs::is_directory(dir, ec))
        throw Error(quoted(out) + ": '" + dir.string() + "' is not a directory");
      if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw Error(quoted(out) + ": directory '" + dir.string() +
                    "' is not writable: " + std::strerror(errno));
    }
    const std::string id = identity(out.path);
    if (const auto in = inputs_by_identity.find(id); in != inputs_by_identity.end())
      throw Error(quoted(out) + " is the same file as " + quoted(*in->second) +
                  " (after resolving links): refusing to overwrite an input");
    if (const auto [other, fresh] = outputs_by_identity.emplace(id, &out); !fresh)
      throw Error(quoted(out) + " is the same file as " + quoted(*other->second) +
                  " (after resolving links): every output needs its own file");
  }
}

} // namespace gf
