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
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace wn {

enum class Contention : uint8_t { Stepwise = 0, Depth = 1, Port = 2, Flow = 3 };
constexpr int kContentionClasses = 4;
const char* contention_name(Contention c);
constexpr uint32_t kNoBlocker = UINT32_MAX;

// Cycles by class, and by blocking packet (flow cycles have none).
struct DelayAccount {
  std::array<uint64_t, kContentionClasses> cycles{};
  std::vector<std::pair<uint32_t, uint64_t>> blockers;  // blocking packet id -> cycles
  void add(Contention c, uint32_t blocker, uint64_t n);
  void add(const DelayAccount& o);
  uint64_t total() const { return cycles[0] + cycles[1] + cycles[2] + cycles[3]; }
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

// Pool of ledgers; a flit refers to one by id (0: no gap, the usual case).
class LedgerPool {
 public:
  LedgerPool() : pool_(1) {}
  // One stall cycle of the flit with ledger `id` (allocated on the first).
  void stall(uint32_t& id, Contention c, uint32_t blocker);
  // Sets the flit's gap to `gap` cycles: drops the oldest cycles, or (the NI
  // presented the flit late) adds `pad` cycles as the oldest. Returns the
  // cycles padded.
  uint64_t settle(uint32_t& id, uint64_t gap, Contention pad);
  void charge(uint32_t id, DelayAccount& to) const;  // adds the ledger's cycles
  void release(uint32_t& id);

 private:
  struct Run {
    uint64_t count;
    uint32_t blocker;
    Contention cls;
  };
  // Runs [first, end) of `runs`, oldest first. Kept whole (no merging): a
  // gap can hold many causes, and each cycle keeps its own. A released
  // ledger keeps a small capacity for the next flit (kKeptRuns), so steady
  // state allocates little.
  static constexpr size_t kKeptRuns = 8;
  struct Ledger {
    std::vector<Run> runs;
    size_t first = 0;
    uint64_t total = 0;
  };
  Ledger& acquire(uint32_t& id);
  std::vector<Ledger> pool_;
  std::vector<uint32_t> free_;
};

}  // namespace wn
