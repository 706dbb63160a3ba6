// output_pattern.h: the names of one configuration's outputs in a batch, from the patterns of
// --output, --transform-output and --summary:
//   {stem}   the input's file name without directory and last extension (cfg.0010 -> cfg)
//   {name}   the input's file name without directory (cfg.0010)
//   {index}  the input's 0-based position in the input list
//   {seq}    the sequence number the input's header states (io/gauge_file.h,
//            read_sequence_number); an input without one is an error naming the file
//   {copy}   the Gribov copy (0, 1, ...; --history only, which writes one file per copy)
// Any other "{...}" (or a lone "{" or "}") is an error naming the option. A pattern without
// any of them names one file for every input.
// copy_path inserts ".copy<c>" before the last extension of the file name (fixed.nersc ->
// fixed.copy2.nersc; no extension: appended): the name of Gribov copy c (--keep-copies).
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace gf {

struct PatternInput {
  std::string path;                  // the input as listed
  std::size_t index = 0;             // its position in the list
  std::optional<long long> sequence; // from its header, where read
  std::optional<int> copy;           // the Gribov copy, where the pattern may name it
};

// Throws gf::Error naming `option` for an unknown or unclosed {...}.
void check_pattern(const std::string& option, const std::string& pattern);
bool has_pattern(const std::string& pattern);
bool uses_sequence(const std::string& pattern);
bool uses_copy(const std::string& pattern);
// The pattern with every {...} replaced for `in` (check_pattern first); {copy} without
// in.copy is an error naming the option.
std::string expand_pattern(const std::string& option, const std::string& pattern,
                           const PatternInput& in);
std::string copy_path(const std::string& path, int copy);

} // namespace gf
