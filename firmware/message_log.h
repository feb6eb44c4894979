// Every firmware message of a run and the packets it was split into, shared
// by all nodes of one co-simulation. A message gets its id when its node's
// thread calls send(), in whatever order the SystemC kernel runs the threads
// that wake in the same nanosecond; after the run, renumber() makes the ids
// canonical (issue cycle, source node, program order), so they do not depend
// on the kernel's queue (or on which idle cycles the engine skipped).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "algorithms/combine_op.h"
#include "systemc/core/packet.h"

namespace wn::fw {

struct MessageRecord {
  int src = -1, dst = -1;
  uint32_t tag = 0;
  uint32_t step = 0;
  uint32_t words = 0;
  uint32_t packets = 0;
  uint32_t packets_injected = 0, packets_delivered = 0;
  int channel = -1;                  // requested injection channel (-1 any)
  int hops = 0;                      // beside channel: the record keeps its size with recv_called
  bool multiport = false;            // part of a multi-port operation (SendOptions::multiport)
  uint64_t issued = kNever;          // send() called: startup begins
  uint64_t posted = kNever;          // startup over: handed to the NI
  uint64_t head_injected = kNever;   // first head flit entered the router
  uint64_t injected = kNever;        // last tail flit entered the router
  uint64_t head_delivered = kNever;  // first head flit left the network
  uint64_t delivered = kNever;       // last tail flit left the network
  uint64_t completed = kNever;       // receive completed (after γ)
  uint64_t recv_called = kNever;     // the receive that completed it was called: the receiver's wait began
  // As sent, until the receive completes (then released: the receiver's
  // memory holds the words).
  std::shared_ptr<const std::vector<alg::Word>> data;
  std::vector<alg::Word> received;  // as reassembled from the flits, until the receive completes
};

struct MessageLog {
  std::vector<MessageRecord> messages;
  std::vector<uint32_t> message_of_packet;  // indexed by packet id

  // Orders messages by (issued, src, id) and rewrites every message id the run
  // recorded: message_of_packet and the packets' `message`. Call once, after
  // the run and before anything reads the ids.
  void renumber(std::vector<PacketRecord>& packets);
};

}  // namespace wn::fw
