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
    case Contention::Memory:
      return "memory";
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

LedgerPool::Ledger& LedgerPool::acquire(uint64_t& h) {
  if (h != 0 && !is_inline(h)) return pool_[h];
  uint32_t id;
  if (free_.empty()) {
    id = uint32_t(pool_.size());
    pool_.emplace_back();
  } else {
    id = free_.back();
    free_.pop_back();
  }
  Ledger& l = pool_[id];
  if (h != 0) {
    l.open = {inline_count(h), inline_blocker(h), inline_class(h)};
    l.total = l.open.count;
  }
  h = id;
  return l;
}

void LedgerPool::stall(uint64_t& h, Contention c, uint32_t blocker, uint64_t cycles) {
  if (h == 0 && cycles <= kMaxInline) {
    h = make_inline(c, blocker, cycles);
    return;
  }
  if (is_inline(h) && inline_class(h) == c && inline_blocker(h) == blocker && inline_count(h) + cycles <= kMaxInline) {
    h = make_inline(c, blocker, inline_count(h) + cycles);
    return;
  }
  Ledger& l = acquire(h);
  l.total += cycles;
  if (l.open.count > 0) {
    if (l.open.cls == c && l.open.blocker == blocker) {
      l.open.count += cycles;
      return;
    }
    l.runs.push_back(l.open);
  }
  l.open = {cycles, blocker, c};
}

uint64_t LedgerPool::settle(uint64_t& h, uint64_t gap, Contention pad) {
  const uint64_t total = h == 0 ? 0 : is_inline(h) ? inline_count(h) : pool_[h].total;
  if (total == gap) return 0;
  if (total < gap) {  // the missing cycles are older than any stall: they go first
    const uint64_t missing = gap - total;
    if (h == 0 && missing <= kMaxInline) {
      h = make_inline(pad, kNoBlocker, missing);
      return missing;
    }
    if (is_inline(h) && inline_class(h) == pad && inline_blocker(h) == kNoBlocker && gap <= kMaxInline) {
      h = make_inline(pad, kNoBlocker, gap);
      return missing;
    }
    Ledger& l = acquire(h);
    const Run run{missing, kNoBlocker, pad};
    Run* oldest = l.runs.size() > l.first ? &l.runs[l.first] : l.open.count > 0 ? &l.open : nullptr;
    if (oldest && oldest->cls == pad && oldest->blocker == kNoBlocker)
      oldest->count += missing;
    else if (!oldest)
      l.open = run;
    else if (l.first > 0)
      l.runs[--l.first] = run;
    else
      l.runs.insert(l.runs.begin(), run);
    l.total = gap;
    return missing;
  }
  if (gap == 0) {
    release(h);
    return 0;
  }
  if (is_inline(h)) {  // one run: its newest `gap` cycles stay
    h = make_inline(inline_class(h), inline_blocker(h), gap);
    return 0;
  }
  Ledger& l = pool_[h];
  uint64_t drop = total - gap;
  while (drop > 0 && l.first < l.runs.size()) {
    Run& r = l.runs[l.first];
    const uint64_t d = std::min(drop, r.count);
    r.count -= d;
    drop -= d;
    if (r.count == 0) ++l.first;
  }
  l.open.count -= drop;  // less than it holds: gap > 0 cycles stay
  if (l.first == l.runs.size() && l.open.count <= kMaxInline) {
    // One run left, as most gaps end: back in the handle, the record free for the next.
    const uint64_t one = make_inline(l.open.cls, l.open.blocker, l.open.count);
    release(h);
    h = one;
    return 0;
  }
  if (l.first == l.runs.size()) {
    l.runs.clear();
    l.first = 0;
  } else if (2 * l.first > l.runs.size()) {  // keep the live runs at the front
    l.runs.erase(l.runs.begin(), l.runs.begin() + std::ptrdiff_t(l.first));
    l.first = 0;
  }
  l.total = gap;
  return 0;
}

void LedgerPool::charge(uint64_t h, DelayAccount& to) const {
  if (h == 0) return;
  if (is_inline(h)) {
    to.add(inline_class(h), inline_blocker(h), inline_count(h));
    return;
  }
  const Ledger& l = pool_[h];
  for (size_t i = l.first; i < l.runs.size(); ++i) to.add(l.runs[i].cls, l.runs[i].blocker, l.runs[i].count);
  if (l.open.count > 0) to.add(l.open.cls, l.open.blocker, l.open.count);
}

void LedgerPool::release(uint64_t& h) {
  if (h == 0) return;
  if (!is_inline(h)) {
    Ledger& l = pool_[h];
    l.runs.clear();
    // Long gaps are rare, but the capacity of the longest each pooled ledger ever held added up
    // (19.5 MB, 300 B per message, in a 16x16 all-to-all): only a small capacity is kept.
    if (l.runs.capacity() > kKeptRuns) std::vector<Run>().swap(l.runs);
    l.first = 0;
    l.total = 0;
    l.open.count = 0;
    free_.push_back(uint32_t(h));
  }
  h = 0;
}

}  // namespace wn
