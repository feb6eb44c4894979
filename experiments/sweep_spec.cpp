#include "experiments/sweep_spec.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "algorithms/registry.h"
#include "experiments/source_list.h"
#include "experiments/spec_yaml.h"
#include "systemc/core/config_error.h"
#include "systemc/topology/topology.h"

namespace wn {

namespace {

using spec_yaml::Ctx;
using spec_yaml::dump;
using spec_yaml::key_of;
using spec_yaml::values_of;

// One axis of the grid: its alternatives, each a set of assignments (several for a zip group).
using Assignments = std::vector<std::pair<std::string, std::string>>;
using Axis = std::vector<Assignments>;

// A spec's points are expanded before anything runs: a grid larger than this is a typo (three long
// ranges multiplied), and expanding it would only exhaust the memory.
constexpr size_t kMaxPoints = 100'000;
[[noreturn]] void too_many_points(const Ctx& c, const char* counted) {
  c.fail("points",
         fmt::format("more than {} points ({}); allowed: at most {} in one spec", kMaxPoints, counted, kMaxPoints));
}

// An axis's values; an algorithm alias (allreduce) becomes the algorithm's name, so points and
// their labels carry the one name.
std::vector<std::string> axis_values(const Ctx& c, const std::string& key, const YAML::Node& n) {
  std::vector<std::string> v = values_of(c, key, n);
  if (key == "algorithm")
    for (auto& x : v) x = alg::canonical_algorithm(x);
  return v;
}

void check_key(const Ctx& c, const SpecRules& r, const std::string& key, const std::vector<std::string>& values) {
  if (r.flags.count(key)) {
    for (const auto& v : values)
      if (v != "true" && v != "false") c.fail(key, fmt::format("'{}' is not a flag value; allowed: true, false", v));
    return;
  }
  if (r.options.count(key)) return;
  std::string allowed;
  for (const auto& k : r.options) allowed += (allowed.empty() ? "" : ", ") + k;
  for (const auto& k : r.flags) allowed += ", " + k;
  c.fail(key, fmt::format("'{}' is not a parameter of this command; allowed: command, zip{}, {}", key,
                          r.sources ? ", sources" : "", allowed));
}

// zip: one group {a: [..], b: [..]} or a list of groups; each group is one axis whose lists have one length.
void add_zip(const Ctx& c, const SpecRules& r, const YAML::Node& n, std::vector<Axis>& axes,
             std::set<std::string>& seen) {
  const std::string allowed = "allowed: zip: {KEY: [..], KEY: [..]} (lists of one length) or a list of such groups";
  std::vector<YAML::Node> groups;
  if (n.IsMap())
    groups.push_back(n);
  else if (n.IsSequence())
    for (const auto& g : n) groups.push_back(g);
  else
    c.fail("zip", fmt::format("'{}' is not a group; {}", n.IsNull() ? "" : dump(n), allowed));
  for (const auto& g : groups) {
    if (!g.IsMap() || g.size() == 0) c.fail("zip", fmt::format("'{}' is not a group; {}", dump(g), allowed));
    Axis axis;
    std::string first;
    for (auto it = g.begin(); it != g.end(); ++it) {
      const std::string key = key_of(c, it->first);
      if (key == "command" || key == "zip" || key == "sources")
        c.fail("zip", fmt::format("'{}' cannot vary in a zip group; allowed: command parameters", key));
      if (!seen.insert(key).second) c.fail(key, "given twice (top level and zip, or two zip groups); allowed: once");
      const auto values = axis_values(c, key, it->second);
      check_key(c, r, key, values);
      if (axis.empty()) {
        axis.resize(values.size());
        first = key;
      } else if (values.size() != axis.size()) {
        c.fail("zip",
               fmt::format("'{}' has {} values and '{}' has {}; {}", key, values.size(), first, axis.size(), allowed));
      }
      for (size_t i = 0; i < values.size(); ++i) axis[i].emplace_back(key, values[i]);
    }
    axes.push_back(std::move(axis));
  }
}

// After the duplicate check (a value the user listed twice is still refused): points that differed
// only in a key their algorithm ignores are one run, kept where the first of them stood.
void drop_unread(const Ctx& c, const SpecRules& r, std::vector<SweepParams>& points) {
  if (!r.unread) return;
  for (const auto& key : r.algorithm_params) {
    std::string why;
    bool read = false, given = false;
    for (const auto& p : points) {
      if (!p.count(key)) continue;
      given = true;
      const std::string u = r.unread(p, key);
      if (u.empty())
        read = true;
      else if (why.empty())
        why = u;
    }
    if (given && !read) c.fail(key, why);
    for (auto& p : points)
      if (p.count(key) && !r.unread(p, key).empty()) p.erase(key);
  }
  std::set<SweepParams> seen;
  points.erase(
      std::remove_if(points.begin(), points.end(), [&](const SweepParams& p) { return !seen.insert(p).second; }),
      points.end());
}

// YAML leaves a key given twice to the reader: a second `command:` is a mistake.
void check_unique_keys(const Ctx& c, const YAML::Node& map) {
  std::set<std::string> top;
  for (auto it = map.begin(); it != map.end(); ++it)
    if (const std::string key = key_of(c, it->first); !top.insert(key).second)
      c.fail(key, "given twice; allowed: each key once");
}

// One command's grid: `root` is a mapping with `command` (checked unique keys).
SweepSpec parse_part(const Ctx& c, const YAML::Node& root, const std::map<std::string, SpecRules>& commands) {
  const std::string& file = c.file;
  std::string names;
  for (const auto& [name, r] : commands) names += (names.empty() ? "" : ", ") + name;
  if (!root["command"] || !root["command"].IsScalar() || !commands.count(root["command"].Scalar()))
    c.fail("command",
           fmt::format("'{}' is not a sweepable command; allowed: {}",
                       root["command"] && root["command"].IsScalar() ? root["command"].Scalar() : "", names));
  SweepSpec spec;
  spec.command = root["command"].Scalar();
  const SpecRules& rules = commands.at(spec.command);
  std::vector<Axis> axes;
  std::set<std::string> seen;
  std::vector<std::string> sources;
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string key = key_of(c, it->first);
    if (key == "command") continue;
    if (key == "zip") {
      add_zip(c, rules, it->second, axes, seen);
      continue;
    }
    if (key == "sources") {
      if (!rules.sources)
        c.fail(key, fmt::format("not a parameter of {}; allowed: sources only for run, check", spec.command));
      // all | random:N | "0,5" | [0, 5]: parse_sources reads the comma-separated form.
      std::string text;
      for (const auto& v : values_of(c, key, it->second)) text += (text.empty() ? "" : ",") + v;
      sources.push_back(text);
      continue;
    }
    if (!seen.insert(key).second) c.fail(key, "given twice; allowed: once");
    const auto values = axis_values(c, key, it->second);
    check_key(c, rules, key, values);
    Axis axis;
    for (const auto& v : values) axis.push_back({{key, v}});
    axes.push_back(std::move(axis));
  }
  if (!sources.empty() && seen.count("source"))
    c.fail("sources", "given with source; allowed: one of source (a list is fine) or sources");
  size_t grid = 1;
  for (const Axis& a : axes) {
    if (a.size() > kMaxPoints / grid) too_many_points(c, "the product of the axes' lengths");
    grid *= a.size();
  }
  // The cartesian product, the first axis outermost (an odometer over the axes).
  std::vector<size_t> at(axes.size(), 0);
  for (bool more = true; more;) {
    SweepParams p;
    for (size_t a = 0; a < axes.size(); ++a)
      for (const auto& [k, v] : axes[a][at[a]]) p[k] = v;
    if (sources.empty()) {
      spec.points.push_back(p);
    } else {
      // The network's node count depends on this point's topology; random draws on its seed.
      const std::string topo = p.count("topology") ? p.at("topology") : rules.default_topology;
      int nodes = 0;
      try {
        nodes = Topology::parse(topo).nodes();
      } catch (const ConfigError& e) {
        c.fail("topology", e.detail());
      }
      const uint64_t seed = p.count("seed") ? std::strtoull(p.at("seed").c_str(), nullptr, 10) : 1;
      for (int s : parse_sources(sources.front(), nodes, seed, file + ": sources")) {
        p["source"] = std::to_string(s);
        spec.points.push_back(p);
        if (spec.points.size() > kMaxPoints) too_many_points(c, "the axes' product times the sources");
      }
    }
    more = false;
    for (size_t a = axes.size(); a-- > 0;) {
      if (++at[a] < axes[a].size()) {
        more = true;
        break;
      }
      at[a] = 0;
    }
  }
  // Two points with one key would run twice and merge as one (rate: [0.1, 0.1]).
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < spec.points.size(); ++i)
    if (auto [it, fresh] = first.try_emplace(point_key(spec.command, spec.points[i]), i); !fresh)
      c.fail("points", fmt::format("point {} ({}) is point {} again; allowed: each point once (a value listed twice?)",
                                   i, point_label(spec.points[i]), it->second));
  drop_unread(c, rules, spec.points);
  spec.commands.assign(spec.points.size(), spec.command);
  return spec;
}

}  // namespace

