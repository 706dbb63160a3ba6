#include "tuning/tune_cache.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <ostream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace gf {

namespace fs = std::filesystem;

namespace {

std::string environment(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

struct FileText {
  bool exists = false;
  std::string text;
  std::string error; // why an existing file could not be read
};

FileText read_text(const std::string& path) {
  FileText f;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    f.exists = errno != ENOENT && errno != ENOTDIR; // ENOTDIR: the folder is a file
    if (f.exists) f.error = std::strerror(errno);
    return f;
  }
  f.exists = true;
  char buf[65536];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      f.error = std::strerror(errno);
      break;
    }
    f.text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return f;
}

bool write_all(int fd, const std::string& s) {
  for (std::size_t done = 0; done < s.size();) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// An exclusive flock held for the object's life; error() says why it could not be taken.
class FileLock {
public:
  explicit FileLock(const std::string& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX) == 0) return;
    error_ = std::strerror(errno);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  const std::string& error() const { return error_; }

private:
  int fd_;
  std::string error_;
};

// Writes text to a fresh temporary file beside path, syncs it and renames it over path.
// Returns the reason of a failure, or "".
std::string replace_file(const std::string& path, const std::string& text) {
  const fs::path p(path);
  std::string name = p.parent_path().string() + "/.";
  name += p.filename().string() + ".XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return "cannot create a temporary file: " + std::string(std::strerror(errno));
  bool written = ::fchmod(fd, 0644) == 0 && write_all(fd, text) && ::fsync(fd) == 0;
  std::string why = written ? "" : std::strerror(errno);
  if (::close(fd) != 0 && written) {
    written = false;
    why = std::strerror(errno);
  }
  if (!written) {
    ::unlink(name.c_str());
    return "writing the temporary file '" + name + "' failed: " + why;
  }
  if (::rename(name.c_str(), path.c_str()) != 0) {
    const std::string rename_why = std::strerror(errno);
    ::unlink(name.c_str());
    return "renaming the temporary file failed: " + rename_why;
  }
  const int dir = ::open(p.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return "";
}

} // namespace

std::string tune_cache_directory() {
  if (const std::string d = environment("GAUGEFIX_TUNE_CACHE"); !d.empty()) return d;
  if (const std::string d = environment("XDG_CACHE_HOME"); !d.empty()) return d + "/gaugefix";
  if (const std::string d = environment("HOME"); !d.empty()) return d + "/.cache/gaugefix";
  return "";
}

TuneCache::TuneCache(const std::string& directory, TuneContext context, std::ostream* warnings)
    : context_(std::move(context)), warnings_(warnings) {
  if (directory.empty()) {
    warn("no cache directory (set GAUGEFIX_TUNE_CACHE); tuning results are kept in memory only");
    writable_ = false;
    return;
  }
  path_ = (fs::path(directory) / ("tunecache-" + context_.device.file_tag() + ".tsv")).string();
  const FileText f = read_text(path_);
  std::string problem = f.error;
  if (f.exists && problem.empty())
    if (auto entries = parse_cache_text(f.text, context_, &problem)) loaded_ = std::move(*entries);
  if (!problem.empty())
    warn("'" + path_ + "': " + problem + "; ignored (replaced on the next save)");
}

const TuneEntry* TuneCache::find(const TuneKey& key) const {
  if (const auto it = ours_.find(key); it != ours_.end()) return &it->second;
  if (const auto it = loaded_.find(key); it != loaded_.end()) return &it->second;
  return nullptr;
}

void TuneCache::put(const TuneKey& key, const TuneEntry& entry) {
  check_tune_key(key);
  ours_[key] = entry;
}

void TuneCache::save() {
  if (!writable_ || ours_.empty()) return;
  if (const std::string why = merge_and_write(); !why.empty()) {
    warn("cannot write '" + path_ + "': " + why + "; tuning results are kept in memory only");
    writable_ = false;
  }
}

std::string TuneCache::merge_and_write() {
  std::error_code ec;
  fs::create_directories(fs::path(path_).parent_path(), ec);
  if (ec) return "cannot create its directory: " + ec.message();
  const FileLock lock(path_ + ".lock");
  if (!lock.error().empty()) return "cannot lock '" + path_ + ".lock': " + lock.error();
  const FileText f = read_text(path_);
  if (!f.error.empty()) return "cannot read it back: " + f.error;
  TuneEntries merged;
  if (f.exists)
    if (auto entries = parse_cache_text(f.text, context_, nullptr)) merged = std::move(*entries);
  for (const auto& [key, entry] : ours_)
    merged[key] = entry;
  if (std::string why = replace_file(path_, format_cache_text(context_, merged)); !why.empty())
    return why;
  loaded_ = std::move(merged);
  return "";
}

void TuneCache::warn(const std::string& message) {
  if (warnings_) *warnings_ << "tune cache " << message << "\n";
}

} // namespace gf
