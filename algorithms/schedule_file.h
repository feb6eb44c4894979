// `wormnet.schedule/1`: a user's collective algorithm as a file (docs/own-schedule.md is the
// guide, docs/schedule-format.md the contract). Read into the schedule IR by rank, validated
// completely before anything is simulated: every problem is a ConfigError whose field is the
// file and whose text starts with the JSON path of the offending value.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/schedule.h"

namespace wn::alg {

constexpr const char* kScheduleSchema = "wormnet.schedule/1";
// Limits a file is held to (the IR's own widths, and what one run can hold).
constexpr uint32_t kMaxFileStep = (1u << 20) - 1;       // step numbers 0..kMaxFileStep
constexpr uint32_t kMaxFileRanks = 1u << 20;            // topologies stop far below
constexpr uint64_t kMaxMessageWords = (64u << 20) / 4;  // one message, as --bytes allows

enum class CollectiveKind { Broadcast, Reduce, Allreduce, Gather, Scatter, Allgather, Alltoall, ReduceScatter };

// What the `collective` key claims; the oracle is derived from it (schedule_oracle.h).
struct CollectiveClaim {
  CollectiveKind kind = CollectiveKind::Broadcast;
  uint32_t words = 0;  // w of the layout table in docs/schedule-format.md
  int root = -1;       // a rank; -1 for kinds without a root
  OpId op = kCopy;     // reductions
};
const std::vector<std::string>& collective_kinds();  // names in CollectiveKind order
const std::string& collective_name(CollectiveKind k);
bool collective_rooted(CollectiveKind k);
bool collective_reduces(CollectiveKind k);
// Words per rank the kind's layout occupies for `ranks` ranks of `words`-word blocks.
uint64_t collective_memory_words(CollectiveKind k, uint64_t words, uint64_t ranks);

// `initial` / `expected` entries: words from `offset` on, in `rank`'s memory.
struct MemoryWords {
  int rank = 0;
  uint32_t offset = 0;
  std::vector<Word> words;
};

struct ScheduleFile {
  std::string path;  // as the user gave it
  std::string name;
  int ranks = 0;
  uint32_t memory_words = 0;
  std::optional<CollectiveClaim> collective;
  std::vector<MemoryWords> initial, expected;
  std::vector<std::vector<Step>> programs;  // by rank (empty: idle)
  // JSON path of each rank's entry in `programs` ("" for an idle rank), for errors found later
  // (e.g. a send's channel beyond the run's port model).
  std::vector<std::string> program_paths;
  uint32_t steps = 0;  // largest step number + 1
  uint64_t messages = 0;
  nlohmann::json synth;  // the solver's facts when `wormnet synth` wrote the file (else null)
  nlohmann::json meta;   // free-form facts of the tool that wrote it (else null)
};

// Reads and validates; throws ConfigError(path, "json.path: what; allowed: ...").
ScheduleFile read_schedule_file(const std::string& path);
ScheduleFile parse_schedule_file(const std::string& text, const std::string& path);
// The file as JSON text (2-space indent, steps and ranks in order; defaults left out).
std::string schedule_file_text(const ScheduleFile& f);

}  // namespace wn::alg
