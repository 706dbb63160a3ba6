// A build without CUDA: the functions of include/gaugefix/device_memory.h refuse.
#include "gaugefix/device_memory.h"
#include <string>

namespace gaugefix {

namespace {

[[noreturn]] void refuse(const char* function) {
  throw Error(std::string(function) + ": this gaugefix was built without CUDA (-Dcuda=enabled)");
}

} // namespace

bool built_with_cuda() {
  return false;
}

int device_of(const void*) {
  refuse("device_of");
}

void copy_from_device(void*, const void*, std::size_t, std::uintptr_t) {
  refuse("copy_from_device");
}

void copy_to_device(void*, const void*, std::size_t) {
  refuse("copy_to_device");
}

void* device_allocate(std::size_t, int) {
  refuse("device_allocate");
}

void device_free(void*) noexcept {}

} // namespace gaugefix
