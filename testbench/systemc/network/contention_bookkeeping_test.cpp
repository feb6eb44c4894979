// The contention monitor's bookkeeping against plain references, under long
// random sequences: a flit's delay ledger (inline in its handle or in the
// pool, with cycle counts past what a handle holds) and the per-packet table of the packets in
// flight (the blocker tally charged in runs of cycles: blocker_tally_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "systemc/network/delay_ledger.h"
#include "systemc/network/packet_table.h"

namespace wn {
namespace {

// A ledger as the delay view defines it: cycles with their cause, oldest first.
struct ReferenceLedger {
  struct Run {
    uint64_t count;
    uint32_t blocker;
    Contention cls;
  };
  std::deque<Run> runs;
  uint64_t total() const {
    uint64_t t = 0;
    for (const Run& r : runs) t += r.count;
    return t;
  }
  void stall(Contention c, uint32_t b, uint64_t n) { runs.push_back({n, b, c}); }
  uint64_t settle(uint64_t gap, Contention pad) {
    const uint64_t t = total();
    if (t < gap) {
      runs.push_front({gap - t, kNoBlocker, pad});
      return gap - t;
    }
    for (uint64_t drop = t - gap; drop > 0;) {
      const uint64_t d = std::min(drop, runs.front().count);
      runs.front().count -= d;
      drop -= d;
      if (runs.front().count == 0) runs.pop_front();
    }
    return 0;
  }
  void charge(DelayAccount& to) const {
    for (const Run& r : runs) to.add(r.cls, r.blocker, r.count);
  }
};

TEST(LedgerPool, MatchesTheDefinitionOnRandomSequences) {
  std::mt19937_64 rng(7);
  LedgerPool pool;
  constexpr int kFlits = 40;
  std::vector<uint64_t> handles(kFlits, 0);
  std::vector<ReferenceLedger> refs(kFlits);
  auto cycles = [&] {
    switch (rng() % 8) {
      case 0:
        return uint64_t{300'000'000} + rng() % 1000;  // two of them pass what a handle holds
      case 1:
        return uint64_t{1} + rng() % 50;
      default:
        return uint64_t{1} + rng() % 3;
    }
  };
  for (int step = 0; step < 200'000; ++step) {
    const size_t f = size_t(rng() % kFlits);
    const int op = int(rng() % 10);
    if (op < 5) {
      // Few causes, so that runs repeat and merge.
      const Contention c = Contention(rng() % 4);
      const uint32_t b = c == Contention::Flow ? kNoBlocker : uint32_t(rng() % 3);
      const uint64_t n = cycles();
      pool.stall(handles[f], c, b, n);
      refs[f].stall(c, b, n);
    } else if (op < 9) {
      const uint64_t t = refs[f].total();
      const uint64_t gap = rng() % 3 == 0 ? t + rng() % 5 : t == 0 ? 0 : rng() % (t + 1);
      const Contention pad = rng() % 2 ? Contention::Flow : Contention::Port;
      ASSERT_EQ(pool.settle(handles[f], gap, pad), refs[f].settle(gap, pad)) << "step " << step;
    } else {
      DelayAccount got, want;
      pool.charge(handles[f], got);
      refs[f].charge(want);
      ASSERT_EQ(got.cycles, want.cycles) << "step " << step;
      ASSERT_EQ(got.blockers, want.blockers) << "step " << step;
      pool.release(handles[f]);
      refs[f].runs.clear();
      EXPECT_EQ(handles[f], 0u);
    }
  }
}

TEST(PacketTable, FindsWhatItHoldsAcrossGrowthAndErasure) {
  std::mt19937_64 rng(13);
  PacketTable<uint64_t> table;
  std::map<uint32_t, uint64_t> want;
  uint32_t next = 0;
  for (int i = 0; i < 300'000; ++i) {
    const int op = int(rng() % 3);
    if (op == 0 || want.empty()) {  // a new packet, ids mostly in order, some far apart
      const uint32_t id = rng() % 50 == 0 ? uint32_t(rng()) : next++;
      table.at(id) = id * 3 + 1;
      want[id] = id * 3 + 1;
    } else {
      auto it = want.lower_bound(uint32_t(rng() % (next + 1)));
      if (it == want.end()) it = want.begin();
      if (op == 1) {
        uint64_t* v = table.find(it->first);
        ASSERT_NE(v, nullptr);
        EXPECT_EQ(*v, it->second);
      } else {
        table.erase(it->first);
        EXPECT_EQ(table.find(it->first), nullptr);
        want.erase(it);
      }
    }
  }
  size_t n = 0;
  table.for_each([&](uint32_t id, uint64_t v) {
    ++n;
    EXPECT_EQ(want.at(id), v);
  });
  EXPECT_EQ(n, want.size());
}

}  // namespace
}  // namespace wn
