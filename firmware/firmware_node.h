// One node of a firmware co-simulation: an SC_MODULE with the node's network
// interface, its local memory, and an SC_THREAD running the node firmware
// against NodeApi. Timing convention: the fabric clocks the network at
// t = n + 0.5 ns for cycle n; firmware threads only run at whole nanoseconds,
// so at time t the firmware is "in cycle t": it sees every message delivered
// by cycle t, and a message it posts at t is driven into the router in cycle t.
#pragma once
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <systemc>

#include "firmware/machine_profile.h"
#include "firmware/message_log.h"
#include "firmware/node_api.h"
#include "firmware/rendezvous.h"
#include "firmware/run_census.h"
#include "firmware/step_barrier.h"
#include "systemc/cosim/network_interface.h"

namespace wn::fw {

using FirmwareFn = std::function<void(NodeApi&)>;

struct StepSpan {
  uint32_t tag = 0;
  uint64_t start = 0, end = 0;
  std::vector<Word> memory;        // the node's memory when it finished the step (snapshot runs only)
  std::vector<Word> before_sends;  // ... after the step's local operations, before its sends (snapshot runs only)
};

// What a node's processor did besides sending and receiving, for a timeline (recorded only when
// asked for: FirmwareNode::set_timeline): address computation (index), copying or combining words
// into memory (a receive's store included), compute(), and waiting at a step barrier (its cost
// included).
enum class LocalKind : uint8_t { Index, Copy, Combine, Compute, Barrier };
struct LocalSpan {
  uint64_t start = 0, end = 0;
  uint32_t words = 0;  // words indexed, copied or combined (0: compute, barrier)
  LocalKind kind = LocalKind::Compute;
};

class FirmwareNode : public sc_core::sc_module, public NodeApi {
 public:
  SC_HAS_PROCESS(FirmwareNode);
  FirmwareNode(const sc_core::sc_module_name& name, int node, Network& net, PacketStore& store, Scoreboard& sb,
               MessageLog& log, const MachineProfile& profile, FirmwareFn firmware);

  // --- NodeApi (called from this node's thread) ---
  int id() const override { return node_; }
  int nodes() const override { return net_.topology().nodes(); }
  int ports() const override { return net_.params().inj; }
  uint64_t now() const override;
  SendHandle send(int dst, const std::vector<Word>& data, const SendOptions& opt) override;
  SendHandle send_ranges(int dst, const std::vector<Range>& src, const SendOptions& opt) override;
  Message recv(int src, uint32_t tag) override;
  size_t recv_any(const std::vector<int>& srcs, const std::vector<uint32_t>& tags, Message& out) override;
  void exchange(int partner, const std::vector<Range>& out, const std::vector<Range>& in, uint32_t tag) override;
  void wait_injected(SendHandle h) override;
  void wait_all_injected() override;
  void compute(uint64_t cycles) override;
  void compute_indices(uint64_t words, uint64_t ops) override;
  std::vector<Word>& memory() override { return memory_; }
  void store(const std::vector<Word>& words, const std::vector<Range>& dst, const Combine& c) override;
  void combine(const std::vector<Range>& src, const std::vector<Range>& dst, const Combine& c) override;
  void step_barrier(uint32_t tag) override;
  void begin_step(uint32_t tag) override;
  void end_step(uint32_t tag) override;
  void locals_done() override;
  void post_recv(int src, uint32_t tag) override;

  // --- fabric side (clock edge, node order) ---
  void flush_outbox(uint64_t cycle);  // before the edge: new packets to the NI
  NetworkInterface ni;

  bool finished() const { return finished_; }
  bool blocked() const { return blocked_; }  // waiting for a message or an injection
  bool has_outbox() const { return !outbox_.empty(); }
  uint64_t finish_cycle() const { return finish_cycle_; }
  const std::string& waiting_for() const { return waiting_for_; }
  // An exception thrown by the firmware (bad destination, ...), or null.
  std::exception_ptr error() const { return error_; }
  const std::vector<StepSpan>& steps() const { return steps_; }
  std::vector<StepSpan> take_steps() { return std::move(steps_); }  // at the end of a run
  // Test-only: XOR `mask` into word 0 of the first data message this node receives.
  void set_receive_fault(Word mask) { fault_mask_ = mask; }
  // Keep a copy of the memory at the end of every step (golden-table tests, reports).
  void set_snapshots(bool on) { snapshots_ = on; }
  // The run's step barrier (every node's program reports to it when it returns).
  void set_barrier(StepBarrier* b) { barrier_ = b; }
  // Synchronous sends: a send waits for the receiver's posted receive (nullptr: buffered sends).
  void set_rendezvous(Rendezvous* r) { rendezvous_ = r; }
  // The run's census: told when this node has packets to send and when its firmware returns.
  void set_census(RunCensus* c) { census_ = c; }
  // Keep the local operations' spans (a timeline of the run); none are kept otherwise.
  void set_timeline(bool on) { timeline_ = on; }
  std::vector<LocalSpan> take_local_ops() { return std::move(local_); }  // at the end of a run

 private:
  void main();
  void wait_cycles(uint64_t n);
  // wait_cycles(n), kept as a span of `kind` when the timeline is on and it takes time.
  // `n` processor cycles on `words` words; with a memory port, the operation also makes `accesses`
  // memory accesses and ends when both are done.
  void local_cycles(uint64_t n, LocalKind kind, uint64_t words, uint64_t accesses = 0);
  // store() with a local copy's extra cycles per word (combine(): a reorder in memory).
  void put(const std::vector<Word>& words, const std::vector<Range>& dst, const Combine& c, double reorder_per_word);
  void on_delivery(uint32_t packet, uint64_t cycle);
  void on_injected(uint32_t packet, uint64_t cycle);
  uint32_t new_message(int dst, std::shared_ptr<const std::vector<Word>> data, const SendOptions& opt);
  Message complete(uint32_t msg);
  void check_peer(int node, const char* what) const;

  int node_;
  Network& net_;
  PacketStore& store_;
  MessageLog& log_;
  const MachineProfile& profile_;
  FirmwareFn firmware_;
  std::vector<Word> memory_;
  std::deque<uint32_t> outbox_;    // messages whose startup is over, not yet packetized
  std::vector<uint32_t> mailbox_;  // arrived, not yet received (arrival order)
  std::vector<uint32_t> sent_;     // this node's messages
  sc_core::sc_event arrival_ev_, injected_ev_, memory_ev_;
  bool memory_wait_ = false;  // a local operation's accesses are not all served
  // Processor work is charged per word in fractions of a cycle; the fraction an operation leaves
  // carries to the next, so that many small operations cost what one of their total size does
  // (and what the step model adds up).
  double work_fraction_ = 0;
  uint64_t whole_cycles(double work);
  bool finished_ = false, blocked_ = false;
  uint64_t finish_cycle_ = 0;
  std::string waiting_for_;
  std::vector<StepSpan> steps_;
  Word fault_mask_ = 0;
  bool snapshots_ = false;
  bool timeline_ = false;
  std::vector<LocalSpan> local_;
  std::exception_ptr error_;
  StepBarrier* barrier_ = nullptr;
  Rendezvous* rendezvous_ = nullptr;
  RunCensus* census_ = nullptr;
  std::map<std::pair<int, uint32_t>, int> posted_;  // receives this node posted and has not completed
};

}  // namespace wn::fw
