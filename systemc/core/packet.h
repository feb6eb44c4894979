// Every packet of a run, indexed by its id (the flit's msg field).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace wn {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

struct PacketRecord {
  int src = -1, dst = -1;
  int flits = 1;
  uint32_t step = 0;
  int inj_channel = -1;  // -1: any free channel
  // Firmware message it belongs to (UINT32_MAX: traffic). Consecutive packets
  // of one message on one injection channel form a chain in the delay view.
  uint32_t message = UINT32_MAX;
  int ej_channel = -1;
  uint64_t created = kNever;       // posted to the NI
  uint64_t head_injected = kNever; // head presented on the injection channel
  uint64_t tail_injected = kNever;
  uint64_t head_ejected = kNever;  // head on the ejection channel
  uint64_t tail_ejected = kNever;  // tail on the ejection channel = delivered
  int flits_received = 0;
  bool measured = false;           // created inside the measurement window
  // Firmware messages carry real data: words [data_offset, +data_words) of
  // *data, words_per_flit of them per body flit. Synthetic traffic has no data.
  std::shared_ptr<const std::vector<uint32_t>> data;
  uint32_t data_offset = 0, data_words = 0;
  int words_per_flit = 1;
};

// Deterministic payload of body flit `index` (1..flits-1) of packet `id`:
// the scoreboard recomputes it, so a flipped bit anywhere is caught.
constexpr uint64_t expected_payload(uint32_t id, int index) {
  uint64_t x = (uint64_t(id) << 16) ^ uint64_t(index) ^ 0x9e3779b97f4a7c15ull;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 29;
  return x & ((uint64_t{1} << 60) - 1);
}

// The 60-bit payload of body flit `index` (1..flits-1) of packet `id`: the
// data word itself when a flit carries one 32-bit word (the data really
// crosses the RTL), a 60-bit digest of its words when it carries several
// (the flit field is 60 bits wide; the words travel beside it and the digest
// proves they are the ones this flit carried), the synthetic pattern for
// traffic packets. The NI builds flits and the scoreboard checks them with it.
inline uint64_t body_payload(const PacketRecord& p, uint32_t id, int index) {
  if (!p.data) return expected_payload(id, index);
  const uint32_t first = p.data_offset + uint32_t(index - 1) * uint32_t(p.words_per_flit);
  const uint32_t end = std::min(p.data_offset + p.data_words, first + uint32_t(p.words_per_flit));
  if (p.words_per_flit == 1) return first < end ? (*p.data)[first] : 0;
  uint64_t x = 0x243f6a8885a308d3ull ^ uint64_t(index);
  for (uint32_t w = first; w < end; ++w) {
    x = (x ^ (*p.data)[w]) * 0x100000001b3ull;
    x ^= x >> 29;
  }
  return x & ((uint64_t{1} << 60) - 1);
}

class PacketStore {
 public:
  uint32_t add(const PacketRecord& p) {
    packets_.push_back(p);
    return uint32_t(packets_.size() - 1);
  }
  PacketRecord& operator[](uint32_t id) { return packets_[id]; }
  const PacketRecord& operator[](uint32_t id) const { return packets_[id]; }
  bool valid(uint32_t id) const { return id < packets_.size(); }
  size_t size() const { return packets_.size(); }
  const std::vector<PacketRecord>& all() const { return packets_; }
  void reserve(size_t n) { packets_.reserve(n); }
  // Hands the records over at the end of a run (the store is empty after).
  std::vector<PacketRecord> take() { return std::move(packets_); }

 private:
  std::vector<PacketRecord> packets_;
};

}  // namespace wn
