#include "app/checkpoint_file.h"
#include "core/error.h"
#include "core/fnv1a.h"
#include "io/temporary_file.h"
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <type_traits>
#include <unistd.h>

namespace gf {

namespace {

constexpr char separator[] = "---";

class Out {
public:
  explicit Out(std::string& bytes) : b_(bytes) {}
  template <class T>
  void put(T v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&v);
    b_.append(p, sizeof v);
  }
  void put(const std::string& s) {
    put<std::uint64_t>(s.size());
    b_.append(s);
  }
  template <class T>
  void put(const std::vector<T>& v) {
    put<std::uint64_t>(v.size());
    b_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }

private:
  std::string& b_;
};

class In {
public:
  In(const std::string& bytes, std::size_t at, const std::string& path)
      : b_(bytes), at_(at), path_(path) {}
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, take(sizeof v), sizeof v);
    return v;
  }
  std::string get_string() {
    const auto n = get<std::uint64_t>();
    return std::string(take(n), n);
  }
  template <class T>
  std::vector<T> get_vector() {
    const auto n = get<std::uint64_t>();
    if (n > b_.size()) damaged();
    std::vector<T> v(n);
    std::memcpy(v.data(), take(n * sizeof(T)), n * sizeof(T));
    return v;
  }
  bool at_end() const { return at_ == b_.size(); }
  [[noreturn]] void damaged() const {
    throw Error("checkpoint '" + path_ +
                "': damaged (its state ends early or has extra bytes); "
                "remove it to start the fix afresh");
  }

private:
  const char* take(std::size_t n) {
    if (n > b_.size() - at_) damaged();
    const char* p = b_.data() + at_;
    at_ += n;
    return p;
  }
  const std::string& b_;
  std::size_t at_;
  const std::string& path_;
};

void put_measurement(Out& o, const Measurement& m) {
  o.put(m.functional);
  o.put(m.theta);
  o.put(m.theta_max_slice);
  o.put(m.theta_per_slice);
  o.put(m.functional_per_slice);
}

Measurement get_measurement(In& in) {
  Measurement m;
  m.functional = in.get<double>();
  m.theta = in.get<double>();
  m.theta_max_slice = in.get<double>();
  m.theta_per_slice = in.get_vector<double>();
  m.functional_per_slice = in.get_vector<double>();
  return m;
}

void put_fourier(Out& o, const FourierCost& f) {
  o.put(std::int64_t(f.gradients));
  o.put(f.precondition_seconds);
  o.put(f.transpose_seconds);
  o.put(f.transpose_path);
}

FourierCost get_fourier(In& in) {
  FourierCost f;
  f.gradients = in.get<std::int64_t>();
  f.precondition_seconds = in.get<double>();
  f.transpose_seconds = in.get<double>();
  f.transpose_path = in.get_string();
  return f;
}

void put_history(Out& o, const std::vector<HistoryRow>& rows) {
  o.put<std::uint64_t>(rows.size());
  for (const HistoryRow& r : rows) {
    o.put(std::int64_t(r.iteration));
    o.put(r.phase);
    for (double v : {r.temperature, r.functional, r.theta, r.theta_max_slice, r.links.det_mean,
                     r.links.det_max, r.links.unitary_max, r.seconds})
      o.put(v);
  }
}

std::vector<HistoryRow> get_history_rows(In& in, std::uint64_t n) {
  std::vector<HistoryRow> rows;
  for (std::uint64_t k = 0; k < n; ++k) {
    HistoryRow r;
    r.iteration = in.get<std::int64_t>();
    r.phase = in.get_string();
    for (double* v : {&r.temperature, &r.functional, &r.theta, &r.theta_max_slice,
                      &r.links.det_mean, &r.links.det_max, &r.links.unitary_max, &r.seconds})
      *v = in.get<double>();
    rows.push_back(std::move(r));
  }
  return rows;
}

void put_result(Out& o, const FixResult& r) {
  o.put<std::uint8_t>(r.converged);
  o.put(std::int64_t(r.iterations));
  put_measurement(o, r.final);
  o.put(r.seconds);
  put_fourier(o, r.fourier);
}

FixResult get_result(In& in) {
  FixResult r;
  r.converged = in.get<std::uint8_t>() != 0;
  r.iterations = in.get<std::int64_t>();
  r.final = get_measurement(in);
  r.seconds = in.get<double>();
  r.fourier = get_fourier(in);
  return r;
}

std::string body(const Checkpoint& c) {
  std::string b;
  Out o(b);
  const CheckpointCopies& k = c.copies;
  o.put(std::int32_t(k.copy));
  o.put<std::uint64_t>(k.results.size());
  for (const FixResult& r : k.results)
    put_result(o, r);
  o.put(k.seeds);
  o.put(std::int32_t(k.best));
  o.put(k.best_links);
  o.put(k.best_transform);
  o.put<std::uint64_t>(k.written.size());
  for (const std::string& w : k.written)
    o.put(w);
  const ScheduleState& s = c.schedule;
  o.put(std::int32_t(s.phase));
  o.put(std::int64_t(s.done));
  o.put(std::int64_t(s.iteration));
  o.put(s.seconds);
  put_fourier(o, s.fourier);
  o.put(s.descent.step);
  o.put(s.descent.gz_prev);
  o.put(s.descent.recent);
  put_history(o, s.history);
  o.put<std::uint64_t>(c.engine.size()); // the engine's bytes follow (write_checkpoint)
  return b;
}

