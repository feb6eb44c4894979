#include "firmware/firmware_node.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "systemc/core/config_error.h"

namespace wn::fw {

using sc_core::SC_NS;
using sc_core::sc_time;

FirmwareNode::FirmwareNode(const sc_core::sc_module_name& name, int node, Network& net, PacketStore& store,
                           Scoreboard& sb, MessageLog& log, const MachineProfile& profile, FirmwareFn firmware)
    : sc_core::sc_module(name),
      ni(node, net, store, sb),
      node_(node),
      net_(net),
      store_(store),
      log_(log),
      profile_(profile),
      firmware_(std::move(firmware)) {
  ni.on_delivery = [this](uint32_t id, uint64_t cycle) { on_delivery(id, cycle); };
  ni.on_injected = [this](uint32_t id, uint64_t cycle) { on_injected(id, cycle); };
  ni.on_local_done = [this](uint64_t cycle) {
    memory_wait_ = false;
    memory_ev_.notify(sc_time(double(cycle), SC_NS) - sc_core::sc_time_stamp());
  };
  SC_THREAD(main);
  // Firmware (and the interpreter's containers) run on this stack.
  set_stack_size(512 * 1024);
}

uint64_t FirmwareNode::now() const { return uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.25); }

void FirmwareNode::main() {
  try {
    if (firmware_) firmware_(*this);
  } catch (...) {
    error_ = std::current_exception();
  }
  finished_ = true;
  finish_cycle_ = now();
  if (census_) census_->finished(error_ != nullptr);
  if (barrier_) barrier_->arrive(node_, StepBarrier::kDone);
}

void FirmwareNode::step_barrier(uint32_t tag) {
  if (!barrier_) return;
  const uint64_t arrived = now();
  barrier_->arrive(node_, tag);
  while (!barrier_->released(tag)) {
    blocked_ = true;
    waiting_for_ = fmt::format("the barrier before step {} ({} nodes have not finished the steps before it)", tag,
                               barrier_->missing(tag));
    wait(barrier_->changed());
  }
  blocked_ = false;
  waiting_for_.clear();
  if (tag > 0) wait_cycles(barrier_->cost_cycles());  // the barrier between step tag-1 and tag
  if (timeline_ && now() > arrived) local_.push_back({arrived, now(), 0, LocalKind::Barrier});
}

void FirmwareNode::wait_cycles(uint64_t n) {
  if (n) wait(sc_time(double(n), SC_NS));
}

void FirmwareNode::check_peer(int node, const char* what) const {
  if (node < 0 || node >= nodes() || node == node_)
    throw ConfigError("firmware", fmt::format("node {}: {} node {} is not another node of {}", node_, what, node,
                                              net_.topology().name()));
}

// ---------------------------------------------------------------- sending --

uint32_t FirmwareNode::new_message(int dst, std::shared_ptr<const std::vector<Word>> data, const SendOptions& opt) {
  check_peer(dst, "send to");
  if (opt.channel >= net_.params().inj)
    throw ConfigError("firmware", fmt::format("node {}: injection channel {} but the port model has {}", node_,
                                              opt.channel, net_.params().inj));
  MessageRecord m;
  m.src = node_;
  m.dst = dst;
  m.tag = opt.tag;
  m.step = opt.step < 0 ? opt.tag : uint32_t(opt.step);
  m.words = uint32_t(data->size());
  m.channel = opt.channel;
  m.hops = net_.topology().hops(node_, dst);
  m.multiport = opt.multiport;
  m.data = std::move(data);
  m.issued = now();
  log_.messages.push_back(std::move(m));
  const uint32_t id = uint32_t(log_.messages.size() - 1);
  sent_.push_back(id);
  return id;
}

void FirmwareNode::post_recv(int src, uint32_t tag) {
  if (!rendezvous_) return;
  ++posted_[{src, tag}];
  rendezvous_->post(node_, src, tag);
}

