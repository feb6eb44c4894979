// Where blocks live in node memory (layout in torus_exchange.h) and the
// Schedule IR of a movement. The order of the blocks inside a message is free
// (sender and receiver agree on it), so it is chosen for short range lists
// (what holds a large torus's schedule in memory): first the blocks that reach
// their destination for good, by source (the receiver puts them straight into
// OUT[source]), then the others. The receiver keeps those in SCRATCH in key
// order (a contiguous free run when there is one), because a later step
// selects blocks by bits of their destination: runs of equal length at a fixed
// period, which with one-word blocks are a few strided ranges read position by
// position. They are sent in key order (one range for the receiver) or in that
// strided order of the sender's slots, whichever gives the fewer ranges on
// both sides: a d = 6 T2 schedule of one-word blocks holds 23.9 M ranges
// instead of the 44.3 M of key order alone. Slots freed by a step's send are
// reusable by the same step's receive: the interpreter gathers a message when
// it issues the send, before any receive of the step completes.
#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "algorithms/families/torus_exchange/torus_exchange.h"

namespace wn::alg {

namespace {

// Free slots of one node's SCRATCH: start -> length, plus the high-water mark.
class SlotPool {
 public:
  explicit SlotPool(uint32_t base) : top_(base) {}
  void release(uint32_t slot) {
    auto next = free_.lower_bound(slot);
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == slot) {
        ++prev->second;
        if (next != free_.end() && next->first == slot + 1) {
          prev->second += next->second;
          free_.erase(next);
        }
        return;
      }
    }
    if (next != free_.end() && next->first == slot + 1) {
      const uint32_t len = next->second + 1;
      free_.erase(next);
      free_[slot] = len;
      return;
    }
    free_[slot] = 1;
  }
  // `count` slots: the first free run long enough, else free runs in order, then new slots.
  std::vector<uint32_t> take(uint32_t count) {
    std::vector<uint32_t> out;
    for (auto it = free_.begin(); it != free_.end(); ++it)
      if (it->second >= count) {
        for (uint32_t i = 0; i < count; ++i) out.push_back(it->first + i);
        if (it->second > count) free_[it->first + count] = it->second - count;
        free_.erase(it);
        return out;
      }
    while (out.size() < count && !free_.empty()) {
      auto it = free_.begin();
      const uint32_t use = std::min(it->second, count - uint32_t(out.size()));
      for (uint32_t i = 0; i < use; ++i) out.push_back(it->first + i);
      if (it->second > use) free_[it->first + use] = it->second - use;
      free_.erase(it);
    }
    while (out.size() < count) out.push_back(top_++);
    return out;
  }
  uint32_t top() const { return top_; }

 private:
  std::map<uint32_t, uint32_t> free_;
  uint32_t top_;
};

// Slots (in this order) -> word ranges, into `out` if given; returns how many. A slot continues a
// range when it is the next one, and with one-word blocks also at a fixed step (a second slot sets it).
size_t merge_ranges(const std::vector<uint32_t>& slots, uint32_t words, std::vector<Range>* out) {
  size_t n = 0;
  Range b;
  for (uint32_t s : slots) {
    const bool extends = n > 0 && (words > 1      ? b.offset + b.count == s * words
                                   : b.count == 1 ? s > b.offset
                                                  : s == b.offset + b.count * b.stride);
    if (extends) {
      if (words == 1 && b.count == 1) b.stride = s - b.offset;
      b.count += words;
      continue;
    }
    if (out && n > 0) out->push_back(b);
    b = {s * words, words, 1};
    ++n;
  }
  if (out && n > 0) out->push_back(b);
  return n;
}

std::vector<Range> ranges(const std::vector<uint32_t>& slots, uint32_t words) {
  std::vector<Range> out;
  out.reserve(merge_ranges(slots, words, nullptr));
  merge_ranges(slots, words, &out);
  return out;
}

