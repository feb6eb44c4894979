// Tuning tables: the ranges `wormnet tune` writes and `--ccl-alg tuned` reads (tuning.h).
#include "algorithms/ccl/tuning.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "algorithms/bruck/bruck.h"
#include "algorithms/ccl/ccl.h"
#include "algorithms/combine_op.h"
#include "systemc/core/config_error.h"

namespace wn::alg::ccl {

namespace {

// Knob flags a candidate may carry besides --ccl-alg (what tune varies); anything else is refused.
const std::vector<std::string>& knob_flags() {
  static const std::vector<std::string> k = {"--kappa", "--packet", "--radix", "--window"};
  return k;
}

constexpr uint64_t kMaxTableBytes = 1u << 20;  // a table has one entry per measured size: KBs
constexpr size_t kMaxRanges = 4096;

struct Reader {
  std::string path, option;
  [[noreturn]] void refuse(const std::string& field, const std::string& what, const std::string& allowed) const {
    throw ConfigError(option,
                      fmt::format("{}: {}{}; allowed: {}", path, field.empty() ? "" : field + ": ", what, allowed));
  }
  const nlohmann::json& need(const nlohmann::json& obj, const std::string& key, nlohmann::json::value_t type,
                             const std::string& field, const std::string& allowed) const {
    const auto it = obj.find(key);
    const bool number = type == nlohmann::json::value_t::number_float;
    if (it == obj.end() || (number ? !it->is_number() : it->type() != type))
      refuse(field, it == obj.end() ? "missing" : "wrong type", allowed);
    return *it;
  }
};

}  // namespace

std::string tuned_label(const TunedOptions& o) {
  const auto alg = o.find("--ccl-alg");
  std::string s = alg == o.end() ? "?" : alg->second;
  for (const auto& [flag, v] : o)
    if (flag != "--ccl-alg") s += "/" + flag.substr(2) + "=" + v;
  return s;
}

const TunedOptions& TuningTable::pick(uint64_t bytes) const {
  for (const TuningRange& r : ranges)
    if (r.max_bytes == 0 || bytes <= r.max_bytes) return r.options;
  return ranges.back().options;  // read_tuning guarantees an unbounded last range
}

std::vector<TuningRange> tuning_ranges(const std::vector<std::pair<uint64_t, TunedOptions>>& winners) {
  std::vector<TuningRange> out;
  for (const auto& [bytes, o] : winners) {
    if (!out.empty() && out.back().options == o)
      out.back().max_bytes = bytes;
    else
      out.push_back({bytes, o});
  }
  if (!out.empty()) out.back().max_bytes = 0;
  return out;
}

nlohmann::json tuning_ranges_json(const std::vector<TuningRange>& ranges) {
  nlohmann::json a = nlohmann::json::array();
  for (const TuningRange& r : ranges)
    a.push_back({{"max_bytes", r.max_bytes ? nlohmann::json(r.max_bytes) : nlohmann::json(nullptr)},
                 {"choice", tuned_label(r.options)},
                 {"options", r.options}});
  return a;
}

nlohmann::json tuning_scope_json(const TuningScope& s) {
  return {{"operation", s.operation},
          {"topology", s.topology},
          {"nodes", s.nodes},
          {"ports", s.ports},
          {"op", s.op},
          {"cost", s.cost}};
}

double model_ts(const CostParams& c) { return c.alpha + c.gamma + 2.0 * c.timing.hop_cycles(); }
double model_tc(const CostParams& c) { return 1.0 / std::max(1, c.words_per_flit); }

Call auto_call(const Call& call, const CostParams& cost, bool radix_given, std::string* why) {
  Call c = call;
  if (c.op == Op::Index) {
    c.alg = "bruck";
    if (why && !radix_given) *why = bruck::choose_radix(c.n, 1, c.b, model_ts(cost), model_tc(cost)).why;
    return c;
  }
  if (c.packet) {
    Call p = c;
    p.alg = "nesbt";
    if (unsupported(p).empty()) return p;
  }
  const Choice ch = choose_by_model(c, model_ts(cost), model_tc(cost));
  if (why) *why = ch.why;
  return ch.call.alg.empty() ? c : ch.call;
}

int ring_2d_cols_for(const Topology& topo, const std::vector<int>& group) {
  if (topo.kind() == TopoKind::Cube || int(group.size()) != topo.nodes()) return 0;
  for (size_t i = 0; i < group.size(); ++i)
    if (group[i] != int(i)) return 0;
  return topo.radix().front();
}

TunedOptions tuned_options(const Call& c) {
  TunedOptions o = {{"--ccl-alg", choose(c)}};
  if (o["--ccl-alg"] == "hybrid") o["--kappa"] = std::to_string(c.kappa);
  if (o["--ccl-alg"] == "nesbt" || o["--ccl-alg"] == "chain" || o["--ccl-alg"] == "circ-graph" ||
      o["--ccl-alg"] == "dbtree")
    o["--packet"] = std::to_string(uint64_t(c.packet) * 4);
  if (o["--ccl-alg"] == "bruck") o["--radix"] = std::to_string(c.radix);
  if (o["--ccl-alg"] == "linear") o["--window"] = std::to_string(c.window);
  return o;
}

TuningScope tuning_scope(const std::string& operation, const std::string& topology, int nodes,
                         const AlgorithmArgs& args) {
  TuningScope s;
  s.operation = operation;
  s.topology = topology;
  s.nodes = nodes;
  s.ports = args.ports;
  const Op op = op_of(operation.substr(4));
  if (op == Op::Reduce || op == Op::Combine || op == Op::Prefix || op == Op::ReduceScatter)
    s.op = combine_ops()[args.op].name;
  const CostParams& c = args.cost;
  s.cost = {{"alpha", c.alpha},
            {"gamma", c.gamma},
            {"hop_cycles", c.timing.hop_cycles()},
            {"words_per_flit", c.words_per_flit},
            {"max_packet_words", c.max_packet_words},
            {"copy_cycles_per_word", c.copy_cycles_per_word},
            {"combine_cycles_per_word", c.combine_cycles_per_word},
            {"index_cycles_per_word", c.index_cycles_per_word}};
  if (c.reorder_cycles_per_word > 0) s.cost["reorder_cycles_per_word"] = c.reorder_cycles_per_word;
  if (c.index_setup_cycles > 0) s.cost["index_setup_cycles"] = c.index_setup_cycles;
  if (c.index_op_cycles > 0) s.cost["index_op_cycles"] = c.index_op_cycles;
  return s;
}

std::string tuning_mismatch(const TuningScope& t, const TuningScope& r) {
  auto differs = [](const char* what, const std::string& a, const std::string& b) {
    return fmt::format("the table is for {} {}, this run is {}", what, a, b);
  };
  if (t.operation != r.operation) return differs("operation", t.operation, r.operation);
  if (t.topology != r.topology) return differs("topology", t.topology, r.topology);
  if (t.nodes != r.nodes) return differs("a group of", std::to_string(t.nodes), std::to_string(r.nodes));
  if (t.ports != r.ports) return differs("ports", std::to_string(t.ports), std::to_string(r.ports));
  if (t.op != r.op) return differs("operator", t.op, r.op);
  // From the profile and its overrides: another start-up or per-word cost ranks the algorithms differently.
  auto near = [](double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(a)); };
  for (const auto& [k, v] : r.cost) {
    const auto it = t.cost.find(k);
    if (it == t.cost.end() || !near(it->second, v))
      return fmt::format("the table is for a profile with {} = {}, this run's gives {:.6g}", k,
                         it == t.cost.end() ? std::string("(none)") : fmt::format("{:.6g}", it->second), v);
  }
  return "";
}

