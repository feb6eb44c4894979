// Network interface of one node: packetizes posted messages into flits and
// injects them at one flit per cycle per injection channel (credit flow
// control towards the router), and reassembles flits per ejection channel.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "systemc/core/packet.h"
#include "systemc/network/network.h"
#include "systemc/network/scoreboard.h"

namespace wn {

class NetworkInterface {
 public:
  NetworkInterface(int node, Network& net, PacketStore& store, Scoreboard& sb);

  // Queue packet `id` (already in the store) for injection. Its record's
  // inj_channel pins a channel; -1 takes the first free channel.
  void post(uint32_t id);
  // Before the clock edge of cycle `now`: present one flit per busy channel.
  void drive(uint64_t now);
  // After the edge: take credits and ejected flits (they are on the
  // ejection channels during cycle now+1).
  void collect(uint64_t now);

  size_t backlog() const;  // packets queued, not yet started
  // Injection channels that would start the next unpinned packet at drive(): idle, nothing pinned
  // to them. A source that keeps its own queue posts this many (less the backlog) just in time.
  int free_channels() const;
  bool idle() const;  // nothing queued or streaming
  std::function<void(uint32_t id, uint64_t cycle)> on_delivery;
  // Called when a packet's tail has been injected (its channel is free again).
  std::function<void(uint32_t id, uint64_t cycle)> on_injected;
  // During on_delivery of a data packet: its words as they came out of the
  // network (from the flits themselves at one word per flit).
  const std::vector<uint32_t>& delivered_words() const { return delivered_words_; }

  uint64_t flits_injected() const { return flits_injected_; }
  uint64_t flits_ejected() const { return flits_ejected_; }

 private:
  struct InjChannel {
    int credits = 0;
    int64_t packet = -1;
    int next = 0;
  };
  struct EjChannel {
    int64_t packet = -1;
    int next = 0;
    std::vector<uint32_t> words;  // data words reassembled so far
  };
  void take_words(EjChannel& ch, const PacketRecord& p, int index, uint64_t f);
  int node_;
  Network& net_;
  PacketStore& store_;
  Scoreboard& sb_;
  int inj_count_, ej_count_;
  std::array<InjChannel, kMaxPorts> inj_{};
  std::array<EjChannel, kMaxPorts> ej_{};
  std::deque<uint32_t> any_queue_;
  std::array<std::deque<uint32_t>, kMaxPorts> pinned_;
  std::vector<uint32_t> delivered_words_;
  size_t streaming_ = 0;
  uint64_t flits_injected_ = 0, flits_ejected_ = 0;
};

}  // namespace wn
