// fuzz_readers SEED COUNT DIR: a seeded mutation test of every file reader, built with
// AddressSanitizer and UndefinedBehaviorSanitizer (tests/meson.build). Small valid files of
// every format (NERSC 3x3 64-bit big-endian and 2-row 32-bit little-endian, ILDG, SciDAC
// SU(2) 32-bit, MILC, openQCD, HDF5, and g(x) as binary, HDF5 and LIME) are mutated COUNT
// times: bits flipped anywhere or in the header, header words set to boundary values (0, -1,
// 2^16, 2^24, 2^31, ...) in either byte order, LIME record lengths and flags changed, NERSC
// header values replaced, the file cut short or extended, a block copied elsewhere. HDF5
// files are damaged in their data, cut short or extended only: libhdf5 1.10 itself reads out
// of bounds on some damaged object headers (found by this test), which no reader of ours
// can prevent. Every
// mutated file goes through detect_format, read_gauge_file, detect_transform_format and
// read_transform; each must return or throw gf::Error. Any other exception fails the run
// (the file is kept as DIR/failure-N); a sanitizer report (invalid access, leak, undefined
// behaviour) ends it with an error. Prints "N passed, 0 failed" at the end.
//
// fuzz_readers --refuse FILE...: the malformed files of tests/cli_readers.sh (case
// sanitized_readers) through read_gauge_file under the same sanitizers: each must be refused
// with gf::Error whose message names the file; the messages are printed, one per line, for
// the script to check the reason. Exit status 1 when a file is accepted, refused without its
// name or with another exception.
#include "comm/world.h"
#include "core/error.h"
#include "io/gauge_file.h"
#include "io/transform_file.h"
#include "math/random_group.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <hdf5.h>
#include <iostream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using gf::HostField;

const int L[4] = {2, 2, 2, 4};

