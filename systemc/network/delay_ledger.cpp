#include "systemc/network/delay_ledger.h"

#include <algorithm>

namespace wn {

const char* contention_name(Contention c) {
  switch (c) {
    case Contention::Stepwise:
      return "stepwise";
    case Contention::Depth:
      return "depth";
    case Contention::Port:
      return "port";
    case Contention::Flow:
      return "flow";
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
    if (it == blockers.end())
      blockers.emplace_back(b, n);
    else
      it->second += n;
  }
}

LedgerPool::Ledger& LedgerPool::acquire(uint32_t& id) {
  if (id == 0) {
    if (free_.empty()) {
      id = uint32_t(pool_.size());
      pool_.emplace_back();
    } else {
      id = free_.back();
      free_.pop_back();
    }
  }
  return pool_[id];
}

void LedgerPool::stall(uint32_t& id, Contention c, uint32_t blocker) {
  Ledger& l = acquire(id);
  ++l.total;
  if (l.runs.size() > l.first && l.runs.back().cls == c && l.runs.back().blocker == blocker) {
    ++l.runs.back().count;
    return;
  }
  l.runs.push_back({1, blocker, c});
}

uint64_t LedgerPool::settle(uint32_t& id, uint64_t gap, Contention pad) {
  const uint64_t total = id ? pool_[id].total : 0;
  if (total == gap) return 0;
  if (total < gap) {  // the missing cycles are older than any stall: they go first
    const uint64_t missing = gap - total;
    Ledger& l = acquire(id);
    if (l.runs.size() > l.first && l.runs[l.first].cls == pad && l.runs[l.first].blocker == kNoBlocker)
      l.runs[l.first].count += missing;
    else if (l.first > 0)
      l.runs[--l.first] = {missing, kNoBlocker, pad};
    else
      l.runs.insert(l.runs.begin(), {missing, kNoBlocker, pad});
    l.total = gap;
    return missing;
  }
  if (gap == 0) {
    release(id);
    return 0;
  }
  Ledger& l = pool_[id];
  uint64_t drop = total - gap;
  while (drop > 0) {
    Run& r = l.runs[l.first];
    const uint64_t d = std::min(drop, r.count);
    r.count -= d;
    drop -= d;
    if (r.count == 0) ++l.first;
  }
  if (2 * l.first > l.runs.size()) {  // keep the live runs at the front
    l.runs.erase(l.runs.begin(), l.runs.begin() + std::ptrdiff_t(l.first));
    l.first = 0;
  }
  l.total = gap;
  return 0;
}

void LedgerPool::charge(uint32_t id, DelayAccount& to) const {
  if (id == 0) return;
  const Ledger& l = pool_[id];
  for (size_t i = l.first; i < l.runs.size(); ++i) to.add(l.runs[i].cls, l.runs[i].blocker, l.runs[i].count);
}

void LedgerPool::release(uint32_t& id) {
  if (id == 0) return;
  Ledger& l = pool_[id];
  l.runs.clear();
  // Long gaps are rare, but the capacity of the longest each pooled ledger ever held added up
  // (19.5 MB, 300 B per message, in a 16x16 all-to-all): only a small capacity is kept.
  if (l.runs.capacity() > kKeptRuns) std::vector<Run>().swap(l.runs);
  l.first = 0;
  l.total = 0;
  free_.push_back(id);
  id = 0;
}

}  // namespace wn
