// Scatter-collect broadcast (thesis Ch 5, [17]) on a
// 2^n x 2^n mesh or torus, for long messages: the message is cut into N
// pieces (piece x*w + y for node (x, y), c = ceil(M/N) words each; the
// message is padded to N*c words), then
//   1. the source scatters the columns' pieces along its row (halving),
//   2. every row node scatters its column's pieces down the column,
//   3. a logical-ring collect along every row (w - 1 steps),
//   4. a logical-ring collect along every column (w - 1 steps).
// 2n + 2(w - 1) steps; each ring step sends +1 along the line, the wrap
// message goes the other way, so no two messages of a step share a channel.
#include <functional>

#include "algorithms/families/edn/edn.h"
#include "algorithms/halving.h"

namespace wn::alg::edn {

namespace {

struct Move {
  int from, to;
  std::vector<Range> data;
};

struct Builder {
  const Topology& topo;
  std::vector<std::vector<Move>> by_tag;
  void move(Node from, Node to, std::vector<Range> data, uint32_t tag) {
    if (by_tag.size() <= tag) by_tag.resize(tag + 1);
    by_tag[tag].push_back(
        {topo.node_at({from.first, from.second}), topo.node_at({to.first, to.second}), std::move(data)});
  }
  // Halving scatter over `line` from index `holder`: the receiver of responsibility [lo, hi]
  // gets pieces(lo, hi); relative step t has tag first + t.
  void scatter(const std::vector<Node>& line, int holder, uint32_t first,
               const std::function<std::vector<Range>(int, int)>& pieces) {
    halving(int(line.size()), holder, [&](int h, int dest, int lo, int hi, uint32_t t) {
      move(line[size_t(h)], line[size_t(dest)], pieces(lo, hi), first + t);
    });
  }
  // Every node's steps in tag order.
  void emit(Schedule& s) const {
    for (uint32_t tag = 0; tag < by_tag.size(); ++tag) {
      std::vector<Step> steps(size_t(s.nodes));
      for (const Move& m : by_tag[tag]) {
        steps[size_t(m.from)].sends.push_back({m.to, m.data, tag, -1});
        steps[size_t(m.to)].recvs.push_back({m.from, m.data, tag, {}});
      }
      for (int q = 0; q < s.nodes; ++q) {
        if (steps[size_t(q)].sends.empty() && steps[size_t(q)].recvs.empty()) continue;
        steps[size_t(q)].tag = tag;
        s.programs[size_t(q)].push_back(std::move(steps[size_t(q)]));
      }
    }
  }
};

}  // namespace

Schedule build_sc_broadcast(const Topology& topo, const AlgorithmArgs& args) {
  const int w = topo.radix()[0], n = w * w, src = args.source, logw = __builtin_ctz(unsigned(w));
  const uint32_t c = (args.words + uint32_t(n) - 1) / uint32_t(n);
  const auto sc = topo.coords(src);
  Schedule s;
  s.algorithm = "sc-broadcast";
  s.nodes = n;
  s.steps = 2 * logw + 2 * (w - 1);
  s.memory_words = uint32_t(n) * c;
  s.programs.resize(size_t(n));
  Builder b{topo, {}};
  auto piece = [c, w](int x, int y) { return uint32_t(x * w + y) * c; };
  std::vector<Node> row;
  for (int x = 0; x < w; ++x) row.push_back({x, sc[1]});
  b.scatter(row, sc[0], 0, [&](int dl, int dr) {
    return std::vector<Range>{{piece(dl, 0), uint32_t((dr - dl + 1) * w) * c}};
  });
  for (int x = 0; x < w; ++x) {
    std::vector<Node> col;
    for (int y = 0; y < w; ++y) col.push_back({x, y});
    b.scatter(col, sc[1], uint32_t(logw), [&](int dl, int dr) {
      return std::vector<Range>{{piece(x, dl), uint32_t(dr - dl + 1) * c}};
    });
  }
  for (int t = 0; t < w - 1; ++t)  // row rings: (x, y) passes on the piece of column x - t
    for (int y = 0; y < w; ++y)
      for (int x = 0; x < w; ++x) {
        const int held = ((x - t) % w + w) % w;
        b.move({x, y}, {(x + 1) % w, y}, {{piece(held, y), c}}, uint32_t(2 * logw + t));
      }
  for (int t = 0; t < w - 1; ++t)  // column rings: (x, y) passes on row y - t's pieces of every column
    for (int x = 0; x < w; ++x)
      for (int y = 0; y < w; ++y) {
        const int held = ((y - t) % w + w) % w;
        std::vector<Range> r;
        for (int x2 = 0; x2 < w; ++x2) r.push_back({piece(x2, held), c});
        b.move({x, y}, {x, (y + 1) % w}, r, uint32_t(2 * logw + (w - 1) + t));
      }
  b.emit(s);
  set_broadcast_memory(s, src);
  return s;
}

}  // namespace wn::alg::edn
