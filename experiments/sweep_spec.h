// Sweep specs (`wormnet sweep SPEC.yaml`): a YAML file naming a command and
// its parameters, any of them a list, a range or part of a `zip:` group,
// expanded ONCE into points before anything runs. A point is the full set of
// CLI-equivalent parameters of one run (key without "--" -> text), so the app
// layer builds each point's options with the command's own option parsing and
// a point means exactly what the same command line means.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wn {

using SweepParams = std::map<std::string, std::string>;  // sorted: canonical order

// What one command accepts, handed down by the app layer (from its CLI options).
struct SpecRules {
  std::set<std::string> options;  // keys taking a value ("topology", "max-cycles")
  std::set<std::string> flags;    // boolean keys ("simulate"): true | false
  bool sources = false;           // `sources:` expands into `source` (rooted collectives)
  std::string default_topology;   // the network `sources:` counts nodes of when none is given
  // Keys only some algorithms read (source, op, group, family options). A point whose algorithm does
  // not read one drops it (a spec over rooted and unrooted algorithms runs each unrooted one once); a
  // key no point reads is refused. `unread` returns "" when the point reads the key, else who does.
  std::set<std::string> algorithm_params;
  std::function<std::string(const SweepParams&, const std::string& key)> unread;
};

struct SweepSpec {
  std::string command;                // of every point; a spec of `parts:` names its commands comma-separated
  std::vector<SweepParams> points;    // in expansion order: axes as the file lists them, sources innermost
  std::vector<std::string> commands;  // per point, its command (parts mix them)
};

// Parses and expands a spec. Any error -> ConfigError whose field is "FILE: KEY"
// and whose text names the value and what is allowed.
SweepSpec parse_sweep_spec(const std::string& yaml_text, const std::string& file,
                           const std::map<std::string, SpecRules>& commands);
SweepSpec load_sweep_spec(const std::string& path, const std::map<std::string, SpecRules>& commands);

// A stable hash (FNV-1a 64, hex) of the command and the point's canonical
// parameters: the identity a results file resumes and merges by.
std::string point_key(const std::string& command, const SweepParams& p);
// The parameters as a results line carries them: a value written as a decimal number (32, 0.1,
// -3, 1e-3) is a JSON number, anything else a string, as YAML's core schema reads a plain scalar,
// so a results file loads into pandas with numeric columns. point_key() keeps the text.
nlohmann::json typed_params(const SweepParams& p);
// "algorithm=rd-broadcast bytes=32 ..." for progress lines and errors.
std::string point_label(const SweepParams& p);

}  // namespace wn
