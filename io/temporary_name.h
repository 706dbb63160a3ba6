// temporary_name.h: the name of the temporary file an output "<dir>/<name>" is written under
// before it gets its final name (temporary_file.h).
// - ".<name>.gaugefix-tmp.XXXXXX", XXXXXX temporary_suffix_length random characters, where
//   that fits the directory's limit on a file name (NAME_MAX, 255 on most file systems);
//   for a longer <name> ".<16 hex digits>.gaugefix-tmp.XXXXXX", the digits a hash (64-bit
//   FNV-1a) of <name>. So every legal final name has a temporary name in the same directory,
//   every temporary name contains ".gaugefix-tmp.", and the prefix (all but XXXXXX) belongs
//   to one final name.
// - check_name_lengths(what, final_path): the final name fits NAME_MAX and its temporary
//   path fits PATH_MAX; a gf::Error starting with `what` (an option name) otherwise. A
//   start-up check (path_checks.h), so that no run fails on a name after its computation.
#pragma once
#include <cstddef>
#include <string>

namespace gf {

constexpr std::size_t temporary_suffix_length = 6;

// The temporary name of `final_path` without its random suffix, e.g. ".out.gaugefix-tmp.".
std::string temporary_name_prefix(const std::string& final_path);

void check_name_lengths(const std::string& what, const std::string& final_path);

} // namespace gf
