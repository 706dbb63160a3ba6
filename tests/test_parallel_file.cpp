// test_parallel_file.cpp: one file written by every rank (io/parallel_file.h), and the NERSC,
// HDF5 and gauge-transformation files written and read by slab. The suites run on one rank
// and, under mpirun with 2 and 4 ranks (tests/meson.build), on several: a file written by
// slab must then hold what rank 0 alone writes for the whole lattice (NERSC and the binary
// transform byte for byte except NERSC's CREATION_DATE; HDF5 by its data read back), every
// failure must reach every rank, and no failed or abandoned write may leave a file behind.
#include "comm/decomposition.h"
#include "core/error.h"
#include "gauge_file_test_util.h"
#include "io/hdf5_file.h"
#include "io/nersc.h"
#include "io/parallel_file.h"
#include "io/transform_file.h"
#include "math/random_group.h"
#include "test_fields.h"
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <iterator>

namespace gf {
namespace {

namespace fs = std::filesystem;
using testing::bit_equal;
using testing::read_bytes;
using testing::self_world;
using testing::TempDir;
using testing::write_bytes;

const int lattice[4] = {4, 2, 6, 8}; // L_t = 8 splits over 1, 2 and 4 ranks

// Entries of the shared folder, counted on every rank after all ranks are done with it.
std::size_t entries(const TempDir& dir, const World& world) {
  world.barrier();
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir.file("")), {}));
}

HostField slab_of(const HostField& whole, const Geometry& g) {
  HostField s(g, whole.nc, whole.ndir);
  const std::size_t per_slice = std::size_t(g.v3) * whole.ndir * whole.nc * whole.nc;
  std::copy_n(whole.data.begin() + std::ptrdiff_t(g.t0 * per_slice), s.data.size(), s.data.begin());
  return s;
}

template <int N>
HostField random_transform_n(const int L[4], std::uint64_t seed) {
  HostField g(Geometry::whole(L), N, 1);
  for (std::int64_t s = 0; s < g.local_sites(); ++s)
    g.set<N>(s, 0, random_sun<double, N>({seed, std::uint64_t(s), 7, 0}, RandomPurpose::test));
  return g;
}

HostField random_transform(const int L[4], int nc, std::uint64_t seed) {
  return nc == 2 ? random_transform_n<2>(L, seed) : random_transform_n<3>(L, seed);
}

