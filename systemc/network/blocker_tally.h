// The packets that blocked one output and for how many cycles, as the resource view's reports
// show them: the kTopBlockers largest counts (ties: the lower packet id first, as the reports rank
// them). Keeping every (output, blocker) pair of a run cost ~440 bytes per message (a
// std::map node per pair, ~9 pairs per message of an all-to-all): the tally keeps the counts
// that can still grow, and of the final ones (the caller says which: a blocker that can never
// be charged again) only those that can still be among the largest.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace wn {

// Enough for every report (the run JSON lists 5 per channel).
constexpr size_t kTopBlockers = 5;

class BlockerTally {
 public:
  // `cycles` cycles blocked by `pid`, which `is_final(pid)` must not call final yet.
  template <class Final>
  void charge(uint32_t pid, uint64_t cycles, const Final& is_final) {
    // The blocker charged last is usually charged again: search from the back.
    for (auto it = live_.rbegin(); it != live_.rend(); ++it)
      if (it->first == pid) {
        it->second += cycles;
        return;
      }
    live_.emplace_back(pid, cycles);
    if (live_.size() >= settle_at_) settle(is_final);
  }
  template <class Final>
  void charge(uint32_t pid, const Final& is_final) {
    charge(pid, 1, is_final);
  }
  // The kTopBlockers largest counts by packet id (all counts final or not).
  std::map<uint32_t, uint64_t> top() const {
    std::vector<Count> all = top_;
    all.insert(all.end(), live_.begin(), live_.end());
    keep_largest(all);
    return {all.begin(), all.end()};
  }

 private:
  using Count = std::pair<uint32_t, uint64_t>;  // packet id, cycles
  static bool ahead(const Count& a, const Count& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  }
  static void keep_largest(std::vector<Count>& v) {
    if (v.size() <= kTopBlockers) return;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(kTopBlockers - 1), v.end(), ahead);
    v.resize(kTopBlockers);
  }
  // A final count behind kTopBlockers other final ones stays behind them: it can go.
  template <class Final>
  void settle(const Final& is_final) {
    size_t k = 0;
    for (const Count& c : live_) {
      if (is_final(c.first))
        top_.push_back(c);
      else
        live_[k++] = c;
    }
    live_.resize(k);
    keep_largest(top_);
    settle_at_ = std::max<size_t>(kSettleAt, 2 * live_.size());  // amortized: O(1) per new blocker
  }
  static constexpr size_t kSettleAt = 16;
  std::vector<Count> live_;  // counts that may still grow
  std::vector<Count> top_;   // final counts, at most kTopBlockers
  size_t settle_at_ = kSettleAt;
};

}  // namespace wn
