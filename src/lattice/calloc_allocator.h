// calloc_allocator.h: the allocator of HostField's numbers. Memory comes from calloc, already
// zero, so a vector of n elements is not zero-filled a second time by the allocating thread:
// large blocks are fresh mmap pages, which the kernel zeroes when they are first touched, by
// the threads that fill them (a reader's OpenMP decoding), instead of one thread touching the
// whole slab before the file is read (1.4 s of a 6.3 s one-core read of 1.2 GB,
// docs/formats.md). Elements constructed without arguments (value-initialisation) are left as
// calloc gave them, zero: for trivial types only, and only in memory fresh from allocate(); a
// vector of this allocator must not grow into capacity it used before (HostField never
// resizes its data). Construction from arguments (copies) is the usual placement new.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace gf {

template <class T>
struct CallocAllocator {
  static_assert(std::is_trivial_v<T>, "left zero from calloc: trivial types only");
  using value_type = T;

  CallocAllocator() = default;
  template <class U>
  CallocAllocator(const CallocAllocator<U>&) {}

  T* allocate(std::size_t n) {
    void* p = std::calloc(n, sizeof(T));
    if (!p) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) { std::free(p); }

  template <class U>
  void construct(U*) {} // zero already (see above)
  template <class U, class A, class... Rest>
  void construct(U* p, A&& a, Rest&&... rest) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a), std::forward<Rest>(rest)...);
  }

  template <class U>
  bool operator==(const CallocAllocator<U>&) const {
    return true;
  }
};

} // namespace gf
