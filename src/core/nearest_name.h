// nearest_name.h: of `candidates`, the one closest to `word` in edit distance (Levenshtein:
// insertions, deletions, substitutions), where it is near enough to be a typo (at most 2 edits
// and fewer than half of word's characters); empty otherwise. For "did you mean" hints.
#pragma once
#include <string>
#include <vector>

namespace gf {

std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates);

} // namespace gf
