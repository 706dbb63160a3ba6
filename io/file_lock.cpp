#include "io/file_lock.h"
#include "core/error.h"
#include "io/path_checks.h"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace gf {

FileLock::FileLock(const std::string& path, const std::string& purpose) {
  check_replaceable("lock file", path);
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd_ < 0)
    throw Error("lock file '" + path + "' (" + purpose + "): cannot open: " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
  const int err = errno;
  ::close(fd_);
  if (err == EWOULDBLOCK)
    throw Error("lock file '" + path + "' is held by another process: " + purpose +
                " is already running; wait for it to finish");
  throw Error("lock file '" + path + "' (" + purpose + "): cannot lock: " + std::strerror(err));
}

FileLock::~FileLock() {
  ::close(fd_);
}

} // namespace gf
