// Every packet of a run, indexed by its id (the flit's msg field).
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "systemc/core/prefetch.h"
#include "wormnet/flit_layout.h"

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
  uint64_t created = kNever;        // posted to the NI
  uint64_t head_injected = kNever;  // head presented on the injection channel
  uint64_t tail_injected = kNever;
  uint64_t head_ejected = kNever;  // head on the ejection channel
  uint64_t tail_ejected = kNever;  // tail on the ejection channel = delivered ...
  uint64_t stored = kNever;        // ... or, with a memory port, its last word in memory
  int flits_received = 0;
  bool measured = false;  // created inside the measurement window
  bool paced = false;     // its body flits go no faster than the node's multi-port rate (NI set_pacing)
  // Firmware messages carry real data: words [data_offset, +data_words) of
  // *data, words_per_flit of them per body flit. Synthetic traffic has no data.
  std::shared_ptr<const std::vector<uint32_t>> data;
  uint32_t data_offset = 0, data_words = 0;
  int words_per_flit = 1;
};

// The cycle the packet's data was the destination's: delivered (and in memory, with a memory port).
inline uint64_t delivered_at(const PacketRecord& p) { return p.stored != kNever ? p.stored : p.tail_ejected; }

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
//
// Resolved once per packet: a streaming NI then reads only the words (a
// firmware run's packets are long, and the record and the vector holding the
// words would be two more cache misses per flit), and reads them a cache line
// at a time: the words of a big run's messages are hundreds of MB, which no
// cache (nor TLB) holds from one cycle to the next.
struct PayloadSource {
  const std::vector<uint32_t>* data = nullptr;  // the record's words (null: synthetic traffic)
  const uint32_t* words = nullptr;              // the packet's first word
  uint32_t count = 0;                           // data_words
  uint32_t per_flit = 1;                        // words_per_flit
  PayloadSource() = default;
  explicit PayloadSource(const PacketRecord& p)
      : data(p.data.get()),
        words(p.data ? p.data->data() + p.data_offset : nullptr),
        count(p.data_words),
        per_flit(uint32_t(p.words_per_flit)) {}
  // Body flit `index` of packet `id`'s payload.
  uint64_t at(uint32_t id, int index) const {
    if (!data) return expected_payload(id, index);
    const uint32_t first = uint32_t(index - 1) * per_flit;
    const uint32_t end = std::min(count, first + per_flit);
    if (first >= end) return per_flit == 1 ? 0 : digest(index, nullptr, nullptr);
    return per_flit == 1 ? words[first] : digest(index, words + first, words + end);
  }
  // The same, for a reader that goes through the flits in order: one word a
  // flit comes from a copy of the rest of its cache line.
  uint64_t next(uint32_t id, int index) {
    const uint32_t first = uint32_t(index - 1) * per_flit;
    if (!data || per_flit != 1 || first >= count) return at(id, index);
    if (first - staged_first >= staged_end - staged_first) stage(first);
    return staged_[first - staged_first];
  }

 private:
  static uint64_t digest(int index, const uint32_t* w, const uint32_t* end) {
    uint64_t x = 0x243f6a8885a308d3ull ^ uint64_t(index);
    for (; w < end; ++w) {
      x = (x ^ *w) * 0x100000001b3ull;
      x ^= x >> 29;
    }
    return x & ((uint64_t{1} << 60) - 1);
  }
  void stage(uint32_t first) {
    const uint32_t to_line_end = uint32_t(64 - (reinterpret_cast<uintptr_t>(words + first) & 63)) / 4;
    const uint32_t n = std::min(std::max(to_line_end, 1u), count - first);
    std::copy(words + first, words + first + n, staged_);
    staged_first = first;
    staged_end = first + n;
    if (staged_end < count) prefetch_line(words + staged_end);
  }
  uint32_t staged_first = 0, staged_end = 0;  // words [staged_first, staged_end) are in staged_
  uint32_t staged_[16] = {};
};
inline uint64_t body_payload(const PacketRecord& p, uint32_t id, int index) { return PayloadSource(p).at(id, index); }

// Packet ids and the flit's msg field (rtl/README.md §1): a head flit carries
// id mod 2^WN_MSG_W, the "tag". The receiver turns a tag back into the id with
// id_of_tag(), which is exact as long as every packet whose head can be in the
// network lies in a window of fewer than 2^WN_MSG_W consecutive ids. It does:
// a head is in the network only between its packet's creation and its
// delivery, i.e. its id is in [oldest undelivered id, next id), and add()
// refuses to open a window of 2^WN_MSG_W ids (error naming the msg field;
// reaching it needs 2^WN_MSG_W = 2^24 undelivered records in memory, about 2 GiB).
constexpr uint64_t kMsgTags = uint64_t{1} << layout::WN_MSG_W;
// Ids themselves are 32-bit: a run creates at most 2^32 packets (add() refuses more).
constexpr uint64_t kMaxPacketIds = uint64_t{1} << 32;
constexpr uint32_t msg_tag(uint32_t id) { return uint32_t(id & (kMsgTags - 1)); }