template <int N>
HostField random_matrices(int ndir, std::uint64_t seed) {
  HostField u(gf::Geometry::whole(L), N, ndir);
  for (std::int64_t s = 0; s < u.local_sites(); ++s)
    for (int mu = 0; mu < ndir; ++mu)
      u.set<N>(s, mu,
               gf::random_sun<double, N>({seed, std::uint64_t(s), std::uint32_t(mu), 0},
                                         gf::RandomPurpose::test));
  return u;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_all(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// The valid files every mutation starts from.
std::vector<std::string> seed_files(const std::string& dir, const gf::World& world) {
  const HostField su3 = random_matrices<3>(4, 1), su2 = random_matrices<2>(4, 2);
  const HostField g3 = random_matrices<3>(1, 3);
  std::vector<std::string> files;
  const auto gauge = [&](const std::string& name, const HostField& u, gf::FileFormat f, bool dp,
                         bool full, const char* order) {
    gf::WriteOptions w;
    w.format = f;
    w.double_precision = dp;
    w.full_matrix = full;
    if (order) w.metadata["BYTE_ORDER"] = order;
    w.provenance.ensemble_id = "fuzz";
    w.provenance.sequence_number = 3;
    files.push_back(dir + "/" + name);
    gf::write_gauge_file(files.back(), u, w, world);
  };
  gauge("a.nersc", su3, gf::FileFormat::nersc, true, true, "big");
  gauge("b.nersc", su3, gf::FileFormat::nersc, false, false, "little");
  gauge("c.ildg", su3, gf::FileFormat::ildg, true, false, nullptr);
  gauge("d.scidac", su2, gf::FileFormat::scidac, false, false, nullptr);
  gauge("e.milc", su3, gf::FileFormat::milc, false, false, nullptr);
  gauge("f.openqcd", su3, gf::FileFormat::openqcd, true, false, nullptr);
  gauge("g.h5", su2, gf::FileFormat::hdf5, true, false, nullptr);
  for (const auto& [name, f] : {std::pair{"h.gbin", gf::TransformFormat::binary},
                                std::pair{"i.gh5", gf::TransformFormat::hdf5},
                                std::pair{"j.glime", gf::TransformFormat::lime}}) {
    files.push_back(dir + "/" + name);
    gf::write_transform(files.back(), g3, f, {{"gauge", "landau"}}, world);
  }
  return files;
}

// The byte range of an HDF5 file's dataset (its raw data), {0, 0} for any other file.
std::pair<std::size_t, std::size_t> hdf5_data(const std::string& path) {
  if (H5Fis_hdf5(path.c_str()) <= 0) return {0, 0};
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const char* name =
      H5Lexists(f, "/gauge/links", H5P_DEFAULT) > 0 ? "/gauge/links" : "/gauge/transform";
  const hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  const auto offset = static_cast<std::size_t>(H5Dget_offset(d));
  const auto bytes = static_cast<std::size_t>(H5Dget_storage_size(d));
  H5Dclose(d);
  H5Fclose(f);
  return {offset, offset + bytes};
}

class Mutator {
public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}

  // An HDF5 file: its data [lo, hi) damaged, or the file cut or extended.
  std::string mutate_hdf5(std::string b, std::size_t lo, std::size_t hi) {
    switch (pick(4)) {
    case 0:
      for (int n = 1 + pick(4); n > 0; --n)
        flip(b, lo + pick(hi - lo));
      break;
    case 1:
      word(b, lo + pick(hi - lo - 8));
      break;
    case 2:
      b.resize(pick(b.size()));
      break;
    default:
      b += std::string(1 + pick(600), static_cast<char>(pick(256)));
      break;
    }
    return b;
  }

  std::string mutate(std::string b) {
    const int kind = pick(9);
    switch (kind) {
    case 0: // bits anywhere
      for (int n = 1 + pick(4); n > 0; --n)
        flip(b, pick(b.size()));
      break;
    case 1: // bits in the headers
      for (int n = 1 + pick(3); n > 0; --n)
        flip(b, pick(std::min<std::size_t>(b.size(), 1024)));
      break;
    case 2: // a header word set to a boundary value
      word(b, pick(std::min<std::size_t>(b.size(), 1024)));
      break;
    case 3: // a LIME record's length or flags
      lime_header(b);
      break;
    case 4: // a NERSC header value
      nersc_value(b);
      break;
    case 5: // cut short
      b.resize(pick(b.size()));
      break;
    case 6: // extended
      b += std::string(1 + pick(600), static_cast<char>(pick(256)));
      break;
    case 7: { // a block copied elsewhere
      const std::size_t from = pick(b.size()), to = pick(b.size());
      const std::size_t n = std::min({std::size_t(1 + pick(256)), b.size() - from, b.size() - to});
      b.replace(to, n, b.substr(from, n));
      break;
    }
    default: // a word anywhere
      word(b, pick(b.size()));
      break;
    }
    return b;
  }

private:
  std::size_t pick(std::size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }
  void flip(std::string& b, std::size_t at) {
    if (at < b.size()) b[at] = static_cast<char>(b[at] ^ (1 << pick(8)));
  }
  // 4 or 8 bytes at `at` set to a boundary value, in either byte order.
  void word(std::string& b, std::size_t at) {
    static const std::uint64_t values[] = {0,
                                           1,
                                           2,
                                           0xffffffffull,
                                           0x7fffffffull,
                                           0x80000000ull,
                                           1ull << 16,
                                           1ull << 24,
                                           1ull << 30,
                                           1ull << 62,
                                           ~0ull,
                                           3,
                                           4096,
                                           20103,
                                           0x456789abull};
    const std::uint64_t v = values[pick(std::size(values))];
    const int bytes = pick(2) ? 4 : 8;
    const bool big = pick(2);
    for (int i = 0; i < bytes && at + std::size_t(i) < b.size(); ++i) {
      const int shift = 8 * (big ? bytes - 1 - i : i);
      b[at + std::size_t(i)] = static_cast<char>(v >> shift & 0xff);
    }
  }
  void lime_header(std::string& b) {
    std::vector<std::size_t> headers;
    const std::string magic = "\x45\x67\x89\xab";
    for (std::size_t p = b.find(magic); p != std::string::npos; p = b.find(magic, p + 1))
      headers.push_back(p);
    if (headers.empty()) return word(b, pick(b.size()));
    const std::size_t h = headers[pick(headers.size())];
    if (pick(2))
      word(b, h + 8); // payload length
    else
      flip(b, h + 6 + pick(2)); // flags
  }
  void nersc_value(std::string& b) {
    static const char* values[] = {
        "0",     "-1",       "4294967296", "99999999999999999999", "1e308", "nan", "", "2147483647",
        "65536", "16777216", "IEEE64",     "4D_SU2_GAUGE",         "x"};
    const std::size_t end = b.find("END_HEADER");
    if (end == std::string::npos) return word(b, pick(b.size()));
    std::vector<std::size_t> eqs;
    for (std::size_t p = b.find('='); p < end; p = b.find('=', p + 1))
      eqs.push_back(p);
    if (eqs.empty()) return;
    const std::size_t at = eqs[pick(eqs.size())] + 1;
    const std::size_t nl = b.find('\n', at);
    b.replace(at, nl - at, std::string(" ") + values[pick(std::size(values))]);
  }
  std::mt19937_64 rng_;
};

// Reads `path` with every reader; "" where each returned or threw gf::Error, else what else
// was thrown.
std::string read_everything(const std::string& path, const gf::World& world) {
  try {
    gf::detect_format(path);
  } catch (const gf::Error&) {
  }
  try {
    gf::FileInfo info;
    gf::read_gauge_file(path, world, {}, &info);
  } catch (const gf::Error&) {
  } catch (const std::exception& e) {
    return std::string("read_gauge_file: ") + e.what();
  }
  try {
    gf::detect_transform_format(path);
    gf::TransformInfo info;
    gf::read_transform(path, world, &info);
  } catch (const gf::Error&) {
  } catch (const std::exception& e) {
    return std::string("read_transform: ") + e.what();
  }
  return "";
}

// --refuse FILE...: see the top of this file.
int refuse(int argc, char** argv, const gf::World& world) {
  int failed = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string path = argv[i];
    std::string message;
    try {
      gf::FileInfo info;
      gf::read_gauge_file(path, world, {}, &info);
      message = "accepted";
    } catch (const gf::Error& e) {
      std::printf("%s\n", e.what());
      if (std::string(e.what()).find(path) != std::string::npos) continue;
      message = std::string("the message does not name the file: ") + e.what();
    } catch (const std::exception& e) {
      message = std::string("not a gf::Error: ") + e.what();
    }
    std::fprintf(stderr, "%s: %s\n", path.c_str(), message.c_str());
    ++failed;
  }
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--refuse") {
    std::ostringstream notes; // the readers' notes on stderr are not of interest
    std::streambuf* const cerr = std::cerr.rdbuf(notes.rdbuf());
    const int status = refuse(argc, argv, gf::World::alone());
    std::cerr.rdbuf(cerr);
    return status;
  }
  if (argc != 4) {
    std::fprintf(stderr, "usage: fuzz_readers SEED COUNT DIR | fuzz_readers --refuse FILE...\n");
    return 2;
  }
  const std::uint64_t seed = std::strtoull(argv[1], nullptr, 10);
  const long count = std::atol(argv[2]);
  const std::string dir = argv[3];
  fs::create_directories(dir);
  const gf::World world = gf::World::alone();
  std::ostringstream notes; // the readers' notes and warnings on stderr are not of interest
  std::streambuf* const cerr = std::cerr.rdbuf(notes.rdbuf());

  const std::vector<std::string> files = seed_files(dir, world);
  long failed = 0, passed = 0;
  for (const std::string& f : files) // every valid file reads
    if (!read_everything(f, world).empty()) ++failed;
  std::vector<std::pair<std::size_t, std::size_t>> data;
  for (const std::string& f : files)
    data.push_back(hdf5_data(f));
  Mutator mutator(seed);
  const std::string path = dir + "/mutated";
  for (long n = 0; n < count; ++n) {
    const std::size_t k = static_cast<std::size_t>(n) % files.size();
    const std::string& source = files[k];
    const auto [lo, hi] = data[k];
    const std::string bytes =
        hi > lo ? mutator.mutate_hdf5(read_all(source), lo, hi) : mutator.mutate(read_all(source));
    write_all(path, bytes);
    const std::string what = read_everything(path, world);
    notes.str("");
    if (what.empty()) {
      ++passed;
      continue;
    }
    ++failed;
    const std::string kept = dir + "/failure-" + std::to_string(n);
    write_all(kept, bytes);
    std::fprintf(stderr, "mutation %ld of %s (seed %llu): %s; kept as %s\n", n, source.c_str(),
                 static_cast<unsigned long long>(seed), what.c_str(), kept.c_str());
  }
  std::cerr.rdbuf(cerr);
  std::printf("%ld passed, %ld failed\n", passed, failed);
  return failed ? 1 : 0;
}
