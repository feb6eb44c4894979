// Binomial-tree reduce, gather and scatter rooted at --source, over relative
// ranks rel = (rank - root) mod N. In step s of reduce/gather, rel with
// rel mod 2^(s+1) = 2^s sends everything it holds to rel - 2^s; scatter runs
// the same tree top-down. ceil(log2 N) steps.
//  reduce: memory M words, rank r holds data_word(r, 0, o); the root ends with
//    the left fold x_0 op x_1 op ... op x_{N-1} in RANK order. A receiver
//    always holds the lower ranks, so op(memory, incoming) keeps the order;
//    with a non-commutative operator the tree is built over absolute ranks
//    (root 0) and rank 0 forwards the result to a root != 0 in one more step.
//  gather: memory N blocks; rank r holds block r = data_word(r, 0, o); the
//    root ends with every block r at block r.
//  scatter: memory N blocks; the root holds block j = data_word(root, j, o);
//    rank r ends with block r.
#include "algorithms/families/baselines/baselines.h"

namespace wn::alg {

namespace {

Step send_step(uint32_t tag, int to, std::vector<Range> src) {
  Step s;
  s.tag = tag;
  s.sends.push_back({to, std::move(src), tag, -1});
  return s;
}
Step recv_step(uint32_t tag, int from, std::vector<Range> dst, Combine c = {}) {
  Step s;
  s.tag = tag;
  s.recvs.push_back({from, std::move(dst), tag, c});
  return s;
}

// Blocks of relative ranks [lo, hi) as ranges of absolute block indices.
std::vector<Range> blocks(int root, int lo, int hi, int n, uint32_t m) {
  std::vector<Range> out;
  for (int rel = lo; rel < hi; ++rel) {
    const uint32_t b = uint32_t((rel + root) % n);
    if (!out.empty() && out.back().stride == 1 && out.back().offset + out.back().count == b * m)
      out.back().count += m;
    else
      out.push_back({b * m, m});
  }
  return out;
}

}  // namespace

Schedule build_binomial_reduce(const Topology& /*topo*/, const AlgorithmArgs& args) {
  const int n = int(args.group.size()), root = args.source_rank, levels = ceil_log2(n);
  const uint32_t m = args.words;
  const OpId op = args.op;
  const bool forward = !combine_ops()[op].commutative && root != 0;
  const int tree_root = forward ? 0 : root;
  Schedule s;
  s.algorithm = "binomial-reduce";
  s.nodes = n;
  s.steps = levels + (forward ? 1 : 0);
  s.memory_words = m;
  s.programs.resize(size_t(n));
  for (int st = 0; st < levels; ++st) {
    const int half = 1 << st;
    for (int rel = half; rel < n; rel += 2 * half) {
      const int from = (rel + tree_root) % n, to = (rel - half + tree_root) % n;
      s.programs[size_t(from)].push_back(send_step(uint32_t(st), to, {{0, m}}));
      s.programs[size_t(to)].push_back(recv_step(uint32_t(st), from, {{0, m}}, Combine{op, false}));
    }
  }
  if (forward) {
    s.programs[0].push_back(send_step(uint32_t(levels), root, {{0, m}}));
    s.programs[size_t(root)].push_back(recv_step(uint32_t(levels), 0, {{0, m}}));
  }
  s.initial = [n, m](int r, uint32_t a) { return data_word(r, 0, a, n, m); };
  s.expected = [n, m, op, root](int r, uint32_t a) -> std::optional<Word> {
    if (r != root) return std::nullopt;
    std::vector<Word> xs;
    for (int q = 0; q < n; ++q) xs.push_back(data_word(q, 0, a, n, m));
    return fold(op, xs);
  };
  return s;
}

Schedule build_binomial_gather(const Topology& /*topo*/, const AlgorithmArgs& args) {
  const int n = int(args.group.size()), root = args.source_rank, levels = ceil_log2(n);
  const uint32_t m = args.words;
  Schedule s;
  s.algorithm = "binomial-gather";
  s.nodes = n;
  s.steps = levels;
  s.memory_words = uint32_t(n) * m;
  s.programs.resize(size_t(n));
  for (int st = 0; st < levels; ++st) {
    const int half = 1 << st;
    for (int rel = half; rel < n; rel += 2 * half) {
      const int from = (rel + root) % n, to = (rel - half + root) % n;
      const auto held = blocks(root, rel, std::min(n, rel + half), n, m);
      s.programs[size_t(from)].push_back(send_step(uint32_t(st), to, held));
      s.programs[size_t(to)].push_back(recv_step(uint32_t(st), from, held));
    }
  }
  s.initial = [n, m](int r, uint32_t a) {
    return a / m == uint32_t(r) ? data_word(r, 0, a % m, n, m) : scratch_word(r, a);
  };
  s.expected = [n, m, root](int r, uint32_t a) -> std::optional<Word> {
    if (r == root || a / m == uint32_t(r)) return data_word(int(a / m), 0, a % m, n, m);
    return std::nullopt;
  };
  return s;
}

Schedule build_binomial_scatter(const Topology& /*topo*/, const AlgorithmArgs& args) {
  const int n = int(args.group.size()), root = args.source_rank, levels = ceil_log2(n);
  const uint32_t m = args.words;
  Schedule s;
  s.algorithm = "binomial-scatter";
  s.nodes = n;
  s.steps = levels;
  s.memory_words = uint32_t(n) * m;
  s.programs.resize(size_t(n));
  for (int st = levels - 1; st >= 0; --st) {
    const uint32_t tag = uint32_t(levels - 1 - st);
    const int half = 1 << st;
    for (int rel = 0; rel + half < n; rel += 2 * half) {
      const int from = (rel + root) % n, to = (rel + half + root) % n;
      const auto part = blocks(root, rel + half, std::min(n, rel + 2 * half), n, m);
      s.programs[size_t(from)].push_back(send_step(tag, to, part));
      s.programs[size_t(to)].push_back(recv_step(tag, from, part));
    }
  }
  s.initial = [n, m, root](int r, uint32_t a) {
    return r == root ? data_word(root, a / m, a % m, n, m) : scratch_word(r, a);
  };
  s.expected = [n, m, root](int r, uint32_t a) -> std::optional<Word> {
    if (r == root || a / m == uint32_t(r)) return data_word(root, a / m, a % m, n, m);
    return std::nullopt;
  };
  return s;
}

}  // namespace wn::alg
