// history_file.h: the convergence history of one copy of one configuration (gaugefix fix
// --history) as CSV: a header line, then one row per check (fix/schedule.h HistoryRow), the
// last (phase "final") the result the summary states. The columns are in docs/history.md.
// Written under a temporary name and renamed when complete (io/atomic_file.h); throws Error
// naming the file on failure.
#pragma once
#include "fix/schedule.h"
#include <string>
#include <vector>

namespace gf {

// The header line, without its newline.
extern const char history_columns[];

void write_history(const std::string& path, const std::vector<HistoryRow>& rows);

} // namespace gf
