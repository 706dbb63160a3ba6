#include "io/signal_cleanup.h"
#include "core/error.h"
#include <algorithm>
#include <atomic>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace gf {

namespace {

constexpr int slot_count = 64;
constexpr int signals[] = {SIGTERM, SIGINT, SIGHUP};

enum SlotState : int { free_slot = 0, claimed = 1, armed = 2 };

struct Slot {
  std::atomic<int> state{free_slot};
  char path[PATH_MAX] = {};
};

Slot slots[slot_count];
// Set by a handler that removed the files and goes on to end the process by the default action.
std::atomic<bool> ending_by_signal{false};
struct sigaction previous[sizeof signals / sizeof signals[0]];
std::atomic<bool> holding{false};
std::atomic<int> pending{0}; // a signal that came while held
// set_signal_note's text: written into the buffer not published, then published.
constexpr std::size_t note_capacity = 8192;
char notes[2][note_capacity];
std::atomic<std::size_t> note_length[2] = {0, 0};
std::atomic<int> published_note{0};

int signal_index(int sig) {
  for (std::size_t i = 0; i < sizeof signals / sizeof signals[0]; ++i)
    if (signals[i] == sig) return static_cast<int>(i);
  return -1;
}

// Only async-signal-safe calls: atomic loads, unlink, write, sigaction, raise.
extern "C" void remove_and_resignal(int sig, siginfo_t* info, void* context) {
  if (holding.load()) {
    pending.store(sig);
    return;
  }
  const int i = signal_index(sig);
  const struct sigaction& old = previous[i];
  const bool to_default =
      !(old.sa_flags & SA_SIGINFO) && (old.sa_handler == SIG_DFL || old.sa_handler == SIG_IGN);
  if (to_default) ending_by_signal.store(true); // before the files go (wait_if_ending_by_signal)
  for (Slot& s : slots)
    if (s.state.load(std::memory_order_acquire) == armed) ::unlink(s.path);
  const int note = published_note.load(std::memory_order_acquire);
  if (const std::size_t n = note_length[note].load(std::memory_order_acquire); n > 0) {
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, notes[note], n);
  }
  if (old.sa_flags & SA_SIGINFO) {
    if (old.sa_sigaction) old.sa_sigaction(sig, info, context);
    return;
  }
  if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(sig);
    return;
  }
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig); // delivered with the default action when this handler returns
}

void install_handlers() {
  for (std::size_t i = 0; i < sizeof signals / sizeof signals[0]; ++i) {
    ::sigaction(signals[i], nullptr, &previous[i]);
    if (!(previous[i].sa_flags & SA_SIGINFO) && previous[i].sa_handler == SIG_IGN) continue;
    struct sigaction sa = {};
    sa.sa_sigaction = remove_and_resignal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int s : signals)
      sigaddset(&sa.sa_mask, s); // one cleanup at a time
    ::sigaction(signals[i], &sa, nullptr);
  }
}

void ensure_handlers() {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
}

} // namespace

void set_signal_note(const std::string& text) {
  ensure_handlers();
  const int next = 1 - published_note.load(std::memory_order_relaxed);
  std::size_t n = std::min(text.size(), note_capacity - 1);
  std::memcpy(notes[next], text.data(), n);
  if (n > 0 && notes[next][n - 1] != '\n') notes[next][n++] = '\n';
  note_length[next].store(n, std::memory_order_release);
  published_note.store(next, std::memory_order_release);
}

int remove_on_signal(const std::string& path) {
  ensure_handlers();
  if (path.size() >= PATH_MAX) throw Error("temporary file '" + path + "': path too long");
  for (int i = 0; i < slot_count; ++i) {
    int expected = free_slot;
    if (!slots[i].state.compare_exchange_strong(expected, claimed)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(armed, std::memory_order_release);
    return i;
  }
  throw Error("temporary file '" + path + "': more than " + std::to_string(slot_count) +
              " temporary files open at once");
}

void forget_on_signal(int slot) {
  if (slot >= 0 && slot < slot_count) slots[slot].state.store(free_slot, std::memory_order_release);
}

void wait_if_ending_by_signal() {
  if (!ending_by_signal.load()) return;
  for (;;)
    ::pause(); // the signal's default action, pending on the handler's thread, ends the process
}

void hold_signals() {
  ensure_handlers();
  holding.store(true);
}

void release_signals() {
  holding.store(false);
  if (const int sig = pending.exchange(0)) ::raise(sig); // the handler's course, now
}

bool signal_pending() {
  return pending.load() != 0;
}

bool holding_signals() {
  return holding.load();
}

void end_as_by_signal() {
  const int sig = pending.load();
  release_signals(); // ends the process by a pending signal (the default action)
  ::raise(sig ? sig : SIGTERM);
  std::_Exit(128 + (sig ? sig : SIGTERM)); // the signal was ignored or its handler returned
}

} // namespace gf
