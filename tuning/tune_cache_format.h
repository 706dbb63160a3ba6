// tune_cache_format.h: the text of a tune cache file (docs/tuning.md shows an example).
// A TSV file, every line ending in '\n', fields separated by one tab:
//   gaugefix-tunecache <tab> 1                           magic and format version
//   program <tab> VERSION <tab> BUILD_OPTIONS           TuneContext::version, build_options
//   device <tab> DeviceIdentity::to_string()
//   kernel aux extents region params seconds gb_per_s stream_fraction date   (column names)
//   one line per entry, in key order, with those nine fields
//   end <tab> N                                          N = the number of entry lines
// params is format_launch_params; seconds is per call; stream_fraction is "-" when unknown;
// date is UTC, e.g. 2026-11-22T04:56:19Z. The end line reveals a truncated file.
// parse_cache_text returns the entries, or sets *problem (one sentence: corrupt, truncated,
// another format version, program version, build or device) and returns nothing; it never
// throws.
#pragma once
#include "tuning/launch_params.h"
#include "tuning/tune_key.h"
#include <map>
#include <optional>
#include <string>

namespace gf {

struct TuneEntry {
  LaunchParams params;
  double seconds = 0; // per call
  double gb_per_s = 0;
  double stream_fraction = -1; // of the streaming bandwidth; < 0: unknown
  std::string date;            // UTC, ISO 8601

  bool operator==(const TuneEntry&) const = default;
};

using TuneEntries = std::map<TuneKey, TuneEntry>;

inline constexpr int tune_cache_format_version = 1;

std::string format_cache_text(const TuneContext& context, const TuneEntries& entries);
std::optional<TuneEntries> parse_cache_text(const std::string& text, const TuneContext& context,
                                            std::string* problem);
// The current time, e.g. "2026-11-22T04:56:19Z".
std::string utc_timestamp();

} // namespace gf
