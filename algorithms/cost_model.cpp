#include "algorithms/cost_model.h"

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

}  // namespace wn::alg
