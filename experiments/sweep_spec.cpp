#include "experiments/sweep_spec.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "experiments/source_list.h"
#include "systemc/core/config_error.h"
#include "systemc/topology/topology.h"

namespace wn {

namespace {

constexpr size_t kMaxRange = 100000;  // a range longer than this is a typo (step 0.0001), not a sweep

// One axis of the grid: its alternatives, each a set of assignments (several for a zip group).
using Assignments = std::vector<std::pair<std::string, std::string>>;
using Axis = std::vector<Assignments>;

struct Ctx {
  const std::string& file;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ConfigError(file + ": " + key, what);
  }
};

std::string dump(const YAML::Node& n) {
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

// A finite number, or fail naming the range key.
double number(const Ctx& c, const std::string& key, const YAML::Node& n, const char* part) {
  const std::string t = n.IsScalar() ? n.Scalar() : dump(n);
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  // Decimal only: strtod also reads hex (0x10, 0x0.4p0).
  const bool decimal = t.find_first_not_of("0123456789.eE+-") == std::string::npos;
  if (!n.IsScalar() || t.empty() || !decimal || end != t.c_str() + t.size() || !std::isfinite(v))
    c.fail(key, fmt::format("range {} '{}' is not a number; allowed: {{from: A, to: B, step: S}} or "
                            "{{from: A, to: B, factor: F}} with finite numbers",
                            part, t));
  return v;
}

// A mapping key: a plain name (yaml-cpp would throw its own message at a list or map as a key).
std::string key_of(const Ctx& c, const YAML::Node& k) {
  if (!k.IsScalar())
    c.fail("yaml", fmt::format("the key '{}' is not a name; allowed: parameter names as keys", dump(k)));
  return k.Scalar();
}

bool integral(const YAML::Node& n) { return n.Scalar().find_first_not_of("0123456789-") == std::string::npos; }

// {from, to, step} (arithmetic) or {from, to, factor} (geometric), both ends included.
std::vector<std::string> expand_range(const Ctx& c, const std::string& key, const YAML::Node& n) {
  const std::string allowed = "allowed: {from: A, to: B, step: S > 0} or {from: A, to: B, factor: F > 1} with A <= B";
  for (auto it = n.begin(); it != n.end(); ++it) {
    const std::string k = key_of(c, it->first);
    if (k != "from" && k != "to" && k != "step" && k != "factor")
      c.fail(key, fmt::format("range field '{}' is unknown; {}", k, allowed));
  }
  if (!n["from"] || !n["to"] || (!n["step"] == !n["factor"]))
    c.fail(key, fmt::format("range '{}' needs from, to and one of step or factor; {}", dump(n), allowed));
  const double from = number(c, key, n["from"], "from"), to = number(c, key, n["to"], "to");
  const bool geometric = bool(n["factor"]);
  const YAML::Node& by = geometric ? n["factor"] : n["step"];
  const double s = number(c, key, by, geometric ? "factor" : "step");
  if (from > to || (geometric ? (s <= 1 || from <= 0) : s <= 0))
    c.fail(key, fmt::format("range '{}' is empty or endless; {}", dump(n), allowed));
  const bool ints = integral(n["from"]) && integral(n["to"]) && integral(by);
  std::vector<std::string> out;
  // Each value from the start (not accumulated), so 0.05 steps do not drift; a tolerance keeps `to`.
  for (size_t i = 0;; ++i) {
    const double v = geometric ? from * std::pow(s, double(i)) : from + double(i) * s;
    if (v > to + 1e-9 * std::max(1.0, std::fabs(to))) break;
    if (out.size() >= kMaxRange)
      c.fail(key, fmt::format("range '{}' has more than {} values; {}", dump(n), kMaxRange, allowed));
    if (ints && std::fabs(v) > 9e18)
      c.fail(key, fmt::format("range '{}' leaves 64-bit integers; {}", dump(n), allowed));
    out.push_back(ints ? fmt::format("{}", std::llround(v)) : fmt::format("{:.10g}", v));
  }
  return out;
}

// A parameter's values: a scalar, a list of scalars, or a range.
std::vector<std::string> values_of(const Ctx& c, const std::string& key, const YAML::Node& n) {
  if (n.IsScalar()) return {n.Scalar()};
  if (n.IsMap()) return expand_range(c, key, n);
  if (n.IsSequence() && n.size() > 0) {
    std::vector<std::string> out;
    for (const auto& item : n) {
      if (!item.IsScalar())
        c.fail(key, fmt::format("list item '{}' is not a value; allowed: a list of scalars", dump(item)));
      out.push_back(item.Scalar());
    }
    return out;
  }
  c.fail(key, fmt::format("'{}' is not a value; allowed: a scalar, a non-empty list [a, b] or a range "
                          "{{from, to, step | factor}}",
                          n.IsNull() ? "" : dump(n)));
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
      const auto values = values_of(c, key, it->second);
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

}  // namespace

SweepSpec parse_sweep_spec(const std::string& yaml_text, const std::string& file,
                           const std::map<std::string, SpecRules>& commands) {
  const Ctx c{file};
  std::string names;
  for (const auto& [name, r] : commands) names += (names.empty() ? "" : ", ") + name;
  // Const: yaml-cpp's non-const operator[] may insert the keys it looks up.
  const YAML::Node root = [&] {
    try {
      return YAML::Load(yaml_text);
    } catch (const YAML::Exception& e) {
      c.fail("yaml", fmt::format("line {}: {}; allowed: a YAML mapping of parameters", e.mark.line + 1, e.msg));
    }
  }();
  if (!root.IsMap()) c.fail("yaml", "the file is not a mapping; allowed: `command: run` and parameters, one per line");
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
  std::set<std::string> top;  // YAML leaves a key given twice to the reader: a second `command:` is a mistake
  for (auto it = root.begin(); it != root.end(); ++it)
    if (const std::string key = key_of(c, it->first); !top.insert(key).second)
      c.fail(key, "given twice; allowed: each key once");
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
    const auto values = values_of(c, key, it->second);
    check_key(c, rules, key, values);
    Axis axis;
    for (const auto& v : values) axis.push_back({{key, v}});
    axes.push_back(std::move(axis));
  }
  if (!sources.empty() && seen.count("source"))
    c.fail("sources", "given with source; allowed: one of source (a list is fine) or sources");
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
  return spec;
}

SweepSpec load_sweep_spec(const std::string& path, const std::map<std::string, SpecRules>& commands) {
  std::ifstream f(path);
  if (!f) throw ConfigError(path, "cannot be read; allowed: a readable YAML sweep spec");
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_sweep_spec(ss.str(), path, commands);
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
