// signal_cleanup.h: temporary files removed when the process is stopped by a signal.
// A scheduler ends a job at its time limit with SIGTERM (then SIGKILL); an interactive user
// with SIGINT; a closed terminal sends SIGHUP. For these three signals a handler removes
// every registered path (unlink, async-signal-safe) and then lets the signal take its
// previous course: a previously installed handler is called, otherwise the default action
// ends the process as killed by the signal. A signal that was ignored stays ignored.
// - remove_on_signal(path): registers a path (at most 64 at a time; more throws gf::Error);
//   installs the handlers on first use. Returns a slot for forget_on_signal.
// - forget_on_signal(slot): unregisters it (after the path was renamed or removed).
// - wait_if_ending_by_signal(): where a handler has begun removing the files and will end the
//   process by the signal's default action, waits for that end and never returns. The handler
//   may run on another thread (an OpenMP worker) while this one renames a file it just removed:
//   the failure must not be reported as an error (exit status 1 instead of the signal's).
// - hold_signals(): until release_signals(), these signals only set a flag that a loop reads
//   between its steps (signal_pending: a fix that saves a checkpoint, app/checkpoint.h); the
//   handler removes nothing and ends nothing (an atomic store: async-signal-safe). The
//   handlers are installed if they were not. release_signals(): the cleanup above again; a
//   signal that came while held is acted on now: the files removed and the process ended by it.
// - holding_signals(): whether the signals are held now.
// - end_as_by_signal(): ends the process as a held signal would have: by the pending signal,
//   else by SIGTERM (a stop asked for without a signal, --stop-after-iterations); never returns.
// SIGKILL cannot be caught: what it leaves is found by the next writer (temporary_file.h).
// - set_signal_note(text): a line the handler writes to standard error, after removing the
//   files, when one of the three signals ends the process (a batch: what finished and how to
//   go on); empty: none. Installs the handlers too. Not for several threads at once.
#pragma once
#include <string>

namespace gf {

int remove_on_signal(const std::string& path);
void forget_on_signal(int slot);
void wait_if_ending_by_signal();
void hold_signals();
void release_signals();
bool signal_pending();
bool holding_signals();
[[noreturn]] void end_as_by_signal();
void set_signal_note(const std::string& text);

} // namespace gf
