// file_lock.h: an exclusive lock that keeps two processes from writing one set of files.
// FileLock(path, purpose) opens or creates `path` (a regular file; O_NOFOLLOW) and takes an
// exclusive flock without waiting; the lock lasts as long as the object (and ends with the
// process, also when it is killed). The object's end removes the lock file while still holding
// it, so that a clean end leaves none behind (a killed process leaves it, unlocked, to be
// reused); a process that opened the file before and locks it afterwards finds that the path
// names another file or none, and locks the one named then: two holders never coexist.
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
  std::string path_;
  int fd_ = -1;
};

} // namespace gf
