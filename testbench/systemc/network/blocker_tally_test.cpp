// A channel's blockers are kept as the reports rank them (the largest counts, ties to the lower
// packet id) while the counts that can no longer grow are dropped: the tally must give the same
// top kTopBlockers as counting every (blocker, cycle) pair, however the charges interleave.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "systemc/network/blocker_tally.h"

namespace wn {
namespace {

// The reports' ranking of a full count map (experiments/collective_report_util.h top_blockers).
std::map<uint32_t, uint64_t> top_of(const std::map<uint32_t, uint64_t>& all) {
  std::vector<std::pair<uint32_t, uint64_t>> v(all.begin(), all.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (v.size() > kTopBlockers) v.resize(kTopBlockers);
  return {v.begin(), v.end()};
}

// Packets block for a while and are then done (final), a few at a time, as in a network: each
// makes up to `charges` charges of cycles(rng) cycles. Expects the tally's top to be the reports'
// ranking of the full counts.
template <class Rng, class Cycles>
void expect_top_of_full_counts(Rng& rng, uint32_t packets, uint32_t charges, Cycles cycles, int round) {
  std::vector<uint32_t> left(packets);  // charges each packet still makes
  for (auto& n : left) n = uint32_t(rng() % charges);
  std::vector<uint8_t> done(packets, 0);
  std::map<uint32_t, uint64_t> full;
  BlockerTally t;
  auto is_final = [&](uint32_t pid) { return done[pid] != 0; };
  uint32_t next = 0;
  std::vector<uint32_t> active;
  while (next < packets || !active.empty()) {
    while (next < packets && active.size() < 1 + rng() % 12) active.push_back(next++);
    const size_t i = size_t(rng() % active.size());
    const uint32_t pid = active[i];
    if (left[pid] == 0) {
      done[pid] = 1;
      active.erase(active.begin() + std::ptrdiff_t(i));
      continue;
    }
    --left[pid];
    const uint64_t n = cycles(rng);
    full[pid] += n;
    if (n == 1)
      t.charge(pid, is_final);
    else
      t.charge(pid, n, is_final);
  }
  EXPECT_EQ(t.top(), top_of(full)) << "round " << round;
}

TEST(BlockerTally, KeepsTheLargestCountsAsAFullCountWould) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round)
    expect_top_of_full_counts(
        rng, 1 + rng() % 300, round % 2 ? 4 : 40, [](std::mt19937&) { return uint64_t{1}; }, round);
}

// The monitor charges a blocker's cycles in runs (a victim's edges with one cause): the tally must
// still give the reports' top kTopBlockers of the full counts.
TEST(BlockerTally, ChargesOfManyCyclesRankAsAFullCount) {
  std::mt19937_64 rng(11);
  auto cycles = [](std::mt19937_64& r) { return 1 + r() % (r() % 4 == 0 ? 1000 : 3); };
  for (int round = 0; round < 100; ++round) expect_top_of_full_counts(rng, 1 + uint32_t(rng() % 400), 8, cycles, round);
}

TEST(BlockerTally, TiesGoToTheLowerId) {
  // One cycle each, the higher ids first and done before the next is charged.
  BlockerTally t;
  uint32_t charged = 41;
  auto is_final = [&charged](uint32_t pid) { return pid > charged; };
  for (uint32_t pid = 40; pid > 0; --pid) {
    charged = pid;
    t.charge(pid, is_final);
  }
  const std::map<uint32_t, uint64_t> want = {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}};
  EXPECT_EQ(t.top(), want);
}

}  // namespace
}  // namespace wn
