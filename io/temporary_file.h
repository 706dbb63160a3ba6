// temporary_file.h: the temporary file an output is written to before it gets its final name.
// - Name: ".<name>.gaugefix-tmp.XXXXXX" in the directory of the final path "<dir>/<name>"
//   (a hashed <name> where that would be too long: temporary_name.h), XXXXXX six random
//   characters [A-Za-z0-9] (not predictable). Created exclusively
//   (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0666 less the umask), so nothing planted at that
//   name (a file, a symbolic link) is ever opened or followed.
// - Its creator holds an exclusive flock on it while the object lives. A file of that
//   pattern that nobody holds was left by a killed writer: the constructor removes such
//   stale files of the same final name (and only those) before creating its own, and
//   reports each on stderr. (On NFS, flock is emulated with byte-range locks.)
// - The path is registered with signal_cleanup.h (before the file is created), so SIGTERM,
//   SIGINT and SIGHUP remove it.
// - commit(): closes the file (the caller has synced it), checks that the final path is still
//   absent or a regular file and renames the temporary file to it. The destructor without a
//   successful commit removes the temporary file. Failures throw gf::Error naming the final
//   file and the step.
#pragma once
#include <string>

namespace gf {

class TemporaryFile {
public:
  explicit TemporaryFile(const std::string& final_path);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  int fd() const { return fd_; } // open for writing until commit() or destruction
  const std::string& path() const { return path_; }
  void commit();

private:
  std::string final_path_;
  std::string path_;
  int fd_ = -1;
  int signal_slot_ = -1;
  bool committed_ = false;
};

// Removes the stale temporary files of `final_path` (those no live writer holds), as the
// constructor does: for an output a run may have been writing when it was killed and will not
// write now (a batch restarted, app/batch_run.h).
void remove_stale_temporaries(const std::string& final_path);

} // namespace gf
