// Bruck index, radix r, k-port (the paper's Section 3 and Appendix A; k ports:
// §3.4): Phase 1 rotates IN up by me into
// TMP, Phase 2 moves every block-id t by t ranks in radix-r digits (one round =
// up to k steps z of one subphase, consecutive), Phase 3 is the pseudocode's
// line 22, OUT[s] = TMP[(me - s) mod n] (a reversal and a rotation: the prose's
// rotation alone would leave the blocks in reverse order).
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "algorithms/bruck/bruck.h"
#include "algorithms/data_words.h"

namespace wn::alg::bruck {

namespace {

uint32_t mod(int64_t a, int n) { return uint32_t(((a % n) + n) % n); }

// w = ceil(log_r n) and r^(w-1), in 64 bits (r, n <= 2^12).
std::pair<int, uint64_t> digits(int n, int r) {
  int w = 0;
  uint64_t p = 1;
  while (p < uint64_t(n)) p *= uint64_t(r), ++w;
  return {w, w ? p / uint64_t(r) : 1};
}

// The word ranges of TMP offsets `runs` (blocks of m words from word `base`).
// Runs of one step are evenly spaced; when there are more runs than words in
// a run, one strided range per word position of a run says the same in far
// fewer ranges (r = 2 on 4096 ranks: 2048 runs of one block). Send and receive
// use the same list, so the words land where they came from.
std::vector<Range> tmp_ranges(const std::vector<std::pair<uint32_t, uint32_t>>& runs, uint32_t base, uint32_t m) {
  std::vector<Range> out;
  size_t full = runs.size();
  const uint32_t len = runs.empty() ? 0 : runs[0].second - runs[0].first;
  while (full > 0 && runs[full - 1].second - runs[full - 1].first != len) --full;
  const uint64_t run_words = uint64_t(len) * m;
  if (full >= 2 && run_words < full) {
    const uint32_t period = (runs[1].first - runs[0].first) * m;
    for (uint32_t j = 0; j < run_words; ++j) out.push_back({base + runs[0].first * m + j, uint32_t(full), period});
    for (size_t i = full; i < runs.size(); ++i)
      out.push_back({base + runs[i].first * m, (runs[i].second - runs[i].first) * m, 1});
    return out;
  }
  for (const auto& [b, e] : runs) out.push_back({base + b * m, (e - b) * m, 1});
  return out;
}

}  // namespace

std::vector<std::vector<IndexStep>> index_rounds(int n, int r, int k) {
  const auto [w, top] = digits(n, r);
  std::vector<std::vector<IndexStep>> rounds;
  uint64_t dist = 1;
  for (int x = 0; x < w; ++x, dist *= uint64_t(r)) {
    const int h = x < w - 1 ? r : int((uint64_t(n) + dist - 1) / dist);
    for (int z = 1; z < h; z += k) {
      rounds.emplace_back();
      for (int zz = z; zz < std::min(h, z + k); ++zz) rounds.back().push_back({x, zz, uint32_t(dist)});
    }
  }
  return rounds;
}

std::vector<std::pair<uint32_t, uint32_t>> index_offsets(int n, int r, uint32_t dist, int z) {
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  const uint64_t period = uint64_t(r) * dist;
  for (uint64_t b = uint64_t(z) * dist; b < uint64_t(n); b += period)
    runs.push_back({uint32_t(b), uint32_t(std::min<uint64_t>(b + dist, uint64_t(n)))});
  return runs;
}

int index_c1(int n, int r, int k) {
  const auto [w, top] = digits(n, r);
  const int h = int((uint64_t(n) + top - 1) / top);
  return (w - 1) * ((r - 1 + k - 1) / k) + (h - 1 + k - 1) / k;
}

uint64_t index_c2_blocks(int n, int r, int k) {
  uint64_t c2 = 0;
  for (const auto& round : index_rounds(n, r, k)) {
    uint64_t most = 0;
    for (const IndexStep& s : round) {
      uint64_t cnt = 0;
      for (const auto& [b, e] : index_offsets(n, r, s.dist, s.z)) cnt += e - b;
      most = std::max(most, cnt);
    }
    c2 += most;
  }
  return c2;
}

RadixChoice choose_radix(int n, int k, uint32_t words, double beta, double tau_per_word) {
  RadixChoice best;
  best.cycles = std::numeric_limits<double>::infinity();
  auto cost = [&](int r) { return index_c1(n, r, k) * beta + double(index_c2_blocks(n, r, k)) * words * tau_per_word; };
  for (int r = 2; r <= n; ++r)
    if (const double t = cost(r); t < best.cycles) best.r = r, best.cycles = t;
  best.why = fmt::format(
      "--radix auto: r = {} minimises C1*beta + C2*m*tau over r = 2..{} (beta = {:.0f} cycles, tau = {:.3g} "
      "cycles/word, m = {} words): C1 = {}, C2 = {} blocks, {:.0f} cycles; r = 2: {:.0f}, r = n: {:.0f}",
      best.r, n, beta, tau_per_word, words, index_c1(n, best.r, k), index_c2_blocks(n, best.r, k), best.cycles, cost(2),
      cost(n));
  return best;
}

Schedule build_index(int n, int r, int k, uint32_t m) {
  const auto rounds = index_rounds(n, r, k);
  const uint32_t out_base = uint32_t(n) * m, tmp_base = 2 * uint32_t(n) * m;
  Schedule s;
  s.algorithm = "bruck-index";
  s.nodes = n;
  s.steps = int(rounds.size());
  s.memory_words = 3 * uint32_t(n) * m;
  s.programs.resize(size_t(n));
  // The offset runs of every (x, z) are the same on every rank: computed once.
  std::vector<std::vector<std::vector<Range>>> ranges(rounds.size());
  for (size_t t = 0; t < rounds.size(); ++t)
    for (const IndexStep& st : rounds[t])
      ranges[t].push_back(tmp_ranges(index_offsets(n, r, st.dist, st.z), tmp_base, m));
  for (int me = 0; me < n; ++me) {
    auto& prog = s.programs[size_t(me)];
    for (size_t t = 0; t < rounds.size(); ++t) {
      Step step;
      step.tag = uint32_t(t);
      if (t == 0) {  // Phase 1: TMP[t] = IN[(me + t) mod n]
        LocalOp rot;
        rot.src = {{uint32_t(me) * m, uint32_t(n - me) * m}};
        if (me) rot.src.push_back({0, uint32_t(me) * m});
        rot.dst = {{tmp_base, uint32_t(n) * m}};
        step.locals.push_back(std::move(rot));
      }
      for (size_t j = 0; j < rounds[t].size(); ++j) {
        const int64_t shift = int64_t(rounds[t][j].z) * rounds[t][j].dist;
        step.sends.push_back({int(mod(me + shift, n)), ranges[t][j], uint32_t(t), -1});
        step.recvs.push_back({int(mod(me - shift, n)), ranges[t][j], uint32_t(t), {}});
      }
      if (t + 1 == rounds.size()) {  // Phase 3: OUT[q] = TMP[(me - q) mod n]
        LocalOp rev;
        for (int q = 0; q < n; ++q) rev.src.push_back({tmp_base + mod(me - q, n) * m, m});
        rev.dst = {{out_base, uint32_t(n) * m}};
        step.after.push_back(std::move(rev));
      }
      prog.push_back(std::move(step));
    }
  }
  s.initial = [n, m, out_base](int me, uint32_t a) {
    return a < out_base ? data_word(me, a / m, a % m, n, m) : scratch_word(me, a);
  };
  s.expected = [n, m, out_base, tmp_base](int me, uint32_t a) -> std::optional<Word> {
    if (a < out_base) return data_word(me, a / m, a % m, n, m);
    if (a < tmp_base) return data_word(int((a - out_base) / m), uint32_t(me), (a - out_base) % m, n, m);
    const uint32_t t = (a - tmp_base) / m;  // after Phase 2: B[(me - t) mod n -> me]
    return data_word(int(mod(int64_t(me) - t, n)), uint32_t(me), (a - tmp_base) % m, n, m);
  };
  return s;
}

OptionSpec radix_option() {
  OptionSpec radix{"--radix",
                   "bruck-index, ccl-index: radix r (2..n); auto: the r of least C1*beta + C2*tau for "
                   "the profile",
                   "2",
                   {},
                   4096,
                   2};
  radix.keyword = "auto";
  return radix;
}

}  // namespace wn::alg::bruck
