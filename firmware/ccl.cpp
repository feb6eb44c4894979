#include "firmware/ccl.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "firmware/schedule_interpreter.h"

namespace wn::fw::ccl {

using alg::ccl::Call;
using alg::ccl::Op;

namespace {

// CCL's private tag range: bit 31 set (no schedule or user tag reaches it);
// 19 bits name the (group, call) pair, 12 bits the step.
constexpr uint32_t kTagBase = 0x80000000u;
constexpr uint32_t kStepBits = 12;

uint32_t call_tag(const Group& g) {
  const uint32_t h = g.pgid.first * 2654435761u ^ uint32_t(g.pgid.second) * 40503u ^ g.calls * 97u;
  return kTagBase | ((h & 0x7FFFFu) << kStepBits);
}

void relocate(std::vector<alg::Range>& v, uint32_t base) {
  for (auto& r : v) r.offset += base;
}

}  // namespace

int Group::rank_of(int p) const {
  const auto it = std::find(members.begin(), members.end(), p);
  return it == members.end() ? -1 : int(it - members.begin());
}

Library::Library(NodeApi& api, std::vector<int> all, uint32_t scratch, bool barrier)
    : api_(api), scratch_(scratch), barrier_(barrier) {
  all_ = make(std::move(all), 0, {0, -1});
  all_.pgid = {0, -1};  // ALL: predefined, distinct from every created group (whose pid is >= 0)
}

uint32_t Library::scratch_words(int n_all) { return region_words(Op::Concat, n_all, 4); }

uint32_t Library::region_words(Op op, int n, uint32_t b, const Tuning& t, alg::OpId op_id) {
  Call c;
  c.op = op;
  c.n = n;
  c.b = b;
  c.alg = t.alg;
  c.radix = t.radix;
  c.kappa = t.kappa;
  c.packet = t.packet;
  c.window = t.window;
  c.op_id = op_id;
  return alg::ccl::layout_words(c);
}

Group Library::make(std::vector<int> members, int label, std::pair<uint32_t, int> pgid) {
  Group g;
  g.members = std::move(members);
  g.rank = g.rank_of(api_.id());
  g.label = label;
  g.pgid = pgid;
  return g;
}

void Library::run(Group& g, Call c, uint32_t base) {
  if (g.rank < 0)
    throw std::logic_error(fmt::format("ccl: node {} calls {} on a group it is not a member of", api_.id(),
                                       alg::ccl::op_names()[size_t(c.op)]));
  c.n = g.size();
  if (c.alg.empty() && model_.first >= 0 && c.op != Op::Sync) {
    const alg::ccl::Choice ch = alg::ccl::choose_by_model(c, model_.first, model_.second);
    if (!ch.call.alg.empty()) c = ch.call;
    last_choice_ = ch.why;
  }
  if (const std::string why = alg::ccl::unsupported(c); !why.empty())
    throw std::invalid_argument("ccl " + alg::ccl::op_names()[size_t(c.op)] + ": " + why);
  const uint32_t words = alg::ccl::layout_words(c);
  if (uint64_t(base) + words > api_.memory().size())
    throw std::invalid_argument(fmt::format("ccl {}: region [{}, +{}) outside node memory of {} words",
                                            alg::ccl::op_names()[size_t(c.op)], base, words, api_.memory().size()));
  alg::Schedule s = alg::ccl::build(c);
  std::vector<alg::Step> prog = std::move(s.programs[size_t(g.rank)]);
  const uint32_t tag = call_tag(g);
  ++g.calls;
  for (alg::Step& st : prog) {
    for (auto& l : st.locals) relocate(l.src, base), relocate(l.dst, base);
    for (auto& l : st.after) relocate(l.src, base), relocate(l.dst, base);
    for (auto& m : st.sends) {
      relocate(m.src, base);
      m.dst = g.pid(m.dst);
      m.tag = tag | m.tag;
    }
    for (auto& m : st.recvs) {
      relocate(m.dst, base);
      m.src = g.pid(m.src);
      m.tag = tag | m.tag;
    }
  }
  run_program(api_, prog, false);
}

Group Library::group(const std::vector<int>& list, int label) {
  Group g = make(list, label, {0, list.empty() ? -1 : list[0]});
  if (g.rank < 0) throw std::logic_error(fmt::format("ccl group(): node {} is not in the list", api_.id()));
  // Rank 0's counter reaches every member (no barrier, the paper's §II); the bcast's tags use the group's own seed.
  auto& mem = api_.memory();
  if (g.rank == 0) mem[scratch_] = counter_;
  Call c;
  c.op = Op::Bcast;
  c.b = 1;
  c.barrier = false;
  // Tags for the counter's bcast: every member knows the list and how often it was used before.
  g.pgid = {0xFFFFFFFFu - group_calls_[list]++, list[0]};
  run(g, c, scratch_);
  g.pgid = {mem[scratch_], list[0]};
  g.calls = 0;
  if (g.rank == 0) ++counter_;
  return g;
}

Group Library::partition(Group& g, int myval, int key) {
  const uint32_t n = uint32_t(g.size()), rec = 4;
  auto& mem = api_.memory();
  const uint32_t at = scratch_ + uint32_t(g.rank) * rec;
  mem[at] = uint32_t(myval);
  mem[at + 1] = uint32_t(key);
  mem[at + 2] = uint32_t(g.rank);
  mem[at + 3] = counter_;
  Call c;
  c.op = Op::Concat;
  c.b = rec;
  run(g, c, scratch_);
  std::vector<std::tuple<int, int, uint32_t>> mine;  // (key, parent rank, counter)
  for (uint32_t r = 0; r < n; ++r) {
    const uint32_t* x = &mem[scratch_ + r * rec];
    if (int(x[0]) == myval) mine.emplace_back(int(x[1]), int(x[2]), x[3]);
  }
  std::sort(mine.begin(), mine.end());
  std::vector<int> members;
  for (const auto& m : mine) members.push_back(g.pid(std::get<1>(m)));
  Group out = make(members, myval, {std::get<2>(mine.front()), members.front()});
  if (out.rank == 0) ++counter_;
  return out;
}

std::pair<Group, Group> Library::grid(Group& g, int X) {
  if (X < 1 || g.size() % X != 0)
    throw std::invalid_argument(fmt::format("ccl grid: X = {} does not divide the group size {}", X, g.size()));
  Group row = partition(g, g.rank / X, g.rank);
  Group col = partition(g, g.rank % X, g.rank);
  return {std::move(row), std::move(col)};
}

namespace {
Call call(Op op, uint32_t b, const Tuning& t, bool barrier) {
  Call c;
  c.op = op;
  c.b = b;
  c.alg = t.alg;
  c.radix = t.radix;
  c.kappa = t.kappa;
  c.packet = t.packet;
  c.window = t.window;
  c.barrier = barrier;
  return c;
}
int rank_or_throw(const Group& g, int pid, const char* what) {
  const int r = g.rank_of(pid);
  if (r < 0) throw std::invalid_argument(fmt::format("ccl {}: node {} is not a member of the group", what, pid));
  return r;
}
}  // namespace

void Library::bcast(Group& g, int orig, uint32_t base, uint32_t b, const Tuning& t) {
  Call c = call(Op::Bcast, b, t, barrier_);
  c.root = rank_or_throw(g, orig, "bcast");
  run(g, c, base);
}
void Library::reduce(Group& g, int dest, alg::OpId op, uint32_t base, uint32_t b, const Tuning& t) {
  Call c = call(Op::Reduce, b, t, barrier_);
  c.root = rank_or_throw(g, dest, "reduce");
  c.op_id = op;
  run(g, c, base);
}
void Library::combine(Group& g, alg::OpId op, uint32_t base, uint32_t b, const Tuning& t) {
  Call c = call(Op::Combine, b, t, barrier_);
  c.op_id = op;
  run(g, c, base);
}
void Library::scatter(Group& g, int orig, uint32_t base, uint32_t b, const Tuning& t) {
  Call c = call(Op::Scatter, b, t, barrier_);
  c.root = rank_or_throw(g, orig, "scatter");
  run(g, c, base);
}
void Library::gather(Group& g, int dest, uint32_t base, uint32_t b, const Tuning& t) {
  Call c = call(Op::Gather, b, t, barrier_);
  c.root = rank_or_throw(g, dest, "gather");
  run(g, c, base);
}
void Library::concat(Group& g, uint32_t base, uint32_t b, const Tuning& t) {
  run(g, call(Op::Concat, b, t, barrier_), base);
}
void Library::index(Group& g, uint32_t base, uint32_t b, const Tuning& t) {
  run(g, call(Op::Index, b, t, barrier_), base);
}
void Library::prefix(Group& g, alg::OpId op, uint32_t base, uint32_t b, const Tuning& t) {
  Call c = call(Op::Prefix, b, t, barrier_);
  c.op_id = op;
  run(g, c, base);
}
void Library::shift(Group& g, int step, uint32_t base, uint32_t b) {
  Call c = call(Op::Shift, b, {}, barrier_);
  c.shift = step;
  run(g, c, base);
}
void Library::reduce_scatter(Group& g, alg::OpId op, uint32_t base, uint32_t b, const Tuning& t) {
  Call c = call(Op::ReduceScatter, b, t, barrier_);
  c.op_id = op;
  run(g, c, base);
}
void Library::sync(Group& g) { run(g, call(Op::Sync, 1, {}, barrier_), scratch_); }

}  // namespace wn::fw::ccl
