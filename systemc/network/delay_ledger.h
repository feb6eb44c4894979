// The delay view's bookkeeping (contention_monitor.h explains the view).
//
// A body flit can fall behind the flit ahead of it in its packet (it stalls
// at a router, or the NI presents it late); the flit ahead can close some of
// that gap again when it is slow itself (a head spends 3 cycles per router, a
// body flit needs only 2). The gap a flit has when it is ejected is exactly
// how much later than its predecessor it arrives, i.e. its share of the
// packet's delay. A Ledger holds that gap as runs of cycles with their cause,
// oldest first: a stall appends, a closing gap drops the oldest cycles (they
// had the most chance to be made up), so the cycles left at ejection are the
// ones that were not made up. Why the ledger never runs short: leaving a
// router, the gap is exactly max(gap - s, 0) + stalls there, where s >= 0 is
// what the flit ahead spent on the hop beyond 2 cycles, so old gap + stalls
// always covers it; only at the source can the NI present a flit late
// (injection credits), and those cycles are added as flow.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace wn {

// Memory: the node's memory port did not serve the flit's words in time (memory_port.h); only
// runs that model a port have it.
enum class Contention : uint8_t { Stepwise = 0, Depth = 1, Port = 2, Flow = 3, Memory = 4 };
constexpr int kContentionClasses = 5;
const char* contention_name(Contention c);
constexpr uint32_t kNoBlocker = UINT32_MAX;

// Cycles by class, and by blocking packet (flow cycles have none).
struct DelayAccount {
  std::array<uint64_t, kContentionClasses> cycles{};
  std::vector<std::pair<uint32_t, uint64_t>> blockers;  // blocking packet id -> cycles
  void add(Contention c, uint32_t blocker, uint64_t n);
  void add(const DelayAccount& o);
  uint64_t total() const { return cycles[0] + cycles[1] + cycles[2] + cycles[3] + cycles[4]; }
};

// One packet's delay view.
struct PacketDelay {
  DelayAccount delay;  // tail delivered - start - zero load, every cycle with its cause
  // Packets of a message of several packets only (null otherwise: most
  // packets, and big runs have millions): the part of `delay` charged while
  // it was in its source router, which holds back the packets behind it.
  std::shared_ptr<DelayAccount> source;
  uint32_t after = kNoBlocker;        // previous packet of the same message on the same injection channel
  uint64_t left_source = UINT64_MAX;  // edge its tail left the source router
};

// Ledgers; a flit carries a 64-bit handle to its own (0: no gap, the usual
// case). A gap of one cause, as most are, is written in the handle itself
// (kInline, class, blocker and cycles): the flit's stalls and its settling
// then touch nothing but the flit. A gap of several causes lives in a pool
// record the handle names by index.
class LedgerPool {
 public:
  LedgerPool() : pool_(1) {}
  // `cycles` stall cycles (newer than any it has) of the flit with ledger `h` (allocated on the first).
  void stall(uint64_t& h, Contention c, uint32_t blocker, uint64_t cycles = 1);
  // Sets the flit's gap to `gap` cycles: drops the oldest cycles, or (the NI
  // presented the flit late) adds `pad` cycles as the oldest. Returns the
  // cycles padded.
  uint64_t settle(uint64_t& h, uint64_t gap, Contention pad);
  void charge(uint64_t h, DelayAccount& to) const;  // adds the ledger's cycles
  void release(uint64_t& h);
  // The handle of a new ledger holding `cycles` stall cycles of class `c` and no blocker (0: none),
  // made without a pool: the tag an NI gives a flit it presented late.
  static uint64_t stalled(Contention c, uint64_t cycles) {
    return cycles == 0 ? 0 : make_inline(c, kNoBlocker, std::min(cycles, kMaxInline));
  }

 private:
  static constexpr uint64_t kInline = uint64_t{1} << 63;
  static constexpr int kCountShift = 35;                           // bits 35..62: cycles
  static constexpr uint64_t kMaxInline = (uint64_t{1} << 28) - 1;  // more: a pool record
  static bool is_inline(uint64_t h) { return h & kInline; }
  static uint64_t inline_count(uint64_t h) { return (h & ~kInline) >> kCountShift; }
  static uint32_t inline_blocker(uint64_t h) { return uint32_t(h); }
  static Contention inline_class(uint64_t h) { return Contention((h >> 32) & 7); }
  static uint64_t make_inline(Contention c, uint32_t blocker, uint64_t cycles) {
    return kInline | cycles << kCountShift | uint64_t(c) << 32 | blocker;
  }
  struct Run {
    uint64_t count;
    uint32_t blocker;
    Contention cls;
  };
  // The ledger's cycles, oldest first: runs [first, end) of `runs`, then
  // `open`, the newest run (count 0: none). Kept whole (no merging but of a
  // stall with the newest run): a gap can hold many causes, and each cycle
  // keeps its own. A released ledger keeps a small capacity for the next
  // flit (kKeptRuns), so steady state allocates little.
  static constexpr size_t kKeptRuns = 8;
  struct alignas(64) Ledger {
    Run open{0, kNoBlocker, Contention::Flow};
    uint64_t total = 0;
    size_t first = 0;
    std::vector<Run> runs;
  };
  // The pool record of handle h, made from its inline run (or empty) if it has none.
  Ledger& acquire(uint64_t& h);
  std::vector<Ledger> pool_;
  std::vector<uint32_t> free_;
};

}  // namespace wn
