// test_world.cpp: the world of a process without MPI (comm/world.h: World::alone(), rank 0 of
// 1, every collective the identity) and the rule that decides whether a process initialises
// MPI (comm/mpi_launch.h), from the environment of each kind of launch.
#include "comm/mpi_launch.h"
#include "comm/world.h"
#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gf {
namespace {

TEST(WorldAlone, EveryCollectiveIsTheIdentity) {
  const World w = World::alone();
  EXPECT_FALSE(w.uses_mpi());
  EXPECT_EQ(w.rank(), 0);
  EXPECT_EQ(w.size(), 1);
  EXPECT_EQ(w.node_rank(), 0);
  EXPECT_EQ(w.prev(), 0);
  EXPECT_EQ(w.next(), 0);
  const std::vector<double> part = {1.5, -2.25, 0.1};
  EXPECT_EQ(w.gather_concat(part), part);
  const std::vector<std::uint32_t> words = {7, 0xffffffffu};
  EXPECT_EQ(w.gather_concat(words), words);
  EXPECT_EQ(w.max(-3.5), -3.5);
  EXPECT_EQ(w.min(-4), -4);
  EXPECT_EQ(w.sum(std::int64_t{1} << 40), std::int64_t{1} << 40);
  EXPECT_EQ(w.bit_xor(0xdeadbeefu), 0xdeadbeefu);
  EXPECT_EQ(w.sum_mod32(0xfffffffeu), 0xfffffffeu);
  EXPECT_TRUE(w.all(true));
  EXPECT_FALSE(w.all(false));
  EXPECT_TRUE(w.any(true));
  EXPECT_FALSE(w.any(false));
  EXPECT_EQ(w.gather_strings("abc"), std::vector<std::string>{"abc"});
  std::string s = "kept";
  w.broadcast(s);
  EXPECT_EQ(s, "kept");
  std::vector<char> bytes = {'a', '\0', 'b'};
  w.broadcast(bytes);
  EXPECT_EQ(bytes, (std::vector<char>{'a', '\0', 'b'}));
  w.barrier();
}

// The launcher variables of mpi_launch.h set as given, the others unset, for the scope.
class LaunchEnvironment {
public:
  explicit LaunchEnvironment(const std::map<std::string, std::string>& set) {
    for (const char* name : names) {
      const char* v = std::getenv(name);
      saved_[name] = v ? std::optional<std::string>(v) : std::nullopt;
      unsetenv(name);
    }
    for (const auto& [name, value] : set)
      setenv(name.c_str(), value.c_str(), 1);
  }
  ~LaunchEnvironment() {
    for (const auto& [name, value] : saved_)
      if (value)
        setenv(name.c_str(), value->c_str(), 1);
      else
        unsetenv(name.c_str());
  }
  LaunchEnvironment(const LaunchEnvironment&) = delete;
  LaunchEnvironment& operator=(const LaunchEnvironment&) = delete;

private:
  static constexpr const char* names[] = {"GAUGEFIX_MPI", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
                                          "PMI_RANK",     "SLURM_STEP_NUM_TASKS", "SLURM_PROCID",
                                          "SLURM_NTASKS", "SLURM_STEP_ID"};
  std::map<std::string, std::optional<std::string>> saved_;
};

std::string launcher_with(const std::map<std::string, std::string>& set) {
  const LaunchEnvironment env(set);
  return mpi_launcher();
}

TEST(MpiLauncher, AloneWithoutALauncher) {
  EXPECT_EQ(launcher_with({}), "");
  // the shell of a batch script: the job's task count, no srun step of several tasks
  EXPECT_EQ(launcher_with({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}}), "");
  EXPECT_EQ(launcher_with({{"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_TASKS", "1"}}), "");
  EXPECT_EQ(launcher_with({{"GAUGEFIX_MPI", "0"}}), "");
  EXPECT_EQ(launcher_with({{"PMI_RANK", ""}}), ""); // empty: not set
}

TEST(MpiLauncher, EveryKindOfLaunchStartsMpi) {
  EXPECT_EQ(launcher_with({{"OMPI_COMM_WORLD_SIZE", "1"}}), "OMPI_COMM_WORLD_SIZE");
  EXPECT_EQ(launcher_with({{"PMIX_RANK", "0"}}), "PMIX_RANK");
  EXPECT_EQ(launcher_with({{"PMI_RANK", "3"}}), "PMI_RANK");
  EXPECT_EQ(launcher_with({{"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_TASKS", "2"}}),
            "SLURM_STEP_NUM_TASKS");
  EXPECT_EQ(launcher_with({{"GAUGEFIX_MPI", "1"}}), "GAUGEFIX_MPI=1");
  EXPECT_EQ(launcher_with({{"PMIX_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}}),
            "OMPI_COMM_WORLD_SIZE"); // the first that matches names the launch
}

} // namespace
} // namespace gf