SendHandle FirmwareNode::send(int dst, const std::vector<Word>& data, const SendOptions& opt) {
  while (rendezvous_ && !rendezvous_->take(dst, node_, opt.tag)) {
    blocked_ = true;
    waiting_for_ = fmt::format("node {} to post a receive from {} tag {} (synchronous send)", dst, node_, opt.tag);
    wait(rendezvous_->changed());
  }
  blocked_ = false;
  waiting_for_.clear();
  const uint32_t id = new_message(dst, std::make_shared<const std::vector<Word>>(data), opt);
  // Startup on this node's processor, serialized; a multi-port operation's may cost more.
  if (opt.startup) wait_cycles(uint64_t(profile_.alpha) + (opt.multiport ? profile_.multiport_startup : 0));
  log_.messages[id].posted = now();
  outbox_.push_back(id);
  if (census_) census_->wake(node_);
  return id;
}

SendHandle FirmwareNode::send_ranges(int dst, const std::vector<Range>& src, const SendOptions& opt) {
  // The words are read when the send is issued (the data is "in the NI's
  // buffer" from then on; later local updates do not change the message).
  return send(dst, gather(src), opt);
}

// Before the clock edge of `cycle`: packetize every message whose startup is
// over and queue its packets on the NI (ids in node order: deterministic).
void FirmwareNode::flush_outbox(uint64_t cycle) {
  while (!outbox_.empty()) {
    const uint32_t mid = outbox_.front();
    outbox_.pop_front();
    MessageRecord& m = log_.messages[mid];
    const uint32_t max_words = profile_.max_packet_bytes / 4;
    uint32_t offset = 0;
    do {
      const uint32_t w = max_words == 0 ? m.words : std::min(max_words, m.words - offset);
      PacketRecord p;
      p.src = node_;
      p.dst = m.dst;
      p.step = m.step;
      p.inj_channel = m.channel;
      p.message = mid;
      p.created = cycle;
      p.data = m.data;
      p.data_offset = offset;
      p.data_words = w;
      p.words_per_flit = profile_.words_per_flit();
      p.paced = m.multiport;
      p.flits = 1 + int((w + uint32_t(p.words_per_flit) - 1) / uint32_t(p.words_per_flit));
      const uint32_t pid = store_.add(p);
      if (log_.message_of_packet.size() <= pid) log_.message_of_packet.resize(pid + 1, UINT32_MAX);
      log_.message_of_packet[pid] = mid;
      ++m.packets;
      ni.post(pid);
      offset += w;
    } while (offset < m.words);
  }
}

void FirmwareNode::on_injected(uint32_t packet, uint64_t cycle) {
  MessageRecord& m = log_.messages[log_.message_of_packet[packet]];
  if (m.head_injected == kNever) m.head_injected = store_[packet].head_injected;
  if (++m.packets_injected == m.packets) {
    m.injected = cycle;
    // The channel is free from the next cycle on: wake the thread then.
    injected_ev_.notify(sc_time(double(cycle + 1), SC_NS) - sc_core::sc_time_stamp());
  }
}

void FirmwareNode::wait_injected(SendHandle h) {
  if (h >= log_.messages.size() || log_.messages[h].src != node_)
    throw ConfigError("firmware", fmt::format("node {}: wait_injected on a message it did not send", node_));
  while (log_.messages[h].injected == kNever || log_.messages[h].injected >= now()) {
    blocked_ = true;
    waiting_for_ =
        fmt::format("injection of its message to node {} (tag {})", log_.messages[h].dst, log_.messages[h].tag);
    wait(injected_ev_);
    blocked_ = false;
  }
}

void FirmwareNode::wait_all_injected() {
  for (uint32_t id : sent_) wait_injected(id);
  sent_.clear();
}

// -------------------------------------------------------------- receiving --

