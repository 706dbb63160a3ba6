// input_list.h: the configurations a `gaugefix fix` run reads, in order.
// - --input values, in the order given; a value holding *, ? or [ that names no existing file
//   is a glob pattern, expanded by glob(3) and sorted (byte order); a pattern that matches
//   nothing is an error naming it.
// - or --input-list FILE: one path per line, taken literally (no globs); leading and trailing
//   white space and a trailing CR are removed, blank lines and lines starting with '#' are
//   skipped, and the last line counts without a final newline.
// Every input must exist and be a regular file (after following links), and no file may be
// listed twice (the same device and inode: a hard or symbolic link counts as the same file).
// Failures throw gf::Error naming the option, the list file and line, or the input.
#pragma once
#include <string>
#include <vector>

namespace gf {

std::vector<std::string> resolve_inputs(const std::vector<std::string>& input,
                                        const std::string& input_list);

} // namespace gf
