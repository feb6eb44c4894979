#include "algorithms/schedule_oracle.h"

#include <fmt/format.h>

#include <map>
#include <memory>

#include "algorithms/dataflow_run.h"
#include "algorithms/schedule_file_reader.h"
#include "systemc/core/config_error.h"
#include "systemc/core/rng.h"

namespace wn::alg {

Word pattern_word(uint64_t seed, int rank, uint32_t addr, uint32_t memory_words) {
  const uint64_t key = derive_seed(seed, 0x5c);  // stream 0x5c: schedule-file memory
  // xor, odd multiplies and xorshifts are each bijective on 32 bits: distinct indices stay distinct.
  uint32_t x = uint32_t(uint64_t(rank) * memory_words + addr) ^ uint32_t(key);
  x = (x ^ (x >> 16)) * 0x7feb352du;
  x = (x ^ (x >> 15)) * 0x846ca68bu;
  x ^= x >> 16;
  return x ^ uint32_t(key >> 32);
}

namespace {

using WordMap = std::map<uint64_t, Word>;  // rank * memory_words + addr -> word

WordMap word_map(const std::vector<MemoryWords>& list, uint32_t memory_words) {
  WordMap m;
  for (const auto& e : list)
    for (size_t k = 0; k < e.words.size(); ++k) m[uint64_t(e.rank) * memory_words + e.offset + k] = e.words[k];
  return m;
}

// The claim's value for (rank q, address a), from the initial memory `x`; nullopt: not checked.
std::optional<Word> claimed(const CollectiveClaim& c, int n, int q, uint32_t a,
                            const std::function<Word(int, uint32_t)>& x) {
  const uint32_t w = c.words;
  const uint64_t nw = uint64_t(n) * w;
  auto fold_over_ranks = [&](uint32_t addr) {
    std::vector<Word> xs;
    for (int r = 0; r < n; ++r) xs.push_back(x(r, addr));
    return fold(c.op, xs);
  };
  switch (c.kind) {
    case CollectiveKind::Broadcast:
      if (a < w) return x(c.root, a);
      break;
    case CollectiveKind::Reduce:
      if (q == c.root && a < w) return fold_over_ranks(a);
      break;
    case CollectiveKind::Allreduce:
      if (a < w) return fold_over_ranks(a);
      break;
    case CollectiveKind::Gather:
      if (q == c.root && a < nw) return x(int(a / w), a);
      break;
    case CollectiveKind::Scatter:
      if (a / w == uint32_t(q) && a < nw) return x(c.root, a);
      break;
    case CollectiveKind::Allgather:
      if (a < nw) return x(int(a / w), a);
      break;
    case CollectiveKind::Alltoall:
      if (a >= nw && a < 2 * nw) {
        const uint32_t j = uint32_t((a - nw) / w), i = uint32_t((a - nw) % w);
        return x(int(j), uint32_t(q) * w + i);  // block j -> q
      }
      break;
    case CollectiveKind::ReduceScatter:
      if (a / w == uint32_t(q) && a < nw) return fold_over_ranks(a);
      break;
  }
  return std::nullopt;
}

std::string describe(const CollectiveClaim& c) {
  std::string s = fmt::format("{} of {} word{}", collective_name(c.kind), c.words, c.words == 1 ? "" : "s");
  if (collective_rooted(c.kind))
    s += fmt::format(
        c.kind == CollectiveKind::Broadcast || c.kind == CollectiveKind::Scatter ? " from rank {}" : " to rank {}",
        c.root);
  if (collective_reduces(c.kind)) s += fmt::format(" with {}", combine_ops()[c.op].name);
  return s + " (the file's collective)";
}

}  // namespace

FileOracle file_oracle(const ScheduleFile& f, uint64_t seed) {
  const uint32_t m = f.memory_words;
  const int n = f.ranks;
  auto init_words = std::make_shared<WordMap>(word_map(f.initial, m));
  FileOracle o;
  o.initial = [init_words, seed, m](int r, uint32_t a) {
    if (!init_words->empty())
      if (auto it = init_words->find(uint64_t(r) * m + a); it != init_words->end()) return it->second;
    return pattern_word(seed, r, a, m);
  };
  auto want = std::make_shared<WordMap>(word_map(f.expected, m));
  const auto x = o.initial;
  if (f.collective) {
    const CollectiveClaim c = *f.collective;
    // An expected word the claim also fixes must agree with it: otherwise no run can pass.
    for (size_t i = 0; i < f.expected.size(); ++i)
      for (size_t k = 0; k < f.expected[i].words.size(); ++k) {
        const auto& e = f.expected[i];
        const uint32_t a = e.offset + uint32_t(k);
        if (const auto v = claimed(c, n, e.rank, a, x); v && *v != e.words[k])
          file::refuse(f.path, fmt::format("expected[{}].words[{}]", i, k),
                       fmt::format("{:#010x} for rank {} word {}, which the {} sets to {:#010x}", e.words[k], e.rank, a,
                                   collective_name(c.kind), *v),
                       "expected words the collective leaves open, or no collective");
      }
    o.expected = [c, n, x](int r, uint32_t a) -> std::optional<Word> {
      if (r >= n) return x(r, a);  // ranks beyond the file's are idle: unchanged
      return claimed(c, n, r, a, x);
    };
    o.description = describe(c);
  } else if (!f.expected.empty()) {
    o.description = fmt::format("the file's {} expected word{}", want->size(), want->size() == 1 ? "" : "s");
  } else {
    // The ideal execution, once: final memory of every rank.
    auto mem = std::make_shared<std::vector<std::vector<Word>>>(dataflow_memory(f.programs, m, x));
    o.expected = [mem, x](int r, uint32_t a) -> std::optional<Word> {
      if (r < int(mem->size())) return (*mem)[size_t(r)][a];
      return x(r, a);
    };
    o.description = "reference execution (no collective declared)";
  }
  if (!o.expected || !f.expected.empty()) {
    // Explicit expected words (with or without a claim), then the claim or unchecked.
    auto base = o.expected;
    o.expected = [base, want, m, n, x](int r, uint32_t a) -> std::optional<Word> {
      if (r >= n) return x(r, a);
      if (auto it = want->find(uint64_t(r) * m + a); it != want->end()) return it->second;
      return base ? base(r, a) : std::nullopt;
    };
    if (f.collective)
      o.description += fmt::format(" and {} expected word{}", want->size(), want->size() == 1 ? "" : "s");
  }
  return o;
}

}  // namespace wn::alg
