// checkpoint_file.h: the file a fix saves its state in, to be continued by the same command
// (docs/checkpoints.md). One file per rank: "<output>.checkpoint" on rank 0 (the only one of a
// one-rank run), "<output>.checkpoint.rank<r>" on rank r > 0, each holding the rank's slab;
// where <output>'s name is too long for the suffix (NAME_MAX), ".<16 hex digits>.checkpoint"
// in its folder, the digits the FNV-1a hash of the name (core/fnv1a.h).
// Text lines "key: value" first (the header, below), a line "---", then the state in binary
// (this machine's byte order): the Gribov copies done (their results, seeds, the best copy's
// field and g(x) in double), the schedule's position (ScheduleState) and the engine's arrays
// as the engine stores them (Engine::save_state: its precision, bitwise).
// The header holds, in order, what a run must match to continue from the file (the fields of
// checkpoint_header, app/checkpoint.h: gaugefix's version, the ranks, the lattice, the input
// and its digest, the options that decide the result), then "position": the copy and the
// iteration, which every rank's file must agree on.
// write_checkpoint writes under a temporary name, syncs and renames (io/temporary_file.h),
// the engine's bytes straight from Checkpoint::engine (no second copy in memory).
// read_checkpoint: nullopt where the file does not exist; a file of another run throws Error
// naming the file and the first field that differs, with both values; a damaged file throws
// naming the file.
#pragma once
#include "fix/schedule.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gf {

using CheckpointHeader = std::vector<std::pair<std::string, std::string>>;

// The Gribov copies (gribov_copies.h) before the one the checkpoint is in.
struct CheckpointCopies {
  int copy = 0;                       // the copy being fixed
  std::vector<FixResult> results;     // of the copies before it (without history rows)
  std::vector<std::uint64_t> seeds;   // of the copies before it
  int best = 0;                       // the best of them
  std::vector<double> best_links;     // its field, this rank's slab (HostField::data as reals)
  std::vector<double> best_transform; // its g(x), where tracked
  std::vector<std::string> written;   // files written for them (--keep-copies, --history)
};

struct Checkpoint {
  CheckpointCopies copies;
  ScheduleState schedule;
  std::vector<unsigned char> engine; // Engine::save_state
  std::string position() const;      // "copy <c>, iteration <i>"
};

std::string checkpoint_path(const std::string& output, int rank);

void write_checkpoint(const std::string& path, const CheckpointHeader& header, const Checkpoint& c);
std::optional<Checkpoint> read_checkpoint(const std::string& path,
                                          const CheckpointHeader& expected);

} // namespace gf
