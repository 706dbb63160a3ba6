#include "core/log.h"
#include "core/error.h"
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <ostream>
#include <poll.h>
#include <streambuf>
#include <unistd.h>

namespace gf::log {

namespace {

struct State {
  int rank = 0, ranks = 1;
  Verbosity verbosity = Verbosity::normal;
  std::FILE* file = nullptr;
  std::string file_path;
  int stdout_error = 0, stderr_error = 0; // errno of the write that cut the log there
};

State& state() {
  static State s;
  return s;
}

const char* tag(Kind kind) {
  switch (kind) {
  case Kind::error:
    return "error: ";
  case Kind::warning:
    return "warning: ";
  default:
    return "";
  }
}

bool to_stderr(Kind kind) {
  return kind == Kind::error || kind == Kind::warning;
}

// Writes text to stdout or stderr unless an earlier write there failed; a failed write
// (EPIPE: the reader went away; a full device) stops the log on that stream.
void put(std::FILE* terminal, const std::string& text) {
  int& error = terminal == stdout ? state().stdout_error : state().stderr_error;
  if (error) return;
  errno = 0;
  if (std::fputs(text.c_str(), terminal) < 0 || std::fflush(terminal) != 0)
    error = errno ? errno : EIO;
}

// Whether fd is a pipe or socket whose reader has gone (poll reports an error or hang-up).
bool reader_gone(int fd) {
  pollfd p{fd, POLLOUT, 0};
  return ::poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}

} // namespace

void set_ranks(int rank, int ranks) {
  state().rank = rank;
  state().ranks = ranks;
}

void set_verbosity(Verbosity v) {
  state().verbosity = v;
}
Verbosity verbosity() {
  return state().verbosity;
}

void open_file(const std::string& path) {
  close_file();
  State& s = state();
  s.file_path = path;
  if (s.rank != 0) return; // rank 0 writes the file; another rank appends its error only
  // appending: a line another rank appends (its error) is never overwritten
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
  std::FILE* f = fd >= 0 ? ::fdopen(fd, "a") : nullptr;
  if (!f) {
    const int e = errno;
    if (fd >= 0) ::close(fd);
    s.file_path.clear();
    throw Error(
        fmt::format("--log-file '{}': cannot be opened for writing: {}", path, std::strerror(e)));
  }
  s.file = f;
}

void close_file() {
  State& s = state();
  s.file_path.clear();
  if (!s.file) return;
  std::fclose(s.file);
  s.file = nullptr;
}

bool enabled(Kind kind, bool every_rank) {
  const State& s = state();
  if (s.rank != 0 && !every_rank && kind != Kind::error) return false;
  switch (kind) {
  case Kind::error:
  case Kind::warning:
  case Kind::result:
    return true;
  case Kind::info:
    return s.verbosity != Verbosity::quiet;
  case Kind::debug:
    return s.verbosity == Verbosity::verbose;
  }
  return false;
}

std::string time_stamp() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const std::time_t t = system_clock::to_time_t(now);
  const auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&t, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900,
                     utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, ms);
}

void write(Kind kind, std::string_view message, bool every_rank) {
  if (!enabled(kind, every_rank)) return;
  const State& s = state();
  const std::string prefix =
      time_stamp() + (s.ranks > 1 ? fmt::format(" r{}/{}", s.rank, s.ranks) : "") + " " + tag(kind);
  std::string text;
  for (std::size_t at = 0; at <= message.size();) {
    std::size_t end = message.find('\n', at);
    if (end == std::string_view::npos) end = message.size();
    if (end == message.size() && at == end && at > 0) break; // a trailing newline
    text += prefix;
    text += message.substr(at, end - at);
    text += '\n';
    at = end + 1;
  }
  // The file of this rank (rank 0), else the terminal streams; warnings and errors always
  // reach stderr.
  std::FILE* terminal = to_stderr(kind) ? stderr : stdout;
  if (kind == Kind::error && !s.file && !s.file_path.empty()) {
    // an error of a rank other than 0 (World::abort_all: the run's one report) goes into the
    // log file as well, appended whole with one write
    const int fd = ::open(s.file_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) {
      [[maybe_unused]] const ssize_t n = ::write(fd, text.data(), text.size());
      ::close(fd);
    }
  }
  if (s.file) {
    std::fputs(text.c_str(), s.file);
    std::fflush(s.file);
    if (!to_stderr(kind)) return;
  }
  put(terminal, text);
}

namespace {

// Collects characters up to a newline, then writes them as one line.
class LineBuffer : public std::streambuf {
public:
  explicit LineBuffer(Kind kind) : kind_(kind) {}

protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    if (c == '\n') {
      write(kind_, line_);
      line_.clear();
    } else {
      line_ += static_cast<char>(c);
    }
    return c;
  }

private:
  Kind kind_;
  std::string line_;
};

} // namespace

std::ostream* stream(Kind kind) {
  if (!enabled(kind)) return nullptr;
  static LineBuffer buffers[] = {LineBuffer(Kind::error), LineBuffer(Kind::warning),
                                 LineBuffer(Kind::result), LineBuffer(Kind::info),
                                 LineBuffer(Kind::debug)};
  static std::ostream streams[] = {std::ostream(&buffers[0]), std::ostream(&buffers[1]),
                                   std::ostream(&buffers[2]), std::ostream(&buffers[3]),
                                   std::ostream(&buffers[4])};
  return &streams[static_cast<int>(kind)];
}

std::vector<std::string> cut_streams() {
  std::vector<std::string> cut;
  if (state().stdout_error) cut.push_back("stdout");
  if (state().stderr_error) cut.push_back("stderr");
  return cut;
}

void finish_stdout() {
  int& error = state().stdout_error;
  errno = 0;
  // (the errno of a failed write of data through std::cout is gone by now: ask the pipe)
  if (!error && (std::fflush(stdout) != 0 || std::ferror(stdout)))
    error = reader_gone(STDOUT_FILENO) ? EPIPE : errno ? errno : EIO;
  if (error && error != EPIPE) // EPIPE: the reader closed the pipe, having read what it wanted
    throw Error(fmt::format("writing to standard output failed: {}", std::strerror(error)));
  if (state().file && (std::fflush(state().file) != 0 || std::ferror(state().file)))
    throw Error(fmt::format("--log-file '{}': writing failed", state().file_path));
}

} // namespace gf::log
