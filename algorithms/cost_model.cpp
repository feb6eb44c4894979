#include "algorithms/cost_model.h"

#include <algorithm>
#include <cmath>

namespace wn::alg {

uint32_t CostParams::packets(uint32_t words) const {
  if (max_packet_words == 0 || words <= max_packet_words) return 1;
  return (words + max_packet_words - 1) / max_packet_words;
}

uint32_t CostParams::flits(uint32_t words) const {
  const uint32_t wpf = uint32_t(words_per_flit < 1 ? 1 : words_per_flit);
  // Each packet carries its own words: a split message may end in a short flit per packet.
  if (packets(words) == 1) return 1 + (words + wpf - 1) / wpf;
  uint32_t total = 0, left = words;
  while (left > 0) {
    const uint32_t w = left < max_packet_words ? left : max_packet_words;
    total += 1 + (w + wpf - 1) / wpf;
    left -= w;
  }
  return total;
}

double CostParams::multiport_network_cycles(int hops, uint32_t words) const {
  const double plain = network_cycles(hops, words);
  const uint32_t f = flits(words), n = packets(words);
  if (multiport_flit_cycles <= 1 || f < 2 * n + 1) return plain;
  // Flit slots behind the first body flit, the packets one after another (head, bubble: one slot each).
  const double body = double(f - 2 * n) / n;  // body flits per packet after the first
  const double per_packet = 1 + std::ceil(body * multiport_flit_cycles - 1e-9) + 1;
  const double paced = (n - 1) * (per_packet + 1) + per_packet - 1 + double(timing.stage_cycles) * (hops + 1);
  return std::max(plain, paced);
}

}  // namespace wn::alg
