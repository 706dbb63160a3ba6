// test_output_safety.cpp: the checks and mechanisms that keep outputs from destroying files:
// check_run_paths (io/path_checks.h), TemporaryFile (io/temporary_file.h: exclusive,
// unpredictable names, stale files removed, live ones kept), FileLock (io/file_lock.h).
#include "core/error.h"
#include "gauge_file_test_util.h"
#include "io/file_lock.h"
#include "io/path_checks.h"
#include "io/temporary_file.h"
#include "io/temporary_name.h"
#include <fcntl.h>
#include <gtest/gtest.h>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>

namespace gf {
namespace {

using testing::read_bytes;
using testing::TempDir;
using testing::write_bytes;
namespace fs = std::filesystem;

void expect_refused(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs,
                    std::initializer_list<std::string> words) {
  try {
    check_run_paths(inputs, outputs);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    for (const std::string& w : words)
      EXPECT_NE(std::string(e.what()).find(w), std::string::npos)
          << "'" << w << "' not in: " << e.what();
  }
}

TEST(RunPaths, OutputsAgainstInputsAndEachOther) {
  TempDir dir;
  const std::string in = dir.file("in"), out = dir.file("out");
  write_bytes(in, "input");
  fs::create_symlink(in, dir.file("link"));
  fs::create_hard_link(in, dir.file("hard"));
  const std::vector<NamedPath> inputs = {{"--input", in}, {"--config", ""}};
  expect_refused(inputs, {{"--summary", in}}, {"--summary", "--input", "'" + in + "'"});
  expect_refused(inputs, {{"--summary", dir.file("link")}}, {"--summary", "--input"});
  expect_refused(inputs, {{"--output", dir.file("hard")}}, {"--output", "--input"});
  expect_refused(inputs, {{"--output", out}, {"--transform-output", dir.file("./out")}},
                 {"--transform-output", "--output", "own file"});
  expect_refused(inputs, {{"--output", ""}}, {"--output", "empty"});
  expect_refused(inputs, {{"--output", dir.file("none/out")}}, {"--output", "does not exist"});
  fs::create_directory(dir.file("sub"));
  expect_refused(inputs, {{"--output", dir.file("sub")}}, {"--output", "directory"});
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  expect_refused(inputs, {{"--summary", dir.file("fifo")}}, {"--summary", "FIFO"});
  EXPECT_NO_THROW(check_run_paths(inputs, {{"--output", out}, {"--summary", dir.file("s")}}));
  EXPECT_EQ(read_bytes(in), "input");
}

std::set<std::string> names_in(const TempDir& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.file("")))
    names.insert(e.path().filename().string());
  return names;
}

TEST(TemporaryFile, ExclusiveUnpredictableNameRenamedOnCommit) {
  TempDir dir;
  const std::string out = dir.file("out");
  std::string first;
  {
    TemporaryFile a(out), b(out);
    first = a.path();
    EXPECT_NE(a.path(), b.path());
    const std::string name = fs::path(a.path()).filename().string();
    EXPECT_EQ(name.rfind(temporary_name_prefix(out), 0), 0u) << name;
    EXPECT_EQ(name.size(), temporary_name_prefix(out).size() + 6) << name;
    ASSERT_EQ(::write(a.fd(), "abc", 3), 3);
    a.commit();
  } // b is removed
  EXPECT_EQ(read_bytes(out), "abc");
  EXPECT_FALSE(fs::exists(first));
  EXPECT_EQ(names_in(dir), std::set<std::string>{"out"});
}

TEST(TemporaryFile, NamesUpToNameMaxGetAShortTemporaryName) {
  TempDir dir;
  for (const std::size_t length : {234u, 235u, 255u}) {
    const std::string out = dir.file(std::string(length, 'x'));
    const std::string prefix = temporary_name_prefix(out);
    EXPECT_NE(prefix.find(".gaugefix-tmp."), std::string::npos) << prefix;
    EXPECT_LE(prefix.size() + temporary_suffix_length, 255u) << length;
    EXPECT_EQ(prefix.rfind("." + std::string(length, 'x') + ".", 0) == 0, length <= 234) << prefix;
    EXPECT_NE(prefix, temporary_name_prefix(dir.file(std::string(length, 'y'))));
    {
      TemporaryFile t(out);
      ASSERT_EQ(::write(t.fd(), "abc", 3), 3);
      t.commit();
    }
    EXPECT_EQ(read_bytes(out), "abc");
  }
  EXPECT_THROW(check_name_lengths("--output", dir.file(std::string(256, 'x'))), Error);
  EXPECT_NO_THROW(check_name_lengths("--output", dir.file(std::string(255, 'x'))));
}

TEST(TemporaryFile, StaleFilesRemovedLiveAndForeignKept) {
  TempDir dir;
  const std::string out = dir.file("out"), prefix = temporary_name_prefix(out);
  write_bytes(dir.file(prefix + "STALE0"), "left by a killed writer");
  write_bytes(dir.file(prefix + "LIVE00"), "held by a live writer");
  write_bytes(dir.file(".other.gaugefix-tmp.STALE0"), "another output's");
  write_bytes(dir.file("victim"), "victim");
  fs::create_symlink(dir.file("victim"), dir.file(prefix + "LINK00"));
  const int held = ::open(dir.file(prefix + "LIVE00").c_str(), O_RDONLY);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  {
    TemporaryFile t(out);
    t.commit();
  }
  ::close(held);
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"out", prefix + "LIVE00", prefix + "LINK00",
                                                  ".other.gaugefix-tmp.STALE0", "victim"}));
  EXPECT_EQ(read_bytes(dir.file("victim")), "victim");
}

TEST(TemporaryFile, NonRegularFinalNameIsNeverReplaced) {
  TempDir dir;
  fs::create_directory(dir.file("sub"));
  try {
    TemporaryFile t(dir.file("sub"));
    ADD_FAILURE() << "a temporary file for a directory was created";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("directory"), std::string::npos) << e.what();
  }
  TemporaryFile t(dir.file("later"));
  fs::create_directory(dir.file("later")); // appears while the output is written
  EXPECT_THROW(t.commit(), Error);
  EXPECT_TRUE(fs::is_directory(dir.file("later")));
}

TEST(FileLock, SecondHolderIsRefused) {
  TempDir dir;
  const std::string path = dir.file("ens.lock");
  {
    FileLock first(path, "a test run");
    try {
      FileLock second(path, "a test run");
      ADD_FAILURE() << "the lock was taken twice";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("ens.lock"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("held by another process"), std::string::npos);
    }
  }
  EXPECT_NO_THROW(FileLock(path, "a test run")); // released with the first holder
}

} // namespace
} // namespace gf
