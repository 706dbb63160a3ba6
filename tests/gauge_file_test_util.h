// gauge_file_test_util.h: helpers of the gauge-file tests (test_ildg, test_milc,
// test_openqcd, test_gauge_file): temporary folders (one per rank, or one shared by all
// ranks), whole-file bytes, the sample files of tests/data, the field a 32-bit file
// reads back as, comparisons of fields, and the expectation that reading throws a gf::Error
// naming the file and the failed check while leaving the file unchanged; LIME files taken
// apart into records and put together again (to build malformed ones).
#pragma once
#include "comm/world.h"
#include "core/error.h"
#include "io/lime.h"
#include "lattice/host_field.h"
#include "observables/observables.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <iterator>
#include <string>
#include <unistd.h>

namespace gf::testing {

namespace fs = std::filesystem;

// The world of this process alone: single-rank tests read and write with it, so that they
// also hold when the test binary runs under mpirun.
inline World self_world() {
  return World(MPI_COMM_SELF);
}

// A fresh folder under the system temporary folder, removed with its content. With a world
// of several ranks, rank 0 creates it and every rank gets the same path (collective).
class TempDir {
public:
  explicit TempDir(const World& world = self_world()) : world_(world) {
    static int count = 0;
    std::string p;
    if (world_.rank() == 0) {
      p = (fs::temp_directory_path() /
           ("gaugefix_fmt_test_" + std::to_string(::getpid()) + "_" + std::to_string(count++)))
              .string();
      fs::remove_all(p);
      fs::create_directories(p);
    }
    world_.broadcast(p);
    path_ = p;
  }
  ~TempDir() {
    world_.barrier();
    std::error_code ec;
    if (world_.rank() == 0) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
  World world_;
  fs::path path_;
};

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// The path of a sample file of tests/data (tests/data/README.md says what each one is;
// test_data.cpp).
std::string sample_path(const std::string& name);

// var: the sample's path; the test fails at once where the file is missing.
#define GF_SAMPLE(var, name)                                                                       \
  const std::string var = ::gf::testing::sample_path(name);                                        \
  ASSERT_TRUE(std::filesystem::is_regular_file(var)) << "sample " << var << " is missing"

// What a 32-bit file holding u reads back as: every real rounded to float, then reunitarised.
inline HostField single_precision_image(HostField u) {
  for (Complex<double>& z : u.data)
    z = {double(float(z.re)), double(float(z.im))};
  reunitarize_all(u);
  return u;
}

inline bool bit_equal(const HostField& a, const HostField& b) {
  return a.nc == b.nc && a.ndir == b.ndir && a.geom.t0 == b.geom.t0 && a.geom.nt == b.geom.nt &&
         a.data.size() == b.data.size() &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(Complex<double>)) == 0;
}

inline double max_difference(const HostField& a, const HostField& b) {
  EXPECT_EQ(a.data.size(), b.data.size());
  double d = 0;
  for (std::size_t i = 0; i < std::min(a.data.size(), b.data.size()); ++i)
    d = std::max(d, std::sqrt(norm2(a.data[i] - b.data[i])));
  return d;
}

// Expects read() to throw a gf::Error whose message names the file and holds every word,
// and the file to be unchanged afterwards.
inline void expect_read_error(const std::string& path, const std::function<void()>& read,
                              std::initializer_list<const char*> words) {
  const std::string before = read_bytes(path);
  try {
    read();
    ADD_FAILURE() << "reading " << path << " did not throw";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(fs::path(path).filename().string()), std::string::npos) << what;
    for (const char* w : words)
      EXPECT_NE(what.find(w), std::string::npos) << "'" << w << "' not in: " << what;
  }
  EXPECT_EQ(read_bytes(path), before) << path << " was modified";
}

// A LIME record as bytes: its type, payload and message flags.
struct LimeBytes {
  std::string type, payload;
  bool mb = false, me = false;
};

inline std::vector<LimeBytes> lime_records(const std::string& path) {
  const std::string bytes = read_bytes(path);
  std::vector<LimeBytes> out;
  for (const LimeRecord& r : list_lime_records(path))
    out.push_back({r.type,
                   bytes.substr(static_cast<std::size_t>(r.data_offset),
                                static_cast<std::size_t>(r.data_bytes)),
                   r.message_begin, r.message_end});
  return out;
}

// The LIME file of these records (headers as lime.h describes them, payloads padded to 8).
inline std::string lime_file(const std::vector<LimeBytes>& records) {
  std::string out;
  for (const LimeBytes& r : records) {
    std::string h(144, '\0');
    const auto put = [&](std::size_t at, std::uint64_t v, int bytes) {
      for (int i = bytes - 1; i >= 0; --i, v >>= 8)
        h[at + std::size_t(i)] = static_cast<char>(v & 0xff);
    };
    put(0, 0x456789ab, 4);
    put(4, 1, 2);
    put(6, (r.mb ? 0x8000u : 0u) | (r.me ? 0x4000u : 0u), 2);
    put(8, r.payload.size(), 8);
    h.replace(16, r.type.size(), r.type);
    out += h + r.payload + std::string((8 - r.payload.size() % 8) % 8, '\0');
  }
  return out;
}

// The records with the payload of the first record of `type` replaced.
inline std::vector<LimeBytes> with_payload(std::vector<LimeBytes> records, const std::string& type,
                                           const std::string& payload) {
  for (LimeBytes& r : records)
    if (r.type == type) {
      r.payload = payload;
      break;
    }
  return records;
}

} // namespace gf::testing
