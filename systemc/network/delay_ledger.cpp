#include "systemc/network/delay_ledger.h"

#include <algorithm>

namespace wn {

const char* contention_name(Contention c) {
  switch (c) {
    case Contention::Stepwise: return "stepwise";
    case Contention::Depth: return "depth";
    case Contention::Port: return "port";
    case Contention::Flow: return "flow";
  }
  return "?";
}

void DelayAccount::add(Contention c, uint32_t blocker, uint64_t n) {
  if (n == 0) return;
  cycles[size_t(c)] += n;
  if (blocker == kNoBlocker) return;
  for (auto& b : blockers)
    if (b.first == blocker) {
      b.second += n;
      return;
    }
  blockers.emplace_back(blocker, n);
}

void DelayAccount::add(const DelayAccount& o) {
  for (int c = 0; c < kContentionClasses; ++c) cycles[size_t(c)] += o.cycles[size_t(c)];
  for (const auto& [b, n] : o.blockers) {
    // Class does not matter here: the blocker list is by packet only.
    auto it = std::find_if(blockers.begin(), blockers.end(), [b = b](const auto& x) { return x.first == b; });
    if (it == blockers.end()) blockers.emplace_back(b, n);
    else it->second += n;
  }
}

void LedgerPool::stall(uint32_t& id, Contention c, uint32_t blocker) {
  if (id == 0) {
    if (free_.empty()) {
      id = uint32_t(pool_.size());
      pool_.emplace_back();
    } else {
      id = free_.back();
      free_.pop_back();
    }
    pool_[id].n = 0;
    pool_[id].total = 0;
  }
  Ledger& l = pool_[id];
  ++l.total;
  if (l.n > 0 && l.runs[size_t(l.n - 1)].cls == c && l.runs[size_t(l.n - 1)].blocker == blocker) {
    ++l.runs[size_t(l.n - 1)].count;
    return;
  }
  if (l.n == kRuns) {  // the two oldest runs become one, under the newer cause
    l.runs[1].count += l.runs[0].count;
    std::copy(l.runs.begin() + 1, l.runs.end(), l.runs.begin());
    --l.n;
  }
  l.runs[size_t(l.n++)] = {1, blocker, c};
}

uint64_t LedgerPool::settle(uint32_t& id, uint64_t gap, Contention pad) {
  const uint64_t total = id ? pool_[id].total : 0;
  if (total == gap) return 0;
  if (total < gap) {
    const uint64_t missing = gap - total;
    if (id == 0) {
      stall(id, pad, kNoBlocker);
      pool_[id].runs[0].count = missing;
      pool_[id].total = missing;
      return missing;
    }
    Ledger& l = pool_[id];
    if (l.runs[0].cls == pad && l.runs[0].blocker == kNoBlocker) {
      l.runs[0].count += missing;
    } else {
      if (l.n == kRuns) {  // make room at the old end
        l.runs[1].count += l.runs[0].count;
        std::copy(l.runs.begin() + 1, l.runs.end(), l.runs.begin());
        --l.n;
      }
      std::copy_backward(l.runs.begin(), l.runs.begin() + l.n, l.runs.begin() + l.n + 1);
      l.runs[0] = {missing, kNoBlocker, pad};
      ++l.n;
    }
    l.total = gap;
    return missing;
  }
  if (gap == 0) {
    release(id);
    return 0;
  }
  Ledger& l = pool_[id];
  uint64_t drop = total - gap;
  int first = 0;
  while (drop > 0) {
    Run& r = l.runs[size_t(first)];
    const uint64_t d = std::min(drop, r.count);
    r.count -= d;
    drop -= d;
    if (r.count == 0) ++first;
  }
  std::copy(l.runs.begin() + first, l.runs.begin() + l.n, l.runs.begin());
  l.n -= first;
  l.total = gap;
  return 0;
}

void LedgerPool::charge(uint32_t id, DelayAccount& to) const {
  if (id == 0) return;
  const Ledger& l = pool_[id];
  for (int i = 0; i < l.n; ++i) to.add(l.runs[size_t(i)].cls, l.runs[size_t(i)].blocker, l.runs[size_t(i)].count);
}

void LedgerPool::release(uint32_t& id) {
  if (id == 0) return;
  free_.push_back(id);
  id = 0;
}

}  // namespace wn
