#include "io/atomic_file.h"
#include "core/error.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <system_error>
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

// fsync applies to the file, not to the descriptor: a fresh one reaches the closed stream's data.
bool sync_to_disk(const std::string& p) {
  const int fd = ::open(p.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  return ::close(fd) == 0 && ok;
}

} // namespace

void check_output_path(const std::string& output, const std::vector<std::string>& inputs) {
  const fs::path out = resolved(output);
  for (const std::string& in : inputs) {
    std::error_code ec;
    const bool same_file = fs::exists(output, ec) && fs::exists(in, ec) && fs::equivalent(output, in, ec);
    if (same_file || resolved(in) == out)
      throw Error("output file '" + output + "' is the input file '" + in +
                  "' (same file after resolving the path): refusing to overwrite an input");
  }
}

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  const fs::path p(path);
  if (p.filename().empty()) throw Error("output file '" + path + "': not a file name");
  std::string name = ".";
  name += p.filename().string() + ".tmp." + std::to_string(::getpid());
  tmp_path_ = (p.parent_path() / name).string();
  out_.open(tmp_path_, std::ios::binary | std::ios::trunc);
  if (!out_)
    throw Error("output file '" + path + "': cannot create the temporary file '" + tmp_path_ +
                "': " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::error_code ec;
  fs::remove(tmp_path_, ec);
}

void AtomicFile::commit() {
  const auto fail = [&](const std::string& step, const std::string& why) {
    out_.close();
    std::error_code ec;
    fs::remove(tmp_path_, ec);
    throw Error("output file '" + path_ + "': " + step + " of the temporary file '" + tmp_path_ +
                "' failed: " + why);
  };
  if (!out_.is_open()) fail("commit", "the file was already committed or closed");
  out_.flush();
  if (!out_) fail("write", std::strerror(errno));
  out_.close();
  if (!out_) fail("close", std::strerror(errno));
  if (!sync_to_disk(tmp_path_)) fail("fsync", std::strerror(errno));
  std::error_code ec;
  fs::rename(tmp_path_, path_, ec);
  if (ec) fail("rename to the final name", ec.message());
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile file(path);
  write(file.stream());
  file.commit();
}

} // namespace gf
