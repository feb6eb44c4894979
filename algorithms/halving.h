// Recursive halving over a list (the thesis's RD / U-mesh, Tsai's thesis):
// the holder of positions [left, right] splits at floor((left+right)/2),
// sends to the first position of the other half, which becomes responsible
// for it, and both go on. Broadcasts, dimensional broadcasts and scatters of
// several families walk the same tree.
#pragma once
#include <cstdint>
#include <functional>

namespace wn::alg {

// Calls visit(from, to, lo, hi, step) for every send of the halving over
// positions 0..n-1 from `holder`: `to` becomes responsible for [lo, hi];
// `step` counts from 0. Sends of one step may be visited after later ones.
inline void halving(int n, int holder, const std::function<void(int, int, int, int, uint32_t)>& visit) {
  std::function<void(int, int, int, uint32_t)> rd = [&](int left, int right, int h, uint32_t step) {
    while (left < right) {
      const int c = (left + right) / 2;  // floor split: ours, the thesis only halves the list
      int dest, lo, hi;
      if (h <= c) {
        dest = c + 1, lo = c + 1, hi = right;
        right = c;
      } else {
        dest = c, lo = left, hi = c;
        left = c + 1;
      }
      visit(h, dest, lo, hi, step);
      rd(lo, hi, dest, step + 1);
      ++step;
    }
  };
  rd(0, n - 1, holder, 0);
}

}  // namespace wn::alg
