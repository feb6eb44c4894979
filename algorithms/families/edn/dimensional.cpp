// Dimensional broadcast (thesis Ch 5, Fig 5.5): recursive
// doubling along the source's row, then every row node doubles along its
// column — the RD special case for a 2^n x 2^n mesh, 2n steps (the baseline
// of the Ch 5 comparisons). The halving is RD's floor split.
#include "algorithms/families/edn/edn.h"
#include "algorithms/halving.h"

namespace wn::alg::edn {

namespace {

// RD over `line` from index `holder`: the sends of relative step t go to steps[first + t].
void halve(const std::vector<Node>& line, int holder, size_t first, std::vector<StepSends>& steps) {
  halving(int(line.size()), holder, [&](int h, int dest, int, int, uint32_t t) {
    if (steps.size() <= first + t) steps.resize(first + t + 1);
    steps[first + t].push_back({line[size_t(h)], line[size_t(dest)]});
  });
}

}  // namespace

std::vector<StepSends> dimensional_steps(int w, Node source) {
  std::vector<StepSends> steps;
  std::vector<Node> row;
  for (int x = 0; x < w; ++x) row.push_back({x, source.second});
  halve(row, source.first, 0, steps);
  const size_t row_steps = steps.size();
  for (int x = 0; x < w; ++x) {
    std::vector<Node> col;
    for (int y = 0; y < w; ++y) col.push_back({x, y});
    halve(col, source.second, row_steps, steps);
  }
  return steps;
}

}  // namespace wn::alg::edn
