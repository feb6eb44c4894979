// Test helpers of the torus-exchange tests: a timing-free symbolic run that
// decodes which blocks every message of a schedule carries from its payload
// words, so the tests count sizes, holdings and paths from the generated
// schedule, never from the family's own rules.
#pragma once
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "algorithms/families/torus_exchange/torus_exchange.h"
#include "algorithms/reference_run.h"
#include "algorithms/schedule_checker.h"
#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"
#include "systemc/core/config_error.h"
#include "testbench/algorithms/schedule_helpers.h"

namespace wn::fw::torus_test {

using alg::Word;

struct Msg {
  int src = 0, dst = 0;
  std::vector<uint32_t> blocks;  // s * N + t
};
// holder[s * N + t]: the node that holds B[s -> t] after the step.
using StepHook = std::function<void(uint32_t tag, const std::vector<Msg>&, const std::vector<int>& holder)>;

// A timing-free run of the schedule that decodes every message's blocks from
// its words (0x40000000 + (s N + t) m + o) and checks that a node only sends
// blocks it holds (no stale copies).
inline void trace(const alg::Schedule& s, uint32_t m, const StepHook& hook) {
  const int n = s.nodes;
  const uint32_t N = uint32_t(n);
  std::vector<std::vector<Word>> mem(size_t(n), std::vector<Word>(s.memory_words));
  for (int u = 0; u < n; ++u)
    for (uint32_t a = 0; a < s.memory_words; ++a) mem[size_t(u)][a] = s.initial(u, a);
  std::vector<int> holder(size_t(N) * N);
  for (uint32_t i = 0; i < N * N; ++i) holder[i] = int(i / N);
  std::vector<size_t> next(size_t(n), 0);
  auto gather = [](const std::vector<Word>& mm, const std::vector<alg::Range>& rs) {
    std::vector<Word> w;
    for (const auto& r : rs)
      for (uint32_t k = 0; k < r.count; ++k) w.push_back(mm[r.at(k)]);
    return w;
  };
  auto scatter = [](std::vector<Word>& mm, const std::vector<alg::Range>& rs, const std::vector<Word>& w) {
    size_t i = 0;
    for (const auto& r : rs)
      for (uint32_t k = 0; k < r.count; ++k) mm[r.at(k)] = w[i++];
  };
  for (uint32_t tag = 0; tag < uint32_t(s.steps); ++tag) {
    std::vector<const alg::Step*> st(size_t(n), nullptr);
    for (int u = 0; u < n; ++u) {
      const auto& p = s.programs[size_t(u)];
      if (next[size_t(u)] < p.size() && p[next[size_t(u)]].tag == tag) st[size_t(u)] = &p[next[size_t(u)]++];
    }
    for (int u = 0; u < n; ++u)
      if (st[size_t(u)])
        for (const auto& l : st[size_t(u)]->locals) scatter(mem[size_t(u)], l.dst, gather(mem[size_t(u)], l.src));
    std::vector<Msg> msgs;
    std::vector<std::vector<Word>> payload;
    for (int u = 0; u < n; ++u)
      if (st[size_t(u)])
        for (const auto& snd : st[size_t(u)]->sends) {
          Msg msg{u, snd.dst, {}};
          const auto w = gather(mem[size_t(u)], snd.src);
          for (size_t i = 0; i < w.size(); i += m) {
            const uint32_t idx = (w[i] - 0x40000000u) / m;
            for (uint32_t o = 0; o < m; ++o) ASSERT_EQ(w[i + o], 0x40000000u + idx * m + o) << "torn block";
            ASSERT_EQ(holder[idx], u) << "tag " << tag << ": node " << u << " sends a block it does not hold";
            msg.blocks.push_back(idx);
          }
          msgs.push_back(msg);
          payload.push_back(w);
        }
    for (int v = 0; v < n; ++v)
      if (st[size_t(v)])
        for (const auto& rc : st[size_t(v)]->recvs)
          for (size_t i = 0; i < msgs.size(); ++i)
            if (msgs[i].src == rc.src && msgs[i].dst == v) {
              scatter(mem[size_t(v)], rc.dst, payload[i]);
              for (uint32_t b : msgs[i].blocks) holder[b] = v;
            }
    hook(tag, msgs, holder);
  }
}

inline alg::Schedule build(const std::string& topo, const std::string& algo, uint32_t words,
                           const std::string& mode = "ideal") {
  alg::AlgorithmArgs a;
  a.words = words;
  return alg::make_schedule(algo, Topology::parse(topo), a, {{"--mode", mode}});
}

inline std::vector<uint64_t> rep(uint64_t v, int k) { return std::vector<uint64_t>(size_t(k), v); }
template <class T>
std::vector<T> cat(std::vector<T> a, const std::vector<T>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

inline std::vector<std::string> words(const std::string& row) {
  std::istringstream ss(row);
  std::vector<std::string> v;
  std::string w;
  while (ss >> w) v.push_back(w);
  return v;
}

inline std::string xy(const Topology& t, int u) {
  const auto c = t.coords(u);
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + ")";
}

}  // namespace wn::fw::torus_test
