// atomic_file.h: output files that appear complete or not at all.
// - check_output_path: refuses an output path that is one of the inputs (the same path after
//   resolving ".", ".." and symbolic links, or the same file through a hard link), so that a
//   run never overwrites the file it reads.
// - AtomicFile: writes into a temporary file ".<name>.tmp.<pid>" in the destination's folder;
//   commit() flushes and closes it, syncs it to disk (each step checked) and only then renames
//   it over the final name. If commit() is not reached or fails, the temporary file is removed.
// - write_file_atomically: the same for a writer callback; an exception from the callback
//   propagates after the temporary file is removed.
// Invariant: the final name holds either its previous content or the complete new file, never
// a partial one. Every failure throws gf::Error naming the file and the step that failed.
#pragma once
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace gf {

void check_output_path(const std::string& output, const std::vector<std::string>& inputs);

class AtomicFile {
public:
  // Creates the temporary file beside `path` (binary mode).
  explicit AtomicFile(const std::string& path);
  // Removes the temporary file unless commit() succeeded; never throws.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  // Flushes, closes, syncs and renames the temporary file to the final name.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return tmp_path_; }

private:
  std::string path_;
  std::string tmp_path_;
  std::ofstream out_;
  bool committed_ = false;
};

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

} // namespace gf
