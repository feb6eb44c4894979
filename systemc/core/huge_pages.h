// Storage for the dense per-router state of a large network. Every router's
// state is touched every cycle, and a 64x64 torus keeps tens of MB of it: on
// 4 KB pages every router visited is a TLB miss (a page walk, twice as long
// under virtualization), which was a third of such a run. Arrays of 2 MB and
// more are mapped on their own, 2 MB aligned, and the kernel is asked for
// transparent huge pages there (a hint: it may refuse, and nothing changes but
// the speed). Smaller arrays (small networks, every traffic run's memory
// bound) come from the ordinary heap.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

namespace wn {

namespace huge_pages {
constexpr size_t kPage = size_t{2} << 20;
constexpr size_t kThreshold = kPage;
inline size_t mapped_bytes(size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }
// A 2 MB aligned anonymous mapping of mapped_bytes(bytes), advised for huge pages; throws std::bad_alloc.
inline void* map(size_t bytes) {
  const size_t len = mapped_bytes(bytes);
  void* const raw = mmap(nullptr, len + kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kPage - 1) / kPage * kPage;
  if (aligned > start) munmap(raw, aligned - start);
  if (const uintptr_t tail = start + len + kPage - (aligned + len))
    munmap(reinterpret_cast<void*>(aligned + len), tail);
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void*>(aligned), len, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(aligned);
}
inline void unmap(void* p, size_t bytes) { munmap(p, mapped_bytes(bytes)); }
}  // namespace huge_pages

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(size_t n) {
    if (n * sizeof(T) < huge_pages::kThreshold) return std::allocator<T>().allocate(n);
    static_assert(alignof(T) <= huge_pages::kPage, "a mapping is 2 MB aligned");
    return static_cast<T*>(huge_pages::map(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < huge_pages::kThreshold)
      std::allocator<T>().deallocate(p, n);
    else
      huge_pages::unmap(p, n * sizeof(T));
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const {
    return false;
  }
};

// A vector of per-router (per-slot, per-port) state.
template <class T>
using DenseVector = std::vector<T, HugePageAllocator<T>>;

// Per-node objects that can not move (SystemC modules), built in place one
// after the other in the same kind of storage; destroyed in construction order.
template <class T>
class DenseArray {
 public:
  explicit DenseArray(size_t capacity) : data_(HugePageAllocator<T>().allocate(capacity)), capacity_(capacity) {}
  ~DenseArray() {
    for (size_t i = 0; i < size_; ++i) data_[i].~T();
    HugePageAllocator<T>().deallocate(data_, capacity_);
  }
  DenseArray(const DenseArray&) = delete;
  DenseArray& operator=(const DenseArray&) = delete;
  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) throw std::logic_error("DenseArray: full");
    T* const t = new (data_ + size_) T(std::forward<Args>(args)...);
    ++size_;
    return *t;
  }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  T* data_;
  size_t capacity_;
  size_t size_ = 0;
};

}  // namespace wn
