// A CCL call's schedule: the op's generator, the barrier-mode wrappers of the
// paper's §III (shift's is ours), and the payloads with their oracle (x_r word o = data_word(r, 0, o);
// reductions are checked against the rank-order fold).
#include "algorithms/bruck/bruck.h"
#include "algorithms/ccl/builder.h"
#include "algorithms/data_words.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

using Oracle = std::function<std::optional<Word>(int, uint32_t)>;
using Initial = std::function<Word(int, uint32_t)>;

// The fold of x_lo .. x_hi (ranks) at word o.
Word fold_ranks(const Call& c, int lo, int hi, uint32_t o) {
  std::vector<Word> xs;
  for (int r = lo; r <= hi; ++r) xs.push_back(data_word(r, 0, o, c.n, c.b));
  return fold(c.op_id, xs);
}

void payloads(const Call& c, Schedule& s) {
  const int n = c.n;
  const uint32_t b = c.b, token = s.memory_words - 1;
  const Initial scratch = [](int r, uint32_t a) { return scratch_word(r, a); };
  switch (c.op) {
    case Op::Bcast:
      s.initial = [c, token](int r, uint32_t a) {
        return r == c.root && a < token ? data_word(r, 0, a, c.n, c.b) : scratch_word(r, a);
      };
      s.expected = [c](int, uint32_t a) -> std::optional<Word> {
        if (a >= c.b) return std::nullopt;  // scatter-concat's padding and scratch after the message
        return data_word(c.root, 0, a, c.n, c.b);
      };
      return;
    case Op::Reduce:
    case Op::Combine:
    case Op::Prefix:
    case Op::Shift:
      s.initial = [c, b](int r, uint32_t a) { return a < b ? data_word(r, 0, a, c.n, c.b) : scratch_word(r, a); };
      s.expected = [c, b](int r, uint32_t a) -> std::optional<Word> {
        if (a < b) return data_word(r, 0, a, c.n, c.b);
        if (a >= 2 * b) return std::nullopt;
        const uint32_t o = a - b;
        switch (c.op) {
          case Op::Reduce:
            if (r != c.root) return std::nullopt;
            return fold_ranks(c, 0, c.n - 1, o);
          case Op::Combine:
            return fold_ranks(c, 0, c.n - 1, o);
          case Op::Prefix:
            return fold_ranks(c, 0, r, o);
          default:
            return data_word(pmod(r - c.shift, c.n), 0, o, c.n, c.b);
        }
      };
      return;
    case Op::Scatter:
      s.initial = [c, token](int r, uint32_t a) {
        return r == c.root && a < token ? data_word(r, a / c.b, a % c.b, c.n, c.b) : scratch_word(r, a);
      };
      s.expected = [c, token](int r, uint32_t a) -> std::optional<Word> {
        if (a >= token || (r != c.root && a / c.b != uint32_t(r))) return std::nullopt;
        return data_word(c.root, a / c.b, a % c.b, c.n, c.b);
      };
      return;
    case Op::Gather:
    case Op::Concat:
      s.initial = [c](int r, uint32_t a) {
        return a / c.b == uint32_t(r) ? data_word(r, 0, a % c.b, c.n, c.b) : scratch_word(r, a);
      };
      s.expected = [c](int r, uint32_t a) -> std::optional<Word> {
        const uint32_t blk = a / c.b;
        if (blk >= uint32_t(c.n) || (c.op == Op::Gather && r != c.root && blk != uint32_t(r))) return std::nullopt;
        return data_word(int(blk), 0, a % c.b, c.n, c.b);
      };
      return;
    case Op::ReduceScatter:
      s.initial = [c](int r, uint32_t a) {
        return a < uint32_t(c.n) * c.b ? data_word(r, a / c.b, a % c.b, c.n, c.b) : scratch_word(r, a);
      };
      s.expected = [c](int r, uint32_t a) -> std::optional<Word> {
        const uint32_t nb = uint32_t(c.n) * c.b;
        if (a < nb) return data_word(r, a / c.b, a % c.b, c.n, c.b);
        if (a >= nb + c.b) return std::nullopt;
        std::vector<Word> xs;  // block r of every rank, in rank order
        for (int q = 0; q < c.n; ++q) xs.push_back(data_word(q, uint32_t(r), a - nb, c.n, c.b));
        return fold(c.op_id, xs);
      };
      return;
    case Op::Sync:
      s.initial = scratch;
      s.expected = [](int, uint32_t) -> std::optional<Word> { return std::nullopt; };
      return;
    case Op::Index:
      return;  // bruck.h's payloads
  }
  (void)n;
}

}  // namespace

