#include "systemc/cosim/memory_port.h"

#include <algorithm>

namespace wn {

bool MemoryPort::busy() const {
  for (uint64_t w : want_)
    if (w) return true;
  return false;
}

// Word by word round-robin, computed a round at a time: while every requester
// still wanting words would take one in a full round, whole rounds go at once.
void MemoryPort::cycle(std::array<uint64_t, kRequesters>& got) {
  got.fill(0);
  budget_ += rate_;
  uint64_t words = budget_ / 1000;
  budget_ %= 1000;
  for (;;) {
    int active = 0;
    uint64_t least = UINT64_MAX;
    for (uint64_t w : want_)
      if (w) {
        ++active;
        least = std::min(least, w);
      }
    if (active == 0 || words == 0) return;
    const uint64_t rounds = std::min(least, words / uint64_t(active));
    if (rounds == 0) break;  // a last, partial round
    for (size_t r = 0; r < want_.size(); ++r)
      if (want_[r]) {
        want_[r] -= rounds;
        got[r] += rounds;
      }
    words -= rounds * uint64_t(active);
  }
  for (int k = 0; k < kRequesters && words > 0; ++k) {
    const size_t r = size_t((next_ + k) % kRequesters);
    if (!want_[r]) continue;
    --want_[r];
    ++got[r];
    --words;
    next_ = int(r + 1) % kRequesters;
  }
}

}  // namespace wn