Call tuned_call(Call c, const std::string& path, const std::string& option, const TuningScope& run) {
  if (path.empty())
    throw ConfigError(option, fmt::format("not given; allowed: --ccl-alg tuned {} FILE (a table of `wormnet tune "
                                          "--json`)",
                                          option));
  const TuningTable t = read_tuning(path, option);
  if (const std::string why = tuning_mismatch(t.scope, run); !why.empty())
    throw ConfigError(option, fmt::format("{}: {}; allowed: a table `wormnet tune` measured for this run", path, why));
  const TunedOptions& o = t.pick(uint64_t(c.b) * 4);
  // read_tuning checked every knob is a decimal of at most 9 digits.
  auto num = [&](const char* f, uint64_t dflt) { return o.count(f) ? std::stoull(o.at(f)) : dflt; };
  c.alg = o.at("--ccl-alg");
  c.kappa = int(num("--kappa", uint64_t(c.kappa)));
  c.packet = uint32_t(num("--packet", uint64_t(c.packet) * 4) / 4);
  c.radix = int(num("--radix", uint64_t(c.radix)));
  c.window = int(num("--window", uint64_t(c.window)));
  if (const std::string why = unsupported(c); !why.empty())
    throw ConfigError(option,
                      fmt::format("{}: its choice {} for {} bytes: {}", path, tuned_label(o), uint64_t(c.b) * 4, why));
  return c;
}

