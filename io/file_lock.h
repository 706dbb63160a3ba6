// file_lock.h: an exclusive lock that keeps two processes from writing one set of files.
// FileLock(path, purpose) opens or creates `path` (a regular file; O_NOFOLLOW) and takes an
// exclusive flock without waiting; the lock lasts as long as the object (and ends with the
// process, also when it is killed). The lock file is left in place: removing it would let a
// third process lock a new file while the second still holds the old one.
// Throws gf::Error naming the lock file and `purpose` when another process holds the lock,
// or when the file cannot be created or is not a regular file.
#pragma once
#include <string>

namespace gf {

class FileLock {
public:
  FileLock(const std::string& path, const std::string& purpose);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

private:
  int fd_ = -1;
};

} // namespace gf
