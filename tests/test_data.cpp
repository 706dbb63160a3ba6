// test_data.cpp: where the sample files of tests/data lie. The build passes that folder of the
// source tree as GF_TEST_DATA to this file alone (tests/meson.build).
#include "gauge_file_test_util.h"

std::string gf::testing::sample_path(const std::string& name) {
  return (std::filesystem::path(GF_TEST_DATA) / name).string();
}
