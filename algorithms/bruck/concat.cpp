// Bruck concatenation, k-port (the paper's Section 4): d-1 circulant rounds multiply the held
// blocks by k+1 (Thm 4.1), then one last round covers the remaining n2 ranks
// of every tree by partitioning the b x n2 table (rows = words of a block,
// column c = rank n1 + c of T_0) over k ports (Prop 4.2). The partition is the
// first of: column-major chunks of a = ceil(b*n2/k) cells (reproduces Table 1),
// the span-limited greedy (ours), whole columns (the paper's Remark: C1 kept, C2 at
// most b-1 above the bound, in the exceptional range; oracle K12). Offsets are
// made distinct right to left (ours: the paper does not say whether a rank may
// send twice to one rank), so no rank sends twice to one rank.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "algorithms/bruck/bruck.h"
#include "algorithms/data_words.h"

namespace wn::alg::bruck {

namespace {

uint32_t mod(int64_t a, int n) { return uint32_t(((a % n) + n) % n); }

// Cells [first, last) of the column-major table as one area's segments.
Area area_of(uint64_t first, uint64_t last, uint32_t b) {
  Area a;
  for (uint64_t c = first; c < last;) {
    const uint32_t col = uint32_t(c / b), row = uint32_t(c % b);
    const uint64_t end = std::min<uint64_t>(last, uint64_t(col + 1) * b);
    a.segments.push_back({col, row, uint32_t(row + (end - c))});
    c = end;
  }
  return a;
}

uint32_t span(const Area& a) { return a.segments.back().col - a.segments.front().col + 1; }

std::vector<Area> chunks(uint64_t cells, uint64_t per, uint32_t b) {
  std::vector<Area> out;
  for (uint64_t c = 0; c < cells; c += per) out.push_back(area_of(c, std::min(cells, c + per), b));
  return out;
}

// Each area from the first free cell until a cells or span n1.
std::vector<Area> greedy(uint64_t cells, uint64_t a, uint32_t b, uint32_t n1) {
  std::vector<Area> out;
  for (uint64_t c = 0; c < cells;) {
    const uint64_t limit = std::min({cells, c + a, uint64_t(c / b + n1) * b});
    out.push_back(area_of(c, limit, b));
    c = limit;
  }
  return out;
}

}  // namespace

uint32_t Area::cells() const {
  uint32_t n = 0;
  for (const Segment& s : segments) n += s.row_end - s.row_begin;
  return n;
}

std::vector<Area> last_round(int n1, int n2, int k, uint32_t b, std::string* partition) {
  const uint64_t cells = uint64_t(b) * uint64_t(n2), a = (cells + uint64_t(k) - 1) / uint64_t(k);
  auto fits = [&](const std::vector<Area>& v) {
    return v.size() <= size_t(k) &&
           std::all_of(v.begin(), v.end(), [&](const Area& x) { return span(x) <= uint32_t(n1); });
  };
  std::vector<Area> out = chunks(cells, a, b);
  std::string how = "chunks";
  if (!fits(out)) out = greedy(cells, a, b, uint32_t(n1)), how = "span-limited greedy";
  // n2 <= k*n1, so ceil(n2/k) whole columns span at most n1.
  if (!fits(out)) out = chunks(cells, uint64_t((n2 + k - 1) / k) * b, b), how = "whole columns";
  for (size_t i = out.size(); i-- > 0;) {
    const int lo = int(out[i].segments.back().col) + 1, hi = n1 + int(out[i].segments.front().col);
    out[i].offset = i + 1 == out.size() ? hi : std::min(hi, out[i + 1].offset - 1);
    if (out[i].offset < lo)
      throw std::logic_error(
          fmt::format("bruck-concat n1={} n2={} k={} b={}: no distinct offset for area {}", n1, n2, k, b, i));
  }
  if (partition) *partition = how;
  return out;
}

ConcatPlan concat_plan(int n, int k, uint32_t b) {
  ConcatPlan p;
  p.n = n;
  p.k = std::min(k, n - 1);
  p.b = b;
  uint64_t pw = 1;
  while (pw < uint64_t(n)) pw *= uint64_t(p.k + 1), ++p.d;
  p.n1 = int(pw / uint64_t(p.k + 1));
  p.n2 = n - p.n1;
  p.a = uint32_t((uint64_t(b) * uint64_t(p.n2) + uint64_t(p.k) - 1) / uint64_t(p.k));
  p.last = last_round(p.n1, p.n2, p.k, b, &p.partition);
  return p;
}

uint64_t concat_c2(const ConcatPlan& p) {
  uint64_t c2 = 0, held = 1;
  for (int i = 0; i + 1 < p.d; ++i, held *= uint64_t(p.k + 1)) c2 += held * p.b;
  uint32_t most = 0;
  for (const Area& a : p.last) most = std::max(most, a.cells());
  return c2 + most;
}

Schedule build_concat(const ConcatPlan& p) {
  const int n = p.n;
  const uint32_t m = p.b, tmp = uint32_t(n) * m;
  Schedule s;
  s.algorithm = "bruck-concat";
  s.nodes = n;
  s.steps = p.d;
  s.memory_words = 2 * uint32_t(n) * m;
  s.programs.resize(size_t(n));
  for (int v = 0; v < n; ++v) {
    auto& prog = s.programs[size_t(v)];
    uint32_t held = 1;
    for (int i = 0; i + 1 < p.d; ++i, held *= uint32_t(p.k + 1)) {  // Phase A
      Step st;
      st.tag = uint32_t(i);
      if (i == 0) st.locals.push_back({{{uint32_t(v) * m, m}}, {{tmp, m}}, {}});
      for (int j = 1; j <= p.k; ++j) {
        st.sends.push_back({int(mod(int64_t(v) + int64_t(j) * held, n)), {{tmp, held * m}}, st.tag, -1});
        st.recvs.push_back(
            {int(mod(int64_t(v) - int64_t(j) * held, n)), {{tmp + uint32_t(j) * held * m, held * m}}, st.tag, {}});
      }
      prog.push_back(std::move(st));
    }
    Step last;  // Phase B, the last round
    last.tag = uint32_t(p.d - 1);
    if (p.d == 1) last.locals.push_back({{{uint32_t(v) * m, m}}, {{tmp, m}}, {}});
    for (const Area& a : p.last) {
      Send snd{int(mod(int64_t(v) + a.offset, n)), {}, last.tag, -1};
      Recv rcv{int(mod(int64_t(v) - a.offset, n)), {}, last.tag, {}};
      for (const Segment& g : a.segments) {
        const uint32_t rows = g.row_end - g.row_begin;
        snd.src.push_back({tmp + uint32_t(p.n1 + int(g.col) - a.offset) * m + g.row_begin, rows});
        rcv.dst.push_back({tmp + uint32_t(p.n1 + int(g.col)) * m + g.row_begin, rows});
      }
      last.sends.push_back(std::move(snd));
      last.recvs.push_back(std::move(rcv));
    }
    LocalOp out;  // OUT[j] = TMP[(v - j) mod n]: the rotation of Appendix B lines 17-18, mirrored
    for (int j = 0; j < n; ++j) out.src.push_back({tmp + mod(int64_t(v) - j, n) * m, m});
    out.dst = {{0, tmp}};
    last.after.push_back(std::move(out));
    prog.push_back(std::move(last));
  }
  s.initial = [n, m](int v, uint32_t a) {
    return a / m == uint32_t(v) ? data_word(v, 0, a % m, n, m) : scratch_word(v, a);
  };
  s.expected = [n, m, tmp](int v, uint32_t a) -> std::optional<Word> {
    const uint32_t blk = a < tmp ? a / m : mod(int64_t(v) - (a - tmp) / m, n);
    return data_word(int(blk), 0, a % m, n, m);
  };
  return s;
}

}  // namespace wn::alg::bruck