// Writes all n bytes to fd, else throws naming the checkpoint.
void write_all(int fd, const void* data, std::size_t n, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      throw Error("checkpoint '" + path + "': cannot be written (" + std::strerror(errno) + ")");
    p += w;
    n -= std::size_t(w);
  }
}

Checkpoint parse_body(In& in) {
  Checkpoint c;
  CheckpointCopies& k = c.copies;
  k.copy = in.get<std::int32_t>();
  const auto results = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < results; ++i)
    k.results.push_back(get_result(in));
  k.seeds = in.get_vector<std::uint64_t>();
  k.best = in.get<std::int32_t>();
  k.best_links = in.get_vector<double>();
  k.best_transform = in.get_vector<double>();
  const auto written = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < written; ++i)
    k.written.push_back(in.get_string());
  ScheduleState& s = c.schedule;
  s.phase = in.get<std::int32_t>();
  s.done = in.get<std::int64_t>();
  s.iteration = in.get<std::int64_t>();
  s.seconds = in.get<double>();
  s.fourier = get_fourier(in);
  s.descent.step = in.get<double>();
  s.descent.gz_prev = in.get<double>();
  s.descent.recent = in.get_vector<double>();
  s.history = get_history_rows(in, in.get<std::uint64_t>());
  c.engine = in.get_vector<unsigned char>();
  if (!in.at_end()) in.damaged();
  return c;
}

} // namespace

std::string Checkpoint::position() const {
  return "copy " + std::to_string(copies.copy) + ", iteration " +
         std::to_string(schedule.iteration);
}

std::string checkpoint_path(const std::string& output, int rank) {
  const std::string suffix = ".checkpoint" + (rank > 0 ? ".rank" + std::to_string(rank) : "");
  const std::filesystem::path p(output);
  const std::string name = p.filename().string();
  const std::filesystem::path dir = p.parent_path().empty() ? "." : p.parent_path();
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (name.size() + suffix.size() <= std::size_t(name_max > 0 ? name_max : NAME_MAX))
    return output + suffix;
  char hex[17]; // a name too long for the suffix: its hash (as for temporary names)
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(name)));
  std::string hashed = "."; // appended, not `"." + ...`: GCC 12 warns falsely (-Wrestrict)
  hashed += hex;
  hashed += suffix;
  return (p.parent_path() / hashed).string();
}

void write_checkpoint(const std::string& path, const CheckpointHeader& header,
                      const Checkpoint& c) {
  std::string head;
  for (const auto& [key, value] : header)
    head += key + ": " + value + '\n';
  head += "position: " + c.position() + '\n' + separator + '\n' + body(c);
  TemporaryFile file(path); // the engine's bytes are written from where they are, not copied
  write_all(file.fd(), head.data(), head.size(), path);
  write_all(file.fd(), c.engine.data(), c.engine.size(), path);
  if (::fsync(file.fd()) != 0)
    throw Error("checkpoint '" + path + "': cannot be synced (" + std::strerror(errno) + ")");
  file.commit();
}

std::optional<Checkpoint> read_checkpoint(const std::string& path,
                                          const CheckpointHeader& expected) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw Error("checkpoint '" + path + "': cannot be read");
  std::size_t at = 0;
  const auto line = [&]() -> std::string {
    const std::size_t end = bytes.find('\n', at);
    if (end == std::string::npos)
      throw Error("checkpoint '" + path + "': not a gaugefix checkpoint (no end of its header)");
    std::string l = bytes.substr(at, end - at);
    at = end + 1;
    return l;
  };
  for (const auto& [key, value] : expected) {
    const std::string l = line();
    const std::string prefix = key + ": ";
    if (l.compare(0, prefix.size(), prefix) != 0)
      throw Error("checkpoint '" + path + "': not a checkpoint of this gaugefix (expected '" + key +
                  "' in its header, found '" + l.substr(0, 60) + "'); remove it to start afresh");
    const std::string saved = l.substr(prefix.size());
    if (saved != value)
      throw Error("checkpoint '" + path + "' belongs to another run: its " + key + " is '" + saved +
                  "', this run's is '" + value +
                  "'; run the command that wrote it, or remove it to start afresh");
  }
  const std::string position = line();
  // an option this run does not give (one recorded only where given, e.g.
  // preconditioner-precision)
  if (position.rfind("position: ", 0) != 0 && position.find(": ") != std::string::npos)
    throw Error("checkpoint '" + path + "' belongs to another run: its header has '" +
                position.substr(0, 60) +
                "', which this run's has not; run the command that wrote it, or remove it to "
                "start afresh");
  if (position.rfind("position: ", 0) != 0 || line() != separator)
    throw Error("checkpoint '" + path +
                "': damaged header (no position); remove it to start "
                "afresh");
  In in(bytes, at, path);
  Checkpoint c = parse_body(in);
  if ("position: " + c.position() != position) in.damaged();
  return c;
}

} // namespace gf
