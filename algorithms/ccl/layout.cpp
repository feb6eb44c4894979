// What a call occupies: the 2D ring's shape and every operation's memory layout (words per
// rank).
#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

int ring_2d_cols(const Call& c) {
  if (c.cols) return c.cols;
  int best = 1;
  for (int d = 1; d * d <= c.n; ++d)
    if (c.n % d == 0) best = d;
  return best;
}

uint32_t layout_words(const Call& c) {
  const uint32_t n = uint32_t(c.n), b = c.b, k = uint32_t(ceil_log2(c.n));
  const std::string alg = choose(c);
  switch (c.op) {
    case Op::Bcast:
      return alg == "scatter-concat" || alg == "scatter-ring" ? 2 * n * ((b + n - 1) / n) + 1 : b + 1;
    case Op::Reduce:
    case Op::Shift:
      return 2 * b + 1;
    case Op::Combine:
      return (alg == "circulant" ? (combine_ops()[c.op_id].commutative ? 4 : 8) : 2) * b + 1;
    case Op::Prefix:
      return (alg == "tree" ? 4 + k : 2) * b + 1;
    case Op::Scatter:
    case Op::Gather:
      return n * b + 1;
    case Op::Concat:
      return 2 * n * b + 1;
    case Op::Index:
      return 3 * n * b + 1;
    case Op::Sync:
      return 1;
    case Op::ReduceScatter:
      return 2 * n * b + b + 1;
  }
  return 1;
}

}  // namespace wn::alg::ccl
