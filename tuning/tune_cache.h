// tune_cache.h: the persistent cache of tuned launch parameters, one TSV file per device
// (format in tune_cache_format.h and docs/tuning.md):
//   <directory>/tunecache-<DeviceIdentity::file_tag()>.tsv
// tune_cache_directory(): $GAUGEFIX_TUNE_CACHE if set, else $XDG_CACHE_HOME/gaugefix, else
// $HOME/.cache/gaugefix ("" when none of them is set: no file, results in memory only).
//
// TuneCache reads the file on construction. A file that is corrupt, truncated, of another
// format version, program version or build, or for another device gives one warning and is
// treated as empty (save() then replaces it). find() sees the file's entries and those put()
// in this process. save() merges under an exclusive lock (flock of "<file>.lock"): it rereads
// the file, keeps its entries, overrides them by ours on the same key, writes everything to
// a temporary file created exclusively (mkstemp) in the same directory, fsyncs it and renames
// it over the file. So concurrent processes (a SLURM array) all keep their results, and a
// reader sees either the old or the new file. A directory that cannot be created or written
// gives one warning; results then stay in memory for the life of the object.
// Nothing here throws for file-system problems or bad file content: warnings go to the
// stream given (nullptr: none), each starting with "gaugefix: warning: tune cache".
#pragma once
#include "tuning/tune_cache_format.h"
#include <iosfwd>
#include <string>

namespace gf {

std::string tune_cache_directory();

class TuneCache {
public:
  TuneCache(const std::string& directory, TuneContext context, std::ostream* warnings);

  const std::string& path() const { return path_; } // "" without a directory
  const TuneContext& context() const { return context_; }
  const TuneEntry* find(const TuneKey& key) const;
  void put(const TuneKey& key, const TuneEntry& entry); // gf::Error for a bad key
  void save();

private:
  void warn(const std::string& message);
  // Merges and writes under the lock; returns the reason of a failure, or "".
  std::string merge_and_write();

  std::string path_;
  TuneContext context_;
  std::ostream* warnings_;
  TuneEntries loaded_; // the file's entries, as last read
  TuneEntries ours_;   // put() by this process
  bool writable_ = true;
};

} // namespace gf