SweepSpec parse_sweep_spec(const std::string& yaml_text, const std::string& file,
                           const std::map<std::string, SpecRules>& commands) {
  const Ctx c{file};
  // Const: yaml-cpp's non-const operator[] may insert the keys it looks up.
  const YAML::Node root = [&] {
    try {
      return YAML::Load(yaml_text);
    } catch (const YAML::Exception& e) {
      c.fail("yaml", fmt::format("line {}: {}; allowed: a YAML mapping of parameters", e.mark.line + 1, e.msg));
    }
  }();
  if (!root.IsMap()) c.fail("yaml", "the file is not a mapping; allowed: `command: run` and parameters, one per line");
  check_unique_keys(c, root);
  if (!root["parts"]) return parse_part(c, root, commands);
  // parts: one grid per item, each with its own command; the other top-level keys go into every
  // part that does not set them itself. The points are the parts' points in order.
  const std::string allowed = "allowed: parts: a list of mappings, each with its command and parameters";
  if (root["command"]) c.fail("command", "given with parts; allowed: a command in each part");
  if (!root["parts"].IsSequence() || root["parts"].size() == 0)
    c.fail("parts", fmt::format("'{}' is not a list of parts; {}", dump(root["parts"]), allowed));
  SweepSpec spec;
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < root["parts"].size(); ++i) {
    const YAML::Node part = root["parts"][i];
    const std::string where = fmt::format("{}: part {}", file, i);
    const Ctx pc{where};
    if (!part.IsMap()) c.fail("parts", fmt::format("part {} '{}' is not a mapping; {}", i, dump(part), allowed));
    check_unique_keys(pc, part);
    YAML::Node merged(YAML::NodeType::Map);
    for (auto it = root.begin(); it != root.end(); ++it)
      if (it->first.Scalar() != "parts" && !part[it->first.Scalar()]) merged[it->first] = it->second;
    for (auto it = part.begin(); it != part.end(); ++it) merged[it->first] = it->second;
    const SweepSpec one = parse_part(pc, merged, commands);
    if (("," + spec.command + ",").find("," + one.command + ",") == std::string::npos)
      spec.command += (spec.command.empty() ? "" : ",") + one.command;
    for (size_t k = 0; k < one.points.size(); ++k) {
      const size_t at = spec.points.size();
      if (auto [it, fresh] = first.try_emplace(point_key(one.command, one.points[k]), at); !fresh)
        pc.fail("points", fmt::format("point {} ({}) is point {} again; allowed: each point once", at,
                                      point_label(one.points[k]), it->second));
      spec.points.push_back(one.points[k]);
      spec.commands.push_back(one.command);
    }
    if (spec.points.size() > kMaxPoints) too_many_points(c, "the parts together");
  }
  return spec;
}

