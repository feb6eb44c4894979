// The cardinality constraints of schedule synthesis's CNF (encode.h): clauses, at-most-k by a
// sequential counter, exact unary counts by a totalizer.
#include <algorithm>
#include <initializer_list>
#include <vector>

#include "algorithms/synth/encode.h"

namespace wn::alg::synth::detail {

void Encoder::clause(std::initializer_list<int> lits) {
  for (int l : lits) s_.add(l);
  s_.add(0);
  ++clauses_;
}

void Encoder::clause(const std::vector<int>& lits) {
  for (int l : lits) s_.add(l);
  s_.add(0);
  ++clauses_;
}

// Sequential counter (Sinz 2005); pairwise for tiny at-most-one sets, where it is smaller.
void Encoder::at_most(const std::vector<int>& x, int k) {
  const size_t n = x.size();
  if (n <= size_t(k)) return;
  if (k == 0) {
    for (int l : x) clause({-l});
    return;
  }
  if (k == 1 && n <= 5) {
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j) clause({-x[i], -x[j]});
    return;
  }
  std::vector<std::vector<int>> r(n - 1, std::vector<int>(size_t(k)));
  for (auto& row : r)
    for (int& v : row) v = var();
  clause({-x[0], r[0][0]});
  for (int j = 1; j < k; ++j) clause({-r[0][size_t(j)]});
  for (size_t i = 1; i + 1 < n; ++i) {
    if ((i & 4095) == 0) budget_.check();
    clause({-x[i], r[i][0]});
    clause({-r[i - 1][0], r[i][0]});
    for (int j = 1; j < k; ++j) {
      clause({-x[i], -r[i - 1][size_t(j - 1)], r[i][size_t(j)]});
      clause({-r[i - 1][size_t(j)], r[i][size_t(j)]});
    }
    clause({-x[i], -r[i - 1][size_t(k - 1)]});
  }
  clause({-x[n - 1], -r[n - 2][size_t(k - 1)]});
}

// Totalizer (Bailleux & Boufkhad 2003), both directions: the outputs are the exact unary count, so
// one count per step serves every bound (a unit clause or an assumption each).
std::vector<int> Encoder::totalizer(const std::vector<int>& x) {
  if (x.size() <= 1) return x;
  const size_t mid = x.size() / 2;
  const auto a = totalizer({x.begin(), x.begin() + long(mid)});
  const auto b = totalizer({x.begin() + long(mid), x.end()});
  std::vector<int> o(a.size() + b.size());
  for (int& v : o) v = var();
  for (size_t i = 0; i <= a.size(); ++i) {
    if ((i & 255) == 0) budget_.check();
    for (size_t j = 0; j <= b.size(); ++j) {
      if (i + j > 0) {  // at least i of a and j of b -> at least i + j
        std::vector<int> c = {o[i + j - 1]};
        if (i) c.push_back(-a[i - 1]);
        if (j) c.push_back(-b[j - 1]);
        clause(c);
      }
      if (i + j < o.size()) {  // at most i of a and j of b -> at most i + j
        std::vector<int> c = {-o[i + j]};
        if (i < a.size()) c.push_back(a[i]);
        if (j < b.size()) c.push_back(b[j]);
        clause(c);
      }
    }
  }
  return o;
}

Encoder::Encoder(const Net& net, const Request& req, const Budget& budget, uint64_t layer_bytes)
    : net_(net), req_(req), budget_(budget), layer_bytes_(layer_bytes) {
  true_ = var();
  clause({true_});
  h_.emplace_back(size_t(net.n), -true_);
  h_[0][size_t(net.source)] = true_;
  x_.emplace_back();
  count_.emplace_back();
  lex_.assign(net.syms.size(), true_);
}

}  // namespace wn::alg::synth::detail
