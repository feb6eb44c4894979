// The message-passing API node firmware is written against. Every call is
// made from the node's own SystemC thread and consumes simulated time on the
// node's processor, which is a single serial resource:
//  - send(): α cycles of startup (serialized with every other send and
//    receive of this node, whatever the channel), then the message streams
//    into the network at one flit per cycle on its injection channel while
//    the processor goes on (send returns after the startup).
//  - recv(): blocks until the whole message has arrived, then γ cycles of
//    receive completion (serialized).
//  - compute(), copy(), combine(): cycles on the processor.
// With k injection/ejection channels (k-port), k messages stream in and out
// at once; one-port means one message injecting and one ejecting at a time.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/combine_op.h"
#include "algorithms/schedule.h"

namespace wn::fw {

using alg::Combine;
using alg::Range;
using alg::Word;

constexpr int kAnySource = -1;
constexpr int kAnyChannel = -1;

struct SendOptions {
  int channel = kAnyChannel;  // injection channel, or the first free one
  uint32_t tag = 0;           // matched by recv()
  int step = -1;              // carried in the flit header; -1: same as tag
  bool startup = true;        // pay the α startup (false: part of an exchange already paid for)
  // Part of a multi-port operation (an exchange on several channels at once): its startup and its
  // flits cost what the profile says such operations cost (MachineProfile::multiport_*).
  bool multiport = false;
};

struct Message {
  int src = -1;
  uint32_t tag = 0;
  std::vector<Word> words;
  uint64_t arrived = 0;    // cycle the last flit was delivered
  uint64_t completed = 0;  // cycle the receive completed (after γ)
};

using SendHandle = uint32_t;

class NodeApi {
 public:
  virtual ~NodeApi() = default;
  virtual int id() const = 0;
  virtual int nodes() const = 0;
  virtual int ports() const = 0;     // injection (= ejection) channels of this node
  virtual uint64_t now() const = 0;  // current cycle

  virtual SendHandle send(int dst, const std::vector<Word>& data, const SendOptions& opt) = 0;
  // Gathers `src` ranges of local memory (read after the startup) into one message.
  virtual SendHandle send_ranges(int dst, const std::vector<Range>& src, const SendOptions& opt) = 0;
  virtual Message recv(int src, uint32_t tag) = 0;  // src may be kAnySource
  // Receives one message matching any of (srcs[i], tags[i]); returns its index.
  virtual size_t recv_any(const std::vector<int>& srcs, const std::vector<uint32_t>& tags, Message& out) = 0;
  // Sends `out` to partner and receives partner's message with the same tag into `in`.
  virtual void exchange(int partner, const std::vector<Range>& out, const std::vector<Range>& in, uint32_t tag) = 0;
  virtual void wait_injected(SendHandle h) = 0;
  virtual void wait_all_injected() = 0;
  virtual void compute(uint64_t cycles) = 0;
  // The processor computes the reorder addresses of `ops` local operations, `words` in all: the
  // profile's index set-up once, its cycles per operation and per word.
  virtual void compute_indices(uint64_t words, uint64_t ops) = 0;

  // Local memory.
  virtual std::vector<Word>& memory() = 0;
  // Scatters words over ranges, merging with `c`; costs copy or combine cycles per word.
  virtual void store(const std::vector<Word>& words, const std::vector<Range>& dst, const Combine& c) = 0;
  // dst = c(dst, src) word by word (copy, or combine with an operator).
  virtual void combine(const std::vector<Range>& src, const std::vector<Range>& dst, const Combine& c) = 0;
  std::vector<Word> gather(const std::vector<Range>& src) {
    std::vector<Word> out;
    const std::vector<Word>& mem = memory();
    for (const Range& r : src)
      for (uint32_t k = 0; k < r.count; ++k) out.push_back(mem[r.at(k)]);
    return out;
  }

  // Waits until every node has completed all of its steps before `tag`
  // (--sync barrier; firmware/step_barrier.h), then pays the barrier's cost.
  virtual void step_barrier(uint32_t tag) = 0;

  // Step bookkeeping for reports (the interpreter calls these).
  virtual void begin_step(uint32_t tag) = 0;
  virtual void end_step(uint32_t tag) = 0;
  // The step's local operations are done, its sends not yet issued (snapshot
  // runs keep the memory here: e.g. Bruck's state after Phase 1).
  virtual void locals_done() {}
  // Announces a receive this node is about to wait for (synchronous sends,
  // firmware/rendezvous.h; nothing otherwise). The interpreter posts a step's
  // receives before its sends: the combined send-receive of the
  // CCL paper's §III.
  virtual void post_recv(int /*src*/, uint32_t /*tag*/) {}
};

}  // namespace wn::fw