SweepSpec load_sweep_spec(const std::string& path, const std::map<std::string, SpecRules>& commands) {
  std::ifstream f(path);
  if (!f) throw ConfigError(path, "cannot be read; allowed: a readable YAML sweep spec");
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_sweep_spec(ss.str(), path, commands);
}

nlohmann::json typed_params(const SweepParams& p) {
  // Decimal only: no leading zeros (an id like 007 stays text), no hex, no inf or nan.
  static const std::regex number(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
  static const std::regex integer(R"(-?(0|[1-9][0-9]{0,17}))");
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : p) {
    if (std::regex_match(v, integer))
      out[k] = std::stoll(v);
    else if (std::regex_match(v, number) && std::isfinite(std::strtod(v.c_str(), nullptr)))
      out[k] = std::strtod(v.c_str(), nullptr);
    else
      out[k] = v;
  }
  return out;
}

std::string point_key(const std::string& command, const SweepParams& p) {
  // The canonical text: command and sorted parameters as compact JSON (std::map keeps keys sorted).
  const std::string text = nlohmann::json{{"command", command}, {"params", p}}.dump();
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
  return fmt::format("{:016x}", h);
}

std::string point_label(const SweepParams& p) {
  std::string out;
  for (const auto& [k, v] : p) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

}  // namespace wn
