// atomic_file.h: small output files (the YAML summary) that appear complete or not at all.
// - AtomicFile: the content is written to stream() (in memory); commit() creates a temporary
//   file beside the destination (temporary_file.h: exclusive, unpredictable name, removed on
//   SIGTERM/SIGINT/SIGHUP), writes the content, syncs it to disk and renames it over the final
//   name (each step checked). Without a successful commit() nothing is written.
// - write_file_atomically: the same for a writer callback; an exception from the callback
//   propagates and nothing is written.
// Invariant: the final name holds either its previous content or the complete new file, never
// a partial one, and only a regular file (or nothing) is ever replaced. Every failure throws
// gf::Error naming the file and the step that failed.
#pragma once
#include <functional>
#include <sstream>
#include <string>

namespace gf {

class AtomicFile {
public:
  explicit AtomicFile(const std::string& path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  // Writes the content to a temporary file, syncs it and renames it to the final name.
  void commit();

  const std::string& path() const { return path_; }

private:
  std::string path_;
  std::ostringstream out_;
  bool committed_ = false;
};

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

} // namespace gf
