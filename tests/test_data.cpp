// test_data.cpp: where the sample files of tests/data lie: $GAUGEFIX_TEST_DATA where set (the
// test binaries run on another machine, e.g. a GPU node with a copy of the repository:
// bench/packed_session.sh sets it), else the folder of the source tree that the build passes as
// GF_TEST_DATA to this file alone (tests/meson.build).
#include "gauge_file_test_util.h"
#include <cstdlib>

std::string gf::testing::sample_path(const std::string& name) {
  const char* moved = std::getenv("GAUGEFIX_TEST_DATA");
  const std::filesystem::path folder = moved && *moved ? moved : GF_TEST_DATA;
  return (folder / name).string();
}