TuningTable read_tuning(const std::string& path, const std::string& option) {
  const Reader rd{path, option};
  const std::string what = fmt::format("a {} file (`wormnet tune --json`)", kTuningSchema);
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) rd.refuse("", "cannot be read (no such file)", what);
  if (!S_ISREG(st.st_mode)) rd.refuse("", "not a regular file", what);
  if (uint64_t(st.st_size) > kMaxTableBytes)
    rd.refuse("", fmt::format("{} bytes", st.st_size), fmt::format("tables up to {} bytes", kMaxTableBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) rd.refuse("", "cannot be read (permission denied)", what);
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(ss.str());  // at most 1 MiB: the parser's recursion stays bounded
  } catch (const nlohmann::json::parse_error& e) {
    rd.refuse("", fmt::format("not JSON (byte {})", e.byte), what);
  }
  using T = nlohmann::json::value_t;
  if (!doc.is_object()) rd.refuse("", "not a JSON object", what);
  if (rd.need(doc, "schema", T::string, "schema", kTuningSchema).get<std::string>() != kTuningSchema)
    rd.refuse("schema", doc["schema"].get<std::string>(), kTuningSchema);
  TuningTable t;
  const auto& sc = rd.need(doc, "scope", T::object, "scope", "an object (operation, topology, nodes, ...)");
  auto text = [&](const char* k) { return rd.need(sc, k, T::string, std::string("scope.") + k, "a string"); };
  auto number = [&](const char* k) {
    return rd.need(sc, k, T::number_float, std::string("scope.") + k, "a number").get<double>();
  };
  t.scope.operation = text("operation").get<std::string>();
  t.scope.topology = text("topology").get<std::string>();
  t.scope.op = text("op").get<std::string>();
  const double nodes = number("nodes"), ports = number("ports");
  if (nodes < 2 || nodes > 1 << 20 || nodes != std::floor(nodes)) rd.refuse("scope.nodes", "out of range", "2..2^20");
  if (ports < 1 || ports > 64 || ports != std::floor(ports)) rd.refuse("scope.ports", "out of range", "1..64");
  t.scope.nodes = int(nodes), t.scope.ports = int(ports);
  const auto& cost = rd.need(sc, "cost", T::object, "scope.cost", "an object of name -> number");
  for (const auto& [k, v] : cost.items()) {
    if (!v.is_number() || t.scope.cost.size() >= 64) rd.refuse("scope.cost." + k, "not a number", "numbers");
    t.scope.cost[k] = v.get<double>();
  }
  const std::string op_name = t.scope.operation.rfind("ccl-", 0) == 0 ? t.scope.operation.substr(4) : "";
  Op op{};
  try {
    op = op_of(op_name);
  } catch (const std::out_of_range&) {
    rd.refuse("scope.operation", t.scope.operation, "ccl-<op>, e.g. ccl-combine");
  }
  if (doc.contains("profile") && doc["profile"].is_string()) t.profile = doc["profile"].get<std::string>();
  const auto& ranges = rd.need(doc, "table", T::array, "table", "an array of ranges");
  if (ranges.empty() || ranges.size() > kMaxRanges)
    rd.refuse("table", fmt::format("{} ranges", ranges.size()), fmt::format("1..{}", kMaxRanges));
  for (size_t i = 0; i < ranges.size(); ++i) {
    const std::string at = fmt::format("table[{}]", i);
    const auto& r = ranges[i];
    if (!r.is_object()) rd.refuse(at, "not an object", "{\"max_bytes\", \"options\"}");
    TuningRange out;
    const bool last = i + 1 == ranges.size();
    const auto mb = r.find("max_bytes");
    if (last ? (mb == r.end() || !mb->is_null()) : (mb == r.end() || !mb->is_number_unsigned()))
      rd.refuse(at + ".max_bytes", "missing or wrong",
                last ? "null on the last range (every larger size)" : "a whole number of bytes");
    if (!last) out.max_bytes = mb->get<uint64_t>();
    if (!last && (out.max_bytes == 0 || (!t.ranges.empty() && out.max_bytes <= t.ranges.back().max_bytes)))
      rd.refuse(at + ".max_bytes", std::to_string(out.max_bytes), "ascending, above 0");
    const auto& o = rd.need(r, "options", T::object, at + ".options", "an object of flag -> value");
    for (const auto& [flag, v] : o.items()) {
      const bool known =
          flag == "--ccl-alg" || std::find(knob_flags().begin(), knob_flags().end(), flag) != knob_flags().end();
      if (!known || !v.is_string())
        rd.refuse(at + ".options", flag,
                  "\"--ccl-alg\" and \"--kappa\", \"--packet\", \"--radix\", \"--window\" with string values");
      out.options[flag] = v.get<std::string>();
    }
    const auto alg = out.options.find("--ccl-alg");
    const auto& algs = algorithms(op);
    if (alg == out.options.end() || std::find(algs.begin(), algs.end(), alg->second) == algs.end()) {
      std::string allowed;
      for (const auto& a : algs) allowed += (allowed.empty() ? "" : ", ") + a;
      rd.refuse(at + ".options.--ccl-alg", alg == out.options.end() ? "missing" : alg->second, allowed);
    }
    for (const auto& [flag, v] : out.options)
      if (flag != "--ccl-alg" && (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos))
        rd.refuse(at + ".options." + flag, v, "a decimal number");
    t.ranges.push_back(std::move(out));
  }
  return t;
}

}  // namespace wn::alg::ccl
