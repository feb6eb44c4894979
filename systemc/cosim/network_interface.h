// Network interface of one node: packetizes posted messages into flits and
// injects them at one flit per cycle per injection channel (credit flow
// control towards the router), and reassembles flits per ejection channel.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "systemc/core/packet.h"
#include "systemc/cosim/memory_port.h"
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

  // Ask for what drive() / collect() will read of the NI (a big network's loop over its nodes
  // calls them a few nodes ahead, with Network::prefetch_inject() / prefetch_out()).
  void prefetch_drive() const;
  void prefetch_collect() const;

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

  // The node's memory port (memory_port.h), `milli_words` thousandths of a word per cycle; without
  // one (the default) flits move at link speed whatever the node's channels do at once.
  void set_memory(uint32_t milli_words);
  bool memory_modelled() const { return mem_ != nullptr && mem_->port.modelled(); }
  // Packets marked paced (PacketRecord::paced: a multi-port operation's) present a body flit at
  // most every `milli_cycles` / 1000 cycles on each channel; 0: at link speed.
  void set_pacing(uint32_t milli_cycles);
  // The processor wants `words` memory accesses (a local operation); on_local_done(cycle) fires when
  // the last is served.
  void memory_local(uint64_t words);
  std::function<void(uint64_t cycle)> on_local_done;
  // One memory cycle, `cycle` (called after the edge of cycle-1, collect() first): serves the words
  // the channels and the processor want, and delivers the packets whose last word it wrote.
  // Returns whether the port has work left (deliveries, injection or local words).
  bool memory_cycle(uint64_t cycle);

  uint64_t flits_injected() const { return flits_injected_; }
  uint64_t flits_ejected() const { return flits_ejected_; }

 private:
  // A FIFO of packet ids on one vector that it reuses (a std::deque keeps its
  // blocks away from the NI, one more cache miss per busy node and cycle).
  class PacketQueue {
   public:
    bool empty() const { return head_ == ids_.size(); }
    size_t size() const { return ids_.size() - head_; }
    uint32_t front() const { return ids_[head_]; }
    void push_back(uint32_t id) { ids_.push_back(id); }
    void pop_front() {
      if (++head_ == ids_.size()) {
        ids_.clear();
        head_ = 0;
      } else if (head_ >= 64 && 2 * head_ >= ids_.size()) {  // the dead front outweighs the queue
        ids_.erase(ids_.begin(), ids_.begin() + std::ptrdiff_t(head_));
        head_ = 0;
      }
    }

   private:
    std::vector<uint32_t> ids_;
    size_t head_ = 0;
  };
  // A streaming packet's flits and payloads are resolved when it starts (PayloadSource).
  struct InjChannel {
    int credits = 0;
    int next = 0;
    int flits = 0;
    int64_t packet = -1;
    PacketQueue pinned;  // packets pinned to this channel, not started
    PayloadSource payload;
  };
  struct EjChannel {
    int64_t packet = -1;
    int next = 0;
    PayloadSource payload;
    // Data words reassembled so far: `words`, then `staged` words of `line` (appended a cache line
    // at a time: the buffers of a big network's NIs are cold, and one store a flit into them stalled).
    std::vector<uint32_t> words;
    uint32_t staged = 0;
    uint32_t line[16];
    void append(uint32_t w) {
      line[staged++] = w;
      if (staged == 16) flush();
    }
    void flush() {
      words.insert(words.end(), line, line + staged);
      staged = 0;
    }
    void clear() {
      words.clear();
      staged = 0;
    }
  };
  void take_words(EjChannel& ch, int index, uint64_t f);
  void deliver(uint32_t id, uint64_t cycle);
  // Memory port and pacing state (memory_port.h), allocated only when either is modelled.
  struct Memory {
    explicit Memory(uint32_t milli) : port(milli) {}
    MemoryPort port;
    std::array<uint32_t, kMaxPorts> have{};              // injection: words read for the next body flit
    std::array<uint64_t, kMaxPorts> waits{};             // injection: cycles that flit could go but for its words
    uint32_t pace = 0;                                   // thousandths of a cycle per paced flit (set_pacing)
    std::array<bool, kMaxPorts> paced{};                 // injection: the streaming packet is paced
    std::array<uint64_t, kMaxPorts> ready{};             // injection: thousandths of a cycle its next may go
    std::array<uint64_t, kMaxPorts> taken{}, written{};  // ejection: words ejected / in memory, cumulative
    // Ejection: packets complete in the NI, delivered when `written` reaches `after` (in order).
    struct Held {
      uint32_t id;
      uint64_t after;
      std::vector<uint32_t> words;
    };
    std::array<std::vector<Held>, kMaxPorts> held;
    std::array<size_t, kMaxPorts> held_first{};
    uint64_t local = 0;  // processor words wanted
  };
  uint32_t words_of(const InjChannel& ch) const;  // words of the body flit `ch` presents next
  // What a busy node's cycle reads comes first: a one-port node's is on the object's first lines.
  int node_;
  int inj_count_, ej_count_;
  size_t streaming_ = 0;
  size_t queued_ = 0;  // packets posted, not started
  uint64_t flits_injected_ = 0, flits_ejected_ = 0;
  Network& net_;
  PacketStore& store_;
  Scoreboard& sb_;
  PacketQueue any_queue_;
  std::array<InjChannel, kMaxPorts> inj_{};
  std::array<EjChannel, kMaxPorts> ej_{};
  std::vector<uint32_t> delivered_words_;
  std::unique_ptr<Memory> mem_;
};

}  // namespace wn
