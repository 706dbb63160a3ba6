#include "io/file_lock.h"
#include "core/error.h"
#include "io/path_checks.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gf {

namespace {

// Whether `fd` is still the file `path` names (the holder before us may have removed it).
bool still_named(int fd, const std::string& path) {
  struct stat open_file {}, named {};
  return ::fstat(fd, &open_file) == 0 && ::lstat(path.c_str(), &named) == 0 &&
         open_file.st_dev == named.st_dev && open_file.st_ino == named.st_ino;
}

} // namespace

FileLock::FileLock(const std::string& path, const std::string& purpose) : path_(path) {
  check_replaceable("lock file", path);
  for (;;) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd_ < 0)
      throw Error("lock file '" + path + "' (" + purpose + "): cannot open: " +
                  std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
      if (still_named(fd_, path)) return;
      ::close(fd_); // locked a file its holder removed at its end: lock the one named now
      continue;
    }
    const int err = errno;
    ::close(fd_);
    if (err == EWOULDBLOCK)
      throw Error("lock file '" + path + "' is held by another process: " + purpose +
                  " is already running; wait for it to finish");
    throw Error("lock file '" + path + "' (" + purpose + "): cannot lock: " + std::strerror(err));
  }
}

FileLock::~FileLock() {
  ::unlink(path_.c_str()); // still locked: whoever opened it before sees that it is gone
  ::close(fd_);
}

} // namespace gf