Schedule build(const Call& call) {
  Call c = call;
  c.alg = choose(call);
  const int k = ceil_log2(c.n);
  const uint32_t words = layout_words(c), token = words - 1;
  const std::string name = "ccl-" + op_names()[size_t(c.op)];
  if (c.op == Op::Index) {  // implies a barrier: the same in both modes
    Schedule s = bruck::build_index(c.n, c.alg == "direct" || c.alg == "linear" ? c.n : c.radix, 1, c.b);
    if (c.alg == "linear") {  // the same memory and payloads, MPICH's scattered steps
      Builder lb(c.n);
      gen_index_linear(lb, c, 0);
      const Schedule l = lb.take(name.c_str(), words);
      s.programs = l.programs;
      s.steps = l.steps;
    }
    s.algorithm = name;
    s.memory_words = words;
    const auto in = s.initial;
    const auto ex = s.expected;
    s.initial = [in, token](int r, uint32_t a) { return a < token ? in(r, a) : scratch_word(r, a); };
    // Bruck's TMP [2nb, 3nb) ends with its Phase 2 blocks; the linear exchange never uses it.
    const uint32_t checked = c.alg == "linear" ? 2 * uint32_t(c.n) * c.b : token;
    s.expected = [ex, checked](int r, uint32_t a) { return a < checked ? ex(r, a) : std::nullopt; };
    return s;
  }
  Builder b(c.n);
  uint32_t tag0 = 0;
  if (c.barrier && (c.op == Op::Bcast || c.op == Op::Scatter)) {  // sync-in(root) first
    tokens(b, fan_in(c.n, c.root), 0, token);
    tag0 = uint32_t(k);
  }
  switch (c.op) {
    case Op::Bcast:
      gen_bcast(b, c, tag0);
      break;
    case Op::Reduce:
      gen_reduce(b, c, tag0);
      break;
    case Op::Scatter:
      gen_scatter(b, c, tag0);
      break;
    case Op::Gather:
      gen_gather(b, c, tag0);
      break;
    case Op::Concat:
      gen_concat(b, c, tag0);
      break;
    case Op::Combine:
      gen_combine(b, c, tag0);
      break;
    case Op::Prefix:
      gen_prefix(b, c, tag0);
      break;
    case Op::Shift:
      gen_shift(b, c, tag0);
      break;
    case Op::Sync:
      gen_sync(b, c, tag0, token);
      break;
    case Op::ReduceScatter:
      gen_reduce_scatter(b, c, tag0);
      break;
    case Op::Index:
      break;
  }
  if (c.barrier && (c.op == Op::Reduce || c.op == Op::Gather || c.op == Op::Prefix))  // sync-out
    tokens(b, fan_out(c.n, c.op == Op::Prefix ? c.n - 1 : c.root), b.tags(), token);
  if (c.barrier && c.op == Op::Shift && pmod(c.shift, c.n) != 0)
    gen_sync(b, c, b.tags(), token);  // ours: the paper does not say how barrier-mode shift runs
  Schedule s = b.take(name.c_str(), words);
  payloads(c, s);
  return s;
}

}  // namespace wn::alg::ccl
