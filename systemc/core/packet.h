// Every packet of a run, indexed by its id (the flit's msg field).
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

namespace wn {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

struct PacketRecord {
  int src = -1, dst = -1;
  int flits = 1;
  uint32_t step = 0;
  int inj_channel = -1;  // -1: any free channel
  int ej_channel = -1;
  uint64_t created = kNever;       // posted to the NI
  uint64_t head_injected = kNever; // head presented on the injection channel
  uint64_t tail_injected = kNever;
  uint64_t head_ejected = kNever;  // head on the ejection channel
  uint64_t tail_ejected = kNever;  // tail on the ejection channel = delivered
  int flits_received = 0;
  bool measured = false;           // created inside the measurement window
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

 private:
  std::vector<PacketRecord> packets_;
};

}  // namespace wn