// Sorted slots -> the order to send them in (indices into `sorted`), for short range lists: runs
// of consecutive slots, and a stretch of m > len runs of equal length `len` at a fixed period taken
// position by position (slot j of every run, then j + 1, ...) when blocks are one word (a strided
// range each; a wider block is more than one word, which a strided range cannot hold).
std::vector<uint32_t> strided_order(const std::vector<uint32_t>& sorted, uint32_t words) {
  std::vector<uint32_t> out;
  out.reserve(sorted.size());
  struct Run {
    uint32_t first, len;  // index into sorted, slots
  };
  std::vector<Run> runs;
  for (uint32_t i = 0; i < sorted.size(); ++i)
    if (!runs.empty() && sorted[runs.back().first] + runs.back().len == sorted[i])
      ++runs.back().len;
    else
      runs.push_back({i, 1});
  for (size_t i = 0; i < runs.size();) {
    size_t j = i + 1;
    if (words == 1 && j < runs.size()) {
      const uint32_t len = runs[i].len, period = sorted[runs[j].first] - sorted[runs[i].first];
      while (j < runs.size() && runs[j].len == len && sorted[runs[j].first] - sorted[runs[j - 1].first] == period) ++j;
    }
    if (j - i > runs[i].len) {
      for (uint32_t k = 0; k < runs[i].len; ++k)
        for (size_t r = i; r < j; ++r) out.push_back(runs[r].first + k);
      i = j;
    } else {
      for (uint32_t k = 0; k < runs[i].len; ++k) out.push_back(runs[i].first + k);
      ++i;
    }
  }
  return out;
}

// The order to send a message's blocks in transit in (indices into `transit`: (sender's slot,
// key) in key order, which the receiver keeps). In key order the receiver writes one range; in the
// strided order of the sender's slots the sender reads fewer and the receiver more: whichever
// gives the fewer on both sides together.
std::vector<uint32_t> transit_order(const std::vector<std::pair<uint32_t, uint32_t>>& transit, uint32_t words) {
  std::vector<uint32_t> key_order(transit.size()), by_slot(transit.size()), key_slots, sorted, strided_slots;
  for (uint32_t t = 0; t < key_order.size(); ++t) key_order[t] = by_slot[t] = t;
  for (const auto& b : transit) key_slots.push_back(b.first);
  std::sort(by_slot.begin(), by_slot.end(),
            [&](uint32_t x, uint32_t y) { return transit[x].first < transit[y].first; });
  for (uint32_t t : by_slot) sorted.push_back(transit[t].first);
  std::vector<uint32_t> strided;  // indices into transit = the blocks' ranks in key order
  for (uint32_t i : strided_order(sorted, words)) strided.push_back(by_slot[i]);
  for (uint32_t t : strided) strided_slots.push_back(transit[t].first);
  const size_t as_strided = merge_ranges(strided_slots, words, nullptr) + merge_ranges(strided, 1, nullptr);
  return as_strided < merge_ranges(key_slots, words, nullptr) + 1 ? strided : key_order;
}

struct Held {
  uint32_t key, slot;
  bool operator<(const Held& o) const { return key < o.key; }
};

}  // namespace

