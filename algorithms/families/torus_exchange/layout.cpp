// Where blocks live in node memory (layout in torus_exchange.h) and the
// Schedule IR of a movement. A message gathers its blocks in key order
// (destination-major) from wherever the sender keeps them; the receiver puts a
// block that has reached its destination for good straight into OUT[source],
// and every other block into SCRATCH, a contiguous free run when there is one
// (so later messages gather few ranges). Slots freed by a step's send are
// reusable by the same step's receive: the interpreter gathers a message when
// it issues the send, before any receive of the step completes.
#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

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

// Slots (in order) -> word ranges, consecutive slots merged.
std::vector<Range> ranges(const std::vector<uint32_t>& slots, uint32_t words) {
  std::vector<Range> out;
  for (uint32_t s : slots) {
    if (!out.empty() && out.back().offset + out.back().count == s * words)
      out.back().count += words;
    else
      out.push_back({s * words, words, 1});
  }
  return out;
}

struct Held {
  uint32_t key, slot;
  bool operator<(const Held& o) const { return key < o.key; }
};

}  // namespace

Schedule torus_schedule(const std::string& name, const TorusPlan& plan, const TorusMovement& mv, uint32_t words) {
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
  for (size_t k = 0; k < S; ++k) {
    const uint32_t tag = uint32_t(k);
    for (int u = 0; u < n; ++u) {
      const auto& keys = mv.sent[k][size_t(u)];
      if (keys.empty()) continue;
      std::vector<Held> keep;
      std::vector<uint32_t> slots;
      size_t i = 0;
      for (const Held& h : held[size_t(u)]) {
        if (i < keys.size() && keys[i] == h.key) {
          slots.push_back(h.slot);
          ++i;
        } else {
          keep.push_back(h);
        }
      }
      if (i != keys.size()) throw std::logic_error("torus-exchange: node sends a block it does not hold");
      held[size_t(u)].swap(keep);
      const int v = plan.steps[k].roles[size_t(u)].partner;
      step_of(u, tag).sends.push_back({v, ranges(slots, words), tag, -1});
      for (uint32_t slot : slots)
        if (slot >= 2 * N) pool[size_t(u)].release(slot);  // IN stays as it was (the oracle says so)
    }
    for (int u = 0; u < n; ++u) {
      const auto& keys = mv.sent[k][size_t(u)];
      if (keys.empty()) continue;
      const int v = plan.steps[k].roles[size_t(u)].partner;
      uint32_t transit = 0;
      for (uint32_t key : keys) transit += mv.last_move[key] != k;
      const std::vector<uint32_t> fresh = pool[size_t(v)].take(transit);
      std::vector<Held> in;
      std::vector<uint32_t> slots;
      size_t j = 0;
      for (uint32_t key : keys) {
        uint32_t slot;
        if (mv.last_move[key] == k) {
          if (key / N != uint32_t(v))
            throw std::logic_error("torus-exchange: a block's last move misses its destination");
          slot = N + key % N;  // OUT[source]
        } else {
          slot = fresh[j++];
        }
        in.push_back({key, slot});
        slots.push_back(slot);
      }
      std::vector<Held> merged(held[size_t(v)].size() + in.size());
      std::merge(held[size_t(v)].begin(), held[size_t(v)].end(), in.begin(), in.end(), merged.begin());
      held[size_t(v)].swap(merged);
      step_of(v, tag).recvs.push_back({u, ranges(slots, words), tag, {}});
    }
  }
  // A block that never moves is the node's own, kept in place (T2, keep mode):
  // copied IN -> OUT before the node's first send.
  uint64_t top = 2 * N;
  for (uint32_t u = 0; u < N; ++u) {
    top = std::max<uint64_t>(top, pool[u].top());
    if (mv.last_move[u * N + u] != TorusMovement::kNever) continue;
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