// Every packet of a run by id (ids are assigned in creation order from 0; the
// flit carries msg_tag(id), see above). By default every record is kept until
// take() (firmware runs report on them all). A run that needs a packet only
// until it is checked (traffic) calls release(id) after delivery: the records
// before the oldest unreleased id are then dropped from the front, so memory
// follows the packets in flight, not the run length. store[id] stays O(1).
class PacketStore {
 public:
  PacketStore() = default;
  // Tests only: number the first packet `first_id` (as if the ids before it
  // were created and delivered) and cap the window of undelivered ids lower.
  explicit PacketStore(uint64_t first_id, uint64_t max_window = kMsgTags)
      : first_(first_id), base_(first_id), max_window_(max_window) {}
  uint32_t add(const PacketRecord& p) {
    if (end() - base_ >= max_window_)
      throw std::overflow_error("packet ids: " + std::to_string(end() - base_) +
                                " packets are undelivered at once, but the flit's msg field (" +
                                std::to_string(layout::WN_MSG_W) + " bits) tells apart at most " +
                                std::to_string(max_window_) +
                                " packets in flight; allowed: fewer undelivered packets (a lower injection rate, fewer "
                                "nodes or a shorter run)");
    if (end() >= kMaxPacketIds)
      throw std::overflow_error("packet ids: a run creates at most 2^32 packets; allowed: a shorter run");
    records_.push_back(p);
    released_.push_back(0);
    return uint32_t(first_ + records_.size() - 1);
  }
  // Only for a valid id (a released record may be gone).
  PacketRecord& operator[](uint32_t id) { return records_[id - first_]; }
  const PacketRecord& operator[](uint32_t id) const { return records_[id - first_]; }
  // Created and not released.
  bool valid(uint32_t id) const { return id >= base_ && id < end() && !released_[id - first_]; }
  // Created, then released: a flit naming it now is a duplicate, not a stray id.
  bool released(uint32_t id) const { return id < end() && !valid(id); }
  // The id of the packet whose head carries msg field `tag`: the one id in
  // [oldest undelivered, oldest undelivered + 2^WN_MSG_W) with that tag. If
  // that id was not created yet, the id 2^WN_MSG_W below it (already
  // delivered: a late duplicate) when there is one. In a run that never
  // created 2^WN_MSG_W packets this is the tag itself.
  uint32_t id_of_tag(uint32_t tag) const {
    const uint64_t mask = kMsgTags - 1;
    uint64_t id = base_ + ((uint64_t(tag) - base_) & mask);
    if (id >= end() && id >= kMsgTags) id -= kMsgTags;
    return uint32_t(id);
  }
  // Packets created so far, released ones included: ids are 0 .. size()-1.
  size_t size() const { return size_t(end()); }
  // Records held (released ones behind the oldest unreleased id included).
  size_t window() const { return records_.size(); }
  size_t capacity() const { return records_.capacity(); }
  void reserve(size_t n) {
    records_.reserve(n);
    released_.reserve(n);
  }
  // The packet is delivered and checked: nobody reads its record again.
  void release(uint32_t id) {
    if (!valid(id)) return;
    released_[id - first_] = 1;
    records_[id - first_].data.reset();  // a data packet's words may be large
    while (base_ < end() && released_[base_ - first_]) ++base_;
    // Erasing the dead prefix once it outweighs the live records costs at
    // most one move per released record, and keeps the vectors within about
    // twice the largest window (their capacity is reused, never regrown).
    const size_t dead = size_t(base_ - first_);
    if (dead >= kCompactAt && dead >= records_.size() / 2) {
      records_.erase(records_.begin(), records_.begin() + ptrdiff_t(dead));
      released_.erase(released_.begin(), released_.begin() + ptrdiff_t(dead));
      first_ = base_;
    }
  }
  // Hands every record over at the end of a run, in id order (the store is
  // empty after). Only for runs that never release one.
  std::vector<PacketRecord> take() {
    assert(std::none_of(released_.begin(), released_.end(), [](uint8_t r) { return r; }) && first_ == 0 &&
           "take() after release()");
    released_.clear();
    return std::move(records_);
  }

 private:
  static constexpr size_t kCompactAt = 4096;
  uint64_t end() const { return first_ + records_.size(); }
  std::vector<PacketRecord> records_;  // ids first_ .. end()-1
  std::vector<uint8_t> released_;      // per record: released, waiting for older ids
  uint64_t first_ = 0;                 // id of records_[0]
  uint64_t base_ = 0;                  // oldest unreleased id (or end())
  uint64_t max_window_ = kMsgTags;     // undelivered ids that tags tell apart
};

}  // namespace wn