// Expects f to throw a gf::Error on this rank whose message holds every word.
template <class F>
void expect_error(F&& f, std::initializer_list<std::string> words) {
  try {
    f();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    for (const std::string& w : words)
      EXPECT_NE(std::string(e.what()).find(w), std::string::npos)
          << "'" << w << "' not in: " << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// SlabFileWriter and read_slab_bytes.

TEST(ParallelFile, EveryRankWritesItsRange) {
  const World world;
  TempDir dir(world);
  const std::string path = dir.file("out.bin");
  if (world.rank() == 0) write_bytes(path, "previous content"); // replaced as a whole
  world.barrier();
  {
    SlabFileWriter file(path, world);
    EXPECT_EQ(fs::path(file.temporary_path()).parent_path(), fs::path(path).parent_path());
    if (world.rank() == 0) file.write_at(0, "head", 4);
    const std::string mine(8, char('a' + world.rank()));
    file.write_at(4 + 8 * world.rank(), mine.data(), 8);
    file.commit();
  }
  std::string expect = "head";
  for (int r = 0; r < world.size(); ++r)
    expect += std::string(8, char('a' + r));
  EXPECT_EQ(read_bytes(path), expect);
  EXPECT_EQ(entries(dir, world), 1u); // no temporary file left
}

TEST(ParallelFile, WithoutCommitLeavesNoFileAndNoTemporary) {
  const World world;
  TempDir dir(world);
  if (world.rank() == 0) write_bytes(dir.file("kept"), "previous");
  world.barrier();
  for (const char* name : {"new", "kept"}) {
    SlabFileWriter file(dir.file(name), world);
    file.write_at(8 * world.rank(), "partial!", 8);
  }
  EXPECT_FALSE(fs::exists(dir.file("new")));
  EXPECT_EQ(read_bytes(dir.file("kept")), "previous");
  EXPECT_EQ(entries(dir, world), 1u);
}

TEST(ParallelFile, FailureOnOneRankFailsCommitOnEveryRank) {
  const World world;
  TempDir dir(world);
  const std::string path = dir.file("out.bin");
  SlabFileWriter file(path, world);
  file.write_at(8 * world.rank(), "content!", 8);
  if (world.rank() == world.size() - 1) file.write_at(-1, "x", 1); // a write that fails
  const std::vector<std::string> words =
      world.size() > 1 ? std::vector<std::string>{"out.bin", "offset -1",
                                                  "rank " + std::to_string(world.size() - 1)}
                       : std::vector<std::string>{"out.bin", "offset -1"};
  try {
    file.commit();
    ADD_FAILURE() << "commit succeeded on rank " << world.rank();
  } catch (const Error& e) {
    for (const std::string& w : words)
      EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(entries(dir, world), 0u);
}

TEST(ParallelFile, OutputThatIsAnInputIsRefusedOnEveryRank) {
  const World world;
  TempDir dir(world);
  const std::string input = dir.file("input.cfg");
  if (world.rank() == 0) write_bytes(input, "input");
  world.barrier();
  expect_error([&] { SlabFileWriter file(dir.file("./input.cfg"), world, {input}); },
               {"input.cfg", "input file"});
  EXPECT_EQ(read_bytes(input), "input");
  EXPECT_EQ(entries(dir, world), 1u);
}

TEST(ParallelFile, MissingFolderFailsOnEveryRank) {
  const World world;
  TempDir dir(world);
  expect_error([&] { SlabFileWriter file(dir.file("missing/out.bin"), world); },
               {"out.bin", "temporary file"});
  EXPECT_EQ(entries(dir, world), 0u);
}

TEST(ParallelFile, ReadSlabBytes) {
  TempDir dir;
  write_bytes(dir.file("f"), "0123456789");
  const std::vector<unsigned char> b = read_slab_bytes(dir.file("f"), 3, 4);
  EXPECT_EQ(std::string(b.begin(), b.end()), "3456");
  expect_error([&] { read_slab_bytes(dir.file("f"), 8, 4); },
               {"'" + dir.file("f") + "'", "short read", "truncated"});
  expect_error([&] { read_slab_bytes(dir.file("none"), 0, 1); }, {"none", "cannot open"});
}

// ---------------------------------------------------------------------------------------------
// Files written by slab hold what one rank writes for the whole lattice.

std::string without_creation_date(std::string bytes) {
  const std::size_t b = bytes.find("CREATION_DATE");
  return b == std::string::npos ? bytes : bytes.erase(b, bytes.find('\n', b) - b);
}

TEST(MultiRank, NerscBySlabMatchesOneRank) {
  const World world;
  TempDir dir(world);
  for (const int nc : {2, 3})
    for (const bool dp : {true, false}) {
      const HostField whole = testing::random_field(lattice, nc, 11 + nc, 1.0);
      const HostField slab = slab_of(whole, decompose_time(lattice, world));
      WriteOptions w;
      w.double_precision = dp;
      w.full_matrix = !dp;
      w.provenance.ensemble_label = "slab test";
      if (world.rank() == 0) write_nersc(dir.file("one.nersc"), whole, w, self_world());
      write_nersc(dir.file("many.nersc"), slab, w, world);
      world.barrier();
      if (world.rank() == 0) {
        EXPECT_EQ(without_creation_date(read_bytes(dir.file("many.nersc"))),
                  without_creation_date(read_bytes(dir.file("one.nersc"))))
            << "SU(" << nc << ") " << (dp ? 64 : 32) << "-bit";
      }

      FileInfo one, many;
      const HostField a = read_nersc(dir.file("one.nersc"), self_world(), {}, &one);
      const HostField b = read_nersc(dir.file("many.nersc"), world, {}, &many);
      EXPECT_EQ(b.geom.t0, slab.geom.t0);
      EXPECT_EQ(b.geom.nt, slab.geom.nt);
      EXPECT_TRUE(bit_equal(b, slab_of(a, b.geom)));
      if (dp) {
        EXPECT_TRUE(bit_equal(b, slab));
      }
      EXPECT_EQ(many.computed, one.computed); // checksum, plaquette, link trace over all ranks
      EXPECT_EQ(many.plaquette, one.plaquette);
      world.barrier(); // every rank has read before the next round overwrites
    }
}

TEST(MultiRank, CorruptionInTheLastSlabFailsEveryRank) {
  const World world;
  TempDir dir(world);
  const HostField whole = testing::random_field(lattice, 3, 5, 1.0);
  const std::string path = dir.file("cfg.nersc");
  if (world.rank() == 0) {
    WriteOptions w;
    write_nersc(path, whole, w, self_world());
    std::string b = read_bytes(path);
    b.back() ^= 1; // the last rank's slab
    write_bytes(path, b);
  }
  world.barrier();
  expect_error([&] { read_nersc(path, world); }, {"cfg.nersc", "CHECKSUM"});
  ReadOptions lenient;
  lenient.checksum_warning_only = true;
  EXPECT_NO_THROW(read_nersc(path, world, lenient));
}

TEST(MultiRank, Hdf5BySlabMatchesOneRank) {
  const World world;
  TempDir dir(world);
  for (const bool dp : {true, false}) {
    const HostField whole = testing::random_field(lattice, 3, 17, 1.0);
    const HostField slab = slab_of(whole, decompose_time(lattice, world));
    WriteOptions w;
    w.format = FileFormat::hdf5;
    w.double_precision = dp;
    w.metadata = {{"gauge", "landau"}, {"theta", "1e-14"}};
    if (world.rank() == 0) write_hdf5(dir.file("one.h5"), whole, w, self_world());
    write_hdf5(dir.file("many.h5"), slab, w, world);
    world.barrier();

    FileInfo one, many;
    const HostField a = read_hdf5(dir.file("one.h5"), world, {}, &one);
    const HostField b = read_hdf5(dir.file("many.h5"), world, {}, &many);
    EXPECT_TRUE(bit_equal(a, b)) << (dp ? 64 : 32) << "-bit";
    if (dp) {
      EXPECT_TRUE(bit_equal(b, slab));
    }
    EXPECT_EQ(many.stored, one.stored); // every attribute
    EXPECT_EQ(many.computed, one.computed);
    if (world.rank() == 0) { // the whole file, read by one rank
      const HostField c = read_hdf5(dir.file("many.h5"), self_world());
      EXPECT_TRUE(bit_equal(slab_of(c, b.geom), b));
    }
    world.barrier();
  }
}

TEST(MultiRank, TransformBySlabMatchesOneRank) {
  const World world;
  TempDir dir(world);
  const HostField whole = random_transform(lattice, 3, 23);
  const HostField slab = slab_of(whole, decompose_time(lattice, world));
  const std::map<std::string, std::string> metadata = {{"gauge", "landau"},
                                                       {"input_file", "cfg.nersc"}};
  for (const TransformFormat f : {TransformFormat::binary, TransformFormat::hdf5}) {
    const std::string one = dir.file("one.g"), many = dir.file("many.g");
    if (world.rank() == 0) write_transform(one, whole, f, metadata, self_world());
    write_transform(many, slab, f, metadata, world);
    world.barrier();
    if (f == TransformFormat::binary && world.rank() == 0) {
      EXPECT_EQ(read_bytes(many), read_bytes(one));
    }
    TransformInfo info;
    const HostField b = read_transform(many, world, &info);
    EXPECT_TRUE(bit_equal(b, slab));
    EXPECT_EQ(info.format, f);
    EXPECT_EQ(info.metadata.at("input_file"), "cfg.nersc");
    world.barrier();
  }
}

} // namespace
} // namespace gf
