#include "io/atomic_file.h"
#include "core/error.h"
#include "io/temporary_file.h"
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace gf {

AtomicFile::AtomicFile(const std::string& path) : path_(path) {}

void AtomicFile::commit() {
  const auto fail = [&](const std::string& why) {
    throw Error("output file '" + path_ + "': " + why);
  };
  if (committed_) fail("commit: the file was already committed");
  if (!out_) fail("the content could not be formatted (stream error)");
  const std::string content = out_.str();
  TemporaryFile tmp(path_);
  for (std::size_t done = 0; done < content.size();) {
    const ssize_t n = ::write(tmp.fd(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      fail("write to the temporary file '" + tmp.path() +
           "' failed: " + (n < 0 ? std::strerror(errno) : "no progress"));
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(tmp.fd()) != 0)
    fail("fsync of the temporary file '" + tmp.path() + "' failed: " + std::strerror(errno));
  tmp.commit();
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile file(path);
  write(file.stream());
  file.commit();
}

} // namespace gf
