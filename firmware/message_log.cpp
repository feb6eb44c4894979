#include "firmware/message_log.h"

#include <algorithm>
#include <numeric>

namespace wn::fw {

void MessageLog::renumber(std::vector<PacketRecord>& packets) {
  const uint32_t n = uint32_t(messages.size());
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  // A node's own messages keep their program order: its thread numbered them in sequence.
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const MessageRecord &x = messages[a], &y = messages[b];
    if (x.issued != y.issued) return x.issued < y.issued;
    if (x.src != y.src) return x.src < y.src;
    return a < b;
  });
  std::vector<uint32_t> new_id(n);
  bool moved = false;
  for (uint32_t i = 0; i < n; ++i) {
    new_id[order[i]] = i;
    moved |= order[i] != i;
  }
  if (!moved) return;
  // In place, cycle by cycle of the permutation: a sorted copy was a second log at the run's peak.
  for (uint32_t i = 0; i < n; ++i) {
    if (order[i] == i) continue;
    MessageRecord held = std::move(messages[i]);
    uint32_t j = i;
    for (uint32_t k = order[j]; k != i; k = order[j]) {
      messages[j] = std::move(messages[k]);
      order[j] = j;
      j = k;
    }
    messages[j] = std::move(held);
    order[j] = j;
  }
  for (uint32_t& m : message_of_packet)
    if (m < n) m = new_id[m];
  for (PacketRecord& p : packets)
    if (p.message < n) p.message = new_id[p.message];
}

}  // namespace wn::fw
