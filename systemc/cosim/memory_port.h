// A node's memory port: the words per cycle its memory (or DMA engines) can
// move, shared by every injection channel (reading the words of the flit it
// presents next), every ejection channel (writing the words of the flits it
// took) and the processor's local operations. Real all-port nodes had one: the
// CM-200's memory served "one 4-byte wide access at a time" (Mathur &
// Johnsson, §1), so d channels streaming at once could not all run at link
// speed. Without a port (rate 0: unlimited) nothing here runs.
//
// Arbitration, once per cycle: the cycle's budget (the rate; a fraction of a
// word carries over to the next cycle, whole unused words do not) is handed
// out one word at a time, round-robin over the requesters that want words,
// the round going on where the last word of the previous cycle left it.
// Requesters, in the order the round visits them: injection channels
// 0..I-1, ejection channels 0..E-1, the processor.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "systemc/core/router_types.h"

namespace wn {

class MemoryPort {
 public:
  static constexpr int kRequesters = 2 * kMaxPorts + 1;
  static constexpr int kProcessor = 2 * kMaxPorts;
  static int injection(int c) { return c; }
  static int ejection(int c) { return kMaxPorts + c; }

  // `milli_words`: thousandths of a word per cycle; 0 = no port (unlimited).
  explicit MemoryPort(uint32_t milli_words = 0) : rate_(milli_words) {}
  bool modelled() const { return rate_ != 0; }
  uint32_t milli_words() const { return rate_; }

  // Words requester `r` still needs (its demand; 0: none).
  void want(int r, uint64_t words) { want_[std::size_t(r)] = words; }
  uint64_t wanted(int r) const { return want_[std::size_t(r)]; }
  // One cycle: grants words (each requester's `want` drops by what it got).
  // Returns the words granted to each requester this cycle in `got`.
  void cycle(std::array<uint64_t, kRequesters>& got);
  bool busy() const;  // some requester wants words

 private:
  uint32_t rate_;
  uint64_t budget_ = 0;  // thousandths of a word left from earlier cycles (< 1000)
  int next_ = 0;
  std::array<uint64_t, kRequesters> want_{};
};

}  // namespace wn
