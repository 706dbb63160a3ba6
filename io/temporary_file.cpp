#include "io/temporary_file.h"
#include "core/error.h"
#include "core/log.h"
#include "io/path_checks.h"
#include "io/signal_cleanup.h"
#include "io/temporary_name.h"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gf {

namespace fs = std::filesystem;

namespace {

std::string random_suffix() {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device device; // the kernel's random source: not predictable
  std::string s;
  for (std::size_t i = 0; i < temporary_suffix_length; ++i)
    s += alphabet[device() % (sizeof alphabet - 1)];
  return s;
}

bool same_inode(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Removes the temporary files of `prefix` in `dir` that no live writer holds.
void remove_stale(const fs::path& dir, const std::string& prefix) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() != prefix.size() + temporary_suffix_length ||
        name.compare(0, prefix.size(), prefix) != 0)
      continue;
    const std::string p = it->path().string();
    const int fd = ::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat held, now;
    if (::fstat(fd, &held) == 0 && S_ISREG(held.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        ::lstat(p.c_str(), &now) == 0 && same_inode(held, now) && ::unlink(p.c_str()) == 0)
      log::warning("removed '{}', a temporary file left by a stopped writer", p);
    ::close(fd);
  }
}

} // namespace

void remove_stale_temporaries(const std::string& final_path) {
  const fs::path p(final_path);
  remove_stale(p.parent_path().empty() ? fs::path(".") : p.parent_path(),
               temporary_name_prefix(final_path));
}

TemporaryFile::TemporaryFile(const std::string& final_path) : final_path_(final_path) {
  const fs::path p(final_path);
  if (p.filename().empty()) throw Error("output file '" + final_path + "': not a file name");
  check_replaceable("output file", final_path);
  const std::string prefix = temporary_name_prefix(final_path);
  remove_stale(p.parent_path().empty() ? fs::path(".") : p.parent_path(), prefix);
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    const std::string candidate = (p.parent_path() / (prefix + random_suffix())).string();
    // Registered before it exists, so that no moment leaves an unregistered file behind.
    const int slot = remove_on_signal(candidate);
    const int fd =
        ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    const int open_error = errno;
    struct stat opened, named;
    // Another writer's stale-file removal may have taken the name before the lock: retry.
    if (fd >= 0 && ::flock(fd, LOCK_EX) == 0 && ::fstat(fd, &opened) == 0 &&
        ::lstat(candidate.c_str(), &named) == 0 && same_inode(opened, named)) {
      fd_ = fd;
      path_ = candidate;
      signal_slot_ = slot;
      break;
    }
    forget_on_signal(slot);
    if (fd >= 0) ::close(fd);
    if (fd < 0 && open_error != EEXIST)
      throw Error("output file '" + final_path + "': cannot create the temporary file '" +
                  candidate + "': " + std::strerror(open_error));
  }
  if (fd_ < 0)
    throw Error("output file '" + final_path +
                "': cannot create a temporary file beside it (100 attempts)");
}

TemporaryFile::~TemporaryFile() {
  if (committed_) return;
  if (fd_ >= 0) ::close(fd_);
  ::unlink(path_.c_str());
  forget_on_signal(signal_slot_);
}

void TemporaryFile::commit() {
  const auto fail = [&](const std::string& step, const std::string& why) {
    throw Error("output file '" + final_path_ + "': " + step + " of the temporary file '" + path_ +
                "' failed: " + why);
  };
  if (committed_ || fd_ < 0) fail("commit", "the file was already committed");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("close", std::strerror(errno));
  check_replaceable("output file", final_path_);
  if (::rename(path_.c_str(), final_path_.c_str()) != 0) {
    const int error = errno;
    wait_if_ending_by_signal(); // a signal's cleanup removed the file: the signal ends the run
    fail("rename to the final name", std::strerror(error));
  }
  committed_ = true;
  forget_on_signal(signal_slot_);
}

} // namespace gf
