// log.h: the log of every gaugefix program (headers, progress, results, warnings, errors);
// the one place that writes it. docs/logs.md describes the format.
// - Every line starts with the UTC time, "2026-11-23T14:10:38.123Z", and in a run of several
//   ranks with the rank, "r1/4"; warnings and errors carry "warning: " / "error: ".
// - Kinds of line and the verbosity that prints them: error, warning and result always;
//   info (run header, progress) unless quiet; debug only when verbose.
// - Where lines go: result, info and debug to stdout, warning and error to stderr; with a log
//   file (open_file) every printed line goes to the file instead, and warnings and errors to
//   stderr as well. Each line is written and flushed whole.
// - Which ranks write: rank 0 only (its lines speak for the run), except lines written with
//   every_rank (per-rank set-up under -v) and errors (World::abort_all: the run's one error
//   report, from whichever rank claims it). The log file is rank 0's (opened for appending);
//   an error line of another rank is appended to it too (and goes to that rank's stderr), so
//   that the file ends with the error that stopped the run. Other lines of other ranks go to
//   their own stdout.
// - A reader that goes away does not stop the run: the gaugefix program ignores SIGPIPE
//   (main.cpp), and the first failed write to stdout or stderr (EPIPE, a full device) ends
//   the log on that stream; the other stream and the log file go on. cut_streams() says
//   which streams were cut (the fix summary records it); finish_stdout decides the exit.
// Data a command prints for scripts (`info`'s descriptions, tune tables) is not log: it is
// written to stdout directly; finish_stdout checks that everything printed there arrived.
// Not thread-safe: call from the thread that runs MPI (the master thread).
#pragma once
#include <fmt/format.h>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace gf::log {

enum class Verbosity { quiet, normal, verbose };
enum class Kind { error, warning, result, info, debug };

// This process's rank and the number of ranks (MpiSession sets them).
void set_ranks(int rank, int ranks);
void set_verbosity(Verbosity v);
Verbosity verbosity();
// Writes the log to `path` from now on (created or truncated; check it with
// io/path_checks.h first); throws gf::Error naming the file when it cannot be opened.
// Every rank calls it: rank 0 creates the file, the others remember it for an error line.
// The caller makes sure that rank 0 has created it before another rank may append (a
// barrier: open_log in src/app/log_options.cpp).
void open_file(const std::string& path);
void close_file();

// Whether a line of this kind is printed on this rank.
bool enabled(Kind kind, bool every_rank = false);
// Writes `message` (each of its lines gets the time stamp) if enabled.
void write(Kind kind, std::string_view message, bool every_rank = false);
// The time stamp of a line written now, e.g. "2026-11-23T14:10:38.123Z".
std::string time_stamp();

template <class... A>
void error(fmt::format_string<A...> f, A&&... a) {
  write(Kind::error, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void warning(fmt::format_string<A...> f, A&&... a) {
  if (enabled(Kind::warning)) write(Kind::warning, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void result(fmt::format_string<A...> f, A&&... a) {
  if (enabled(Kind::result)) write(Kind::result, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void info(fmt::format_string<A...> f, A&&... a) {
  if (enabled(Kind::info)) write(Kind::info, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void debug(fmt::format_string<A...> f, A&&... a) {
  if (enabled(Kind::debug)) write(Kind::debug, fmt::format(f, std::forward<A>(a)...));
}
// A debug line that every rank writes (its own set-up).
template <class... A>
void debug_every_rank(fmt::format_string<A...> f, A&&... a) {
  if (enabled(Kind::debug, true)) write(Kind::debug, fmt::format(f, std::forward<A>(a)...), true);
}

// An std::ostream each of whose lines is written as a line of `kind` on rank 0 (for code that
// reports to a stream, e.g. the tuner and the tune cache); null where such lines are not
// printed, so that callers can skip composing them.
std::ostream* stream(Kind kind);

// "stdout" and/or "stderr": the streams whose log a failed write cut (empty: none).
std::vector<std::string> cut_streams();

// Flushes stdout; throws gf::Error when anything written to it (log or data) was lost to a
// write error, e.g. on a full device (>/dev/full). A reader that closed the pipe (EPIPE,
// `| head`) is not an error: it read what it wanted.
void finish_stdout();

} // namespace gf::log
