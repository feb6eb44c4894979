// The firmware of examples/ccl_grid.cpp as a program (firmware/program.h): the nodes of a 2D
// network as a process grid; every row broadcasts from its first member while every column
// broadcasts from its first member, then everybody sums one word. Shared by the standalone
// program and the plugin (ccl_grid_plugin.cpp), so both run the very same firmware.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/ccl.h"
#include "firmware/program.h"

namespace ccl_grid {

// Memory layout of every node: the CCL library's scratch, then the three operations' regions.
struct Layout {
  uint32_t row_at, col_at, sum_at, words = 4, memory;
};

inline Layout layout(int n) {
  Layout l;
  l.row_at = wn::fw::ccl::Library::scratch_words(n);
  l.col_at = l.row_at + 8;
  l.sum_at = l.col_at + 8;
  l.memory = l.sum_at +
             wn::fw::ccl::Library::region_words(wn::alg::ccl::Op::Combine, n, 1, {}, wn::alg::find_combine_op("sum"));
  return l;
}

// The words node v must hold after the run (row and column broadcasts' first words, the sum).
inline std::vector<uint32_t> expected(int v, int n, int X) {
  return {100u * uint32_t(v / X * X), 1000u * uint32_t(v % X), uint32_t(n) * uint32_t(n + 1) / 2};
}

inline wn::fw::FirmwareProgram program(const wn::fw::ProgramContext& ctx) {
  if (ctx.radix.size() != 2) throw std::invalid_argument("ccl_grid: a 2D mesh or torus");
  const int n = ctx.nodes, X = ctx.radix[0];
  const Layout l = layout(n);
  wn::fw::FirmwareProgram p;
  p.name = "ccl-grid";
  p.memory_words = l.memory;
  std::vector<int> all(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) all[size_t(v)] = v;
  const wn::alg::OpId sum = wn::alg::find_combine_op("sum");
  p.firmware = [all, l, X, sum](int) -> wn::fw::FirmwareFn {
    return [all, l, X, sum](wn::fw::NodeApi& api) {
      wn::fw::ccl::Library lib(api, all, 0);
      auto [row, col] = lib.grid(lib.all(), X);       // rank = y*X + x: row = same y, column = same x
      lib.bcast(row, row.pid(0), l.row_at, l.words);  // rows from their x = 0 node ...
      lib.bcast(col, col.pid(0), l.col_at, l.words);  // ... columns from their y = 0 node
      lib.combine(lib.all(), sum, l.sum_at, 1);       // IN at sum_at, OUT at sum_at + 1
    };
  };
  p.init = [l](int v, uint32_t a) -> wn::alg::Word {
    if (a >= l.row_at && a < l.row_at + l.words) return 100u * uint32_t(v) + (a - l.row_at);
    if (a >= l.col_at && a < l.col_at + l.words) return 1000u * uint32_t(v) + (a - l.col_at);
    if (a == l.sum_at) return uint32_t(v) + 1;
    return 0;
  };
  p.check = [l, n, X](const std::vector<std::vector<wn::alg::Word>>& memory) -> std::string {
    for (int v = 0; v < n; ++v) {
      const auto& m = memory[size_t(v)];
      const auto want = expected(v, n, X);
      const uint32_t got[3] = {m[l.row_at], m[l.col_at], m[l.sum_at + 1]};
      for (int k = 0; k < 3; ++k)
        if (got[k] != want[size_t(k)])
          return "node " + std::to_string(v) + ": " +
                 (k == 0   ? "row"
                  : k == 1 ? "column"
                           : "sum") +
                 " word " + std::to_string(got[k]) + ", expected " + std::to_string(want[size_t(k)]);
    }
    return "";
  };
  return p;
}

}  // namespace ccl_grid
