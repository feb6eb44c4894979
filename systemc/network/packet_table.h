// Notes on the packets in the network, by packet id: an open-addressing
// table whose home slot is the id itself (modulo its size: packets in flight
// were created close together, so their ids rarely collide). Entries are
// dropped when their packet has left the network, so the table follows the
// packets in flight, not the length of the run.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace wn {

template <class T>
class PacketTable {
 public:
  PacketTable() : slots_(kInitial) {}
  // The note of packet `id`, made (default) if it has none.
  T& at(uint32_t id) {
    for (size_t i = id & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.used && s.id == id) return s.value;
      if (!s.used) {
        if ((used_ + 1) * 2 > slots_.size()) {
          grow();
          return at(id);
        }
        s.used = true;
        s.id = id;
        s.value = T{};
        ++used_;
        return s.value;
      }
    }
  }
  T* find(uint32_t id) {
    for (size_t i = id & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.id == id) return &s.value;
    }
  }
  void erase(uint32_t id) {
    size_t i = id & mask();
    while (slots_[i].used && slots_[i].id != id) i = (i + 1) & mask();
    if (!slots_[i].used) return;
    // Backward shift: an entry after the hole moves into it unless it is already at or past its
    // home there (linear probing finds every key without tombstones).
    for (size_t j = (i + 1) & mask(); slots_[j].used; j = (j + 1) & mask()) {
      const size_t home = slots_[j].id & mask();
      if (((j - home) & mask()) >= ((j - i) & mask())) {
        slots_[i] = std::move(slots_[j]);
        i = j;
      }
    }
    slots_[i].used = false;
    --used_;
  }
  // f(id, note) for every note, in no particular order.
  template <class F>
  void for_each(F f) {
    for (Slot& s : slots_)
      if (s.used) f(s.id, s.value);
  }

 private:
  static constexpr size_t kInitial = 1024;
  struct Slot {
    T value{};
    uint32_t id = 0;
    bool used = false;
  };
  size_t mask() const { return slots_.size() - 1; }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    used_ = 0;
    for (Slot& s : old)
      if (s.used) at(s.id) = std::move(s.value);
  }
  std::vector<Slot> slots_;
  size_t used_ = 0;
};

}  // namespace wn