void FirmwareNode::on_delivery(uint32_t packet, uint64_t cycle) {
  if (packet >= log_.message_of_packet.size()) return;
  const uint32_t mid = log_.message_of_packet[packet];
  MessageRecord& m = log_.messages[mid];
  const PacketRecord& p = store_[packet];
  if (m.received.size() != m.words) m.received.assign(m.words, 0);
  const auto& words = ni.delivered_words();
  std::copy(words.begin(), words.end(), m.received.begin() + p.data_offset);
  // Delivered and checked: the packet no longer needs the sent words (a big
  // cube's run holds 10^7 messages; their data would be GBs).
  store_[packet].data.reset();
  if (m.head_delivered == kNever) m.head_delivered = p.head_ejected;
  if (++m.packets_delivered == m.packets) {
    m.delivered = cycle;
    mailbox_.push_back(mid);
    arrival_ev_.notify(sc_time(double(cycle), SC_NS) - sc_core::sc_time_stamp());
  }
}

Message FirmwareNode::complete(uint32_t mid) {
  wait_cycles(profile_.gamma);  // receive completion, serialized on the processor
  MessageRecord& m = log_.messages[mid];
  m.completed = now();
  Message out;
  out.src = m.src;
  out.tag = m.tag;
  out.words = std::move(m.received);
  m.received = {};
  m.data.reset();  // the log keeps the timing; the words now live in the receiver's memory
  out.arrived = m.delivered;
  out.completed = m.completed;
  if (fault_mask_ && !out.words.empty()) {
    out.words[0] ^= fault_mask_;
    fault_mask_ = 0;
  }
  return out;
}

size_t FirmwareNode::recv_any(const std::vector<int>& srcs, const std::vector<uint32_t>& tags, Message& out) {
  const uint64_t called = now();
  for (int s : srcs)
    if (s != kAnySource) check_peer(s, "receive from");
  if (rendezvous_)  // a receive the firmware waits in is posted (once)
    for (size_t k = 0; k < srcs.size(); ++k)
      if (srcs[k] != kAnySource && !posted_.count({srcs[k], tags[k]})) post_recv(srcs[k], tags[k]);
  for (;;) {
    // Oldest arrival first; among simultaneous arrivals, the order delivered.
    for (size_t i = 0; i < mailbox_.size(); ++i) {
      const MessageRecord& m = log_.messages[mailbox_[i]];
      for (size_t k = 0; k < srcs.size(); ++k) {
        if ((srcs[k] == kAnySource || srcs[k] == m.src) && tags[k] == m.tag) {
          const uint32_t mid = mailbox_[i];
          if (auto p = posted_.find({m.src, m.tag}); p != posted_.end() && --p->second == 0) posted_.erase(p);
          mailbox_.erase(mailbox_.begin() + long(i));
          log_.messages[mid].recv_called = called;
          out = complete(mid);
          return k;
        }
      }
    }
    blocked_ = true;
    std::string what;
    for (size_t k = 0; k < srcs.size() && k < 4; ++k)
      what += fmt::format("{}{} tag {}", k ? ", " : "",
                          srcs[k] == kAnySource ? std::string("any") : std::to_string(srcs[k]), tags[k]);
    waiting_for_ = "a message from " + what + (srcs.size() > 4 ? ", ..." : "");
    wait(arrival_ev_);
    blocked_ = false;
  }
}

Message FirmwareNode::recv(int src, uint32_t tag) {
  Message m;
  recv_any({src}, {tag}, m);
  return m;
}

void FirmwareNode::exchange(int partner, const std::vector<Range>& out, const std::vector<Range>& in, uint32_t tag) {
  SendOptions opt;
  opt.tag = tag;
  const SendHandle h = send_ranges(partner, out, opt);
  const Message m = recv(partner, tag);
  store(m.words, in, Combine{});
  wait_injected(h);
}

void FirmwareNode::begin_step(uint32_t tag) { steps_.push_back({tag, now(), now()}); }
void FirmwareNode::locals_done() {
  if (snapshots_ && !steps_.empty()) steps_.back().before_sends = memory_;
}
void FirmwareNode::end_step(uint32_t tag) {
  if (steps_.empty() || steps_.back().tag != tag) return;
  steps_.back().end = now();
  if (snapshots_) steps_.back().memory = memory_;
}

}  // namespace wn::fw