Schedule torus_schedule(const std::string& name, const TorusPlan& plan, const Topology& topo, TorusMode mode,
                        uint32_t words) {
  const std::vector<uint16_t> last_move = torus_move_blocks(plan, topo, mode);
  const size_t S = plan.steps.size();
  const int n = int(plan.steps.front().roles.size());
  const uint32_t N = uint32_t(n);
  Schedule s;
  s.algorithm = name;
  s.nodes = n;
  s.steps = int(S);
  s.programs.resize(static_cast<size_t>(n));
  std::vector<std::vector<Held>> held(static_cast<size_t>(n));
  std::vector<SlotPool> pool(size_t(n), SlotPool(2 * N));
  for (uint32_t u = 0; u < N; ++u)
    for (uint32_t t = 0; t < N; ++t) held[u].push_back({t * N + u, t});  // IN[t]
  auto step_of = [&](int u, uint32_t tag) -> Step& {
    auto& prog = s.programs[size_t(u)];
    if (prog.empty() || prog.back().tag != tag) {
      prog.emplace_back();
      prog.back().tag = tag;
    }
    return prog.back();
  };
  std::vector<std::vector<uint32_t>> message(static_cast<size_t>(n));  // this step's keys, in message order
  torus_move_blocks(plan, topo, mode, [&](size_t k, const std::vector<std::vector<uint32_t>>& sent) {
    const uint32_t tag = uint32_t(k);
    const auto final_here = [&](uint32_t key) { return last_move[key] == k; };
    for (int u = 0; u < n; ++u) {
      const auto& keys = sent[size_t(u)];
      auto& order = message[size_t(u)];
      order.clear();
      if (keys.empty()) continue;
      std::vector<Held> keep;
      std::vector<std::pair<uint32_t, uint32_t>> transit;  // (slot, key)
      std::vector<uint32_t> slots;                         // in message order
      size_t i = 0;
      for (const Held& h : held[size_t(u)]) {
        if (i < keys.size() && keys[i] == h.key) {
          ++i;
          if (final_here(h.key)) {  // key order: by source, as OUT[source] at the receiver
            order.push_back(h.key);
            slots.push_back(h.slot);
          } else {
            transit.emplace_back(h.slot, h.key);
          }
        } else {
          keep.push_back(h);
        }
      }
      if (i != keys.size()) throw std::logic_error("torus-exchange: node sends a block it does not hold");
      held[size_t(u)].swap(keep);
      for (uint32_t m : transit_order(transit, words)) {
        slots.push_back(transit[m].first);
        order.push_back(transit[m].second);
      }
      const int v = plan.steps[k].roles[size_t(u)].partner;
      step_of(u, tag).sends.push_back({v, ranges(slots, words), tag, -1});
      for (uint32_t slot : slots)
        if (slot >= 2 * N) pool[size_t(u)].release(slot);  // IN stays as it was (the oracle says so)
    }
    for (int u = 0; u < n; ++u) {
      const auto& order = message[size_t(u)];
      if (order.empty()) continue;
      const int v = plan.steps[k].roles[size_t(u)].partner;
      // Blocks in transit go to fresh slots in key order (a later step selects by destination: runs
      // at a fixed period), whatever order the message has.
      std::vector<std::pair<uint32_t, uint32_t>> transit;  // (key, index in the message)
      for (uint32_t m = 0; m < order.size(); ++m)
        if (!final_here(order[m])) transit.emplace_back(order[m], m);
      std::sort(transit.begin(), transit.end());
      const std::vector<uint32_t> fresh = pool[size_t(v)].take(uint32_t(transit.size()));
      std::vector<uint32_t> slots(order.size());
      for (size_t t = 0; t < transit.size(); ++t) slots[transit[t].second] = fresh[t];
      std::vector<Held> in;
      for (uint32_t m = 0; m < order.size(); ++m) {
        const uint32_t key = order[m];
        if (final_here(key)) {
          if (key / N != uint32_t(v))
            throw std::logic_error("torus-exchange: a block's last move misses its destination");
          slots[m] = N + key % N;  // OUT[source]
        }
        in.push_back({key, slots[m]});
      }
      std::sort(in.begin(), in.end());
      std::vector<Held> merged(held[size_t(v)].size() + in.size());
      std::merge(held[size_t(v)].begin(), held[size_t(v)].end(), in.begin(), in.end(), merged.begin());
      held[size_t(v)].swap(merged);
      step_of(v, tag).recvs.push_back({u, ranges(slots, words), tag, {}});
    }
  });
  // A block that never moves is the node's own, kept in place (T2, keep mode):
  // copied IN -> OUT before the node's first send.
  // Each node's memory ends at its own scratch top: the heavy nodes of T1.x hold 2^x N blocks
  // at once, most nodes far fewer (d = 6, x = 3: 4.2 N blocks per node on average, 9.9 N at most).
  uint64_t top = 2 * N;
  s.node_words.resize(N);
  for (uint32_t u = 0; u < N; ++u) {
    const uint64_t own = std::max<uint64_t>(2 * N, pool[u].top());
    top = std::max(top, own);
    if (own * words <= UINT32_MAX) s.node_words[u] = uint32_t(own * words);
    if (last_move[u * N + u] != kTorusNever) continue;
    auto& prog = s.programs[u];
    if (prog.empty() || prog.front().tag != 0) prog.insert(prog.begin(), Step{});
    prog.front().locals.push_back({{{u * words, words}}, {{(N + u) * words, words}}, {}});
  }
  if (top * words > UINT32_MAX) throw std::logic_error("torus-exchange: node memory beyond 32-bit addresses");
  s.memory_words = uint32_t(top * words);
  const uint32_t in_end = N * words, out_end = 2 * N * words;
  s.initial = [n, words, in_end](int u, uint32_t a) {
    return a < in_end ? exchange_word(u, a / words, a % words, n, words) : exchange_scratch(u, a);
  };
  s.expected = [n, words, in_end, out_end](int u, uint32_t a) -> std::optional<Word> {
    if (a < in_end) return exchange_word(u, a / words, a % words, n, words);
    if (a < out_end) return exchange_word(int((a - in_end) / words), uint32_t(u), (a - in_end) % words, n, words);
    return std::nullopt;  // SCRATCH
  };
  return s;
}

}  // namespace wn::alg
