#include "algorithms/pipeline.h"

#include "algorithms/thesis_formulas.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "algorithms/group.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

const OptionSpec* spec_of(const Family& f, const std::string& flag) {
  for (const auto& o : f.options)
    if (o.flag == flag) return &o;
  return nullptr;
}

void parse_one(const OptionSpec& spec, const std::string& text, OptionValues& out) {
  if (spec.text) return out.set_word(spec.flag, text);
  if (!spec.choices.empty()) {
    if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
      throw ConfigError(spec.flag, fmt::format("'{}'; allowed: {}", text, join(spec.choices)));
    out.set_word(spec.flag, text);
    return;
  }
  if (!spec.keyword.empty()) {
    out.set_word(spec.flag, text);
    if (text == spec.keyword) return out.set_number(spec.flag, 0);
  }
  uint64_t v = 0;
  bool ok = !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
  if (ok) {
    try {
      v = std::stoull(text);
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok || v > spec.max || v < spec.min)
    throw ConfigError(spec.flag, fmt::format("'{}' is not allowed; allowed: {}an integer {}..{}", text,
                                             spec.keyword.empty() ? "" : spec.keyword + " or ", spec.min, spec.max));
  out.set_number(spec.flag, v);
}

}  // namespace

bool option_applies(const Family& f, const OptionSpec& spec, const std::map<std::string, std::string>& given) {
  if (spec.only_with_flag.empty()) return true;
  // only_with_value may list several values ("nesbt, chain").
  auto listed = [&](const std::string& v) {
    const std::string& l = spec.only_with_value;
    for (size_t at = 0; at <= l.size();) {
      const size_t comma = l.find(", ", at);
      if (l.compare(at, (comma == std::string::npos ? l.size() : comma) - at, v) == 0 &&
          (comma == std::string::npos ? l.size() : comma) - at == v.size())
        return true;
      if (comma == std::string::npos) return false;
      at = comma + 2;
    }
    return false;
  };
  if (auto it = given.find(spec.only_with_flag); it != given.end()) return listed(it->second);
  const OptionSpec* other = spec_of(f, spec.only_with_flag);
  return other && listed(other->default_value);
}

OptionValues parse_options(const AlgorithmInfo& info, const std::map<std::string, std::string>& given) {
  const Family& fam = family_of(info);
  OptionValues out;
  for (const auto& [flag, text] : given) {
    if (std::find(info.options.begin(), info.options.end(), flag) == info.options.end())
      throw ConfigError(flag,
                        fmt::format("{} does not read it; allowed for {}: {}", info.name, info.name,
                                    info.options.empty() ? std::string("no family options") : join(info.options)));
  }
  for (const auto& [flag, text] : given)
    if (const OptionSpec* spec = spec_of(fam, flag); spec && !option_applies(fam, *spec, given))
      throw ConfigError(flag, fmt::format("read only with {} {}; allowed: no {} here, or {} {}", spec->only_with_flag,
                                          spec->only_with_value, flag, spec->only_with_flag, spec->only_with_value));
  for (const auto& flag : info.options) {
    const OptionSpec* spec = spec_of(fam, flag);
    if (!spec)
      throw std::logic_error(info.name + " reads " + flag + ", which family " + fam.name + " does not declare");
    auto it = given.find(flag);
    parse_one(*spec, it == given.end() ? spec->default_value : it->second, out);
  }
  return out;
}

AlgorithmArgs check_schedule(const AlgorithmInfo& info, const Topology& topo, AlgorithmArgs args) {
  if (const std::string why = unsupported(info, topo); !why.empty()) throw ConfigError(Param::topology, why);
  if (info.groups) {
    const bool whole = args.group.empty();
    args.group = resolve_group(topo, args.group);
    if (info.rooted) args.source_rank = rank_in_group(topo, args.group, args.source, whole);
  } else {
    if (!args.group.empty())
      throw ConfigError(Param::group,
                        fmt::format("{} uses the whole network; allowed: no {}", info.name, param_ref(Param::group)));
    if (info.rooted) args.source_rank = rank_in_group(topo, resolve_group(topo, {}), args.source, true);
  }
  info.check(topo, args);
  check_schedule_size(info.name, topo, info.max_messages(topo, args));
  return args;
}

BuiltSchedule build_schedule(const AlgorithmInfo& info, const Topology& topo, AlgorithmArgs args, bool on_nodes) {
  args = check_schedule(info, topo, std::move(args));
  Schedule s = info.build(topo, args);
  if (info.groups && on_nodes) s = remap_group(s, args.group, topo.nodes());
  if (const std::string bad = validate(s); !bad.empty())
    throw std::logic_error("algorithm " + info.name + " built an invalid schedule: " + bad);
  return {std::move(args), std::move(s)};
}

Prediction predict(const AlgorithmInfo& info, const Topology& topo, const BuiltSchedule& built, const CostParams& c) {
  Prediction p = info.cost(topo, built.args, c, built.schedule);
  // The EDN thesis's closed form, where it has one for this broadcast (a family may have set its own).
  // A file named like a family's algorithm is not that algorithm: no paper's formula for files.
  if (p.thesis_formula.empty() && info.file.empty() &&
      (built.args.group.empty() || int(built.args.group.size()) == topo.nodes()))
    if (const auto t = thesis_broadcast_cost(info.name, topo, c, built.args.words)) {
      p.thesis_cycles = t->cycles;
      p.thesis_formula = t->formula;
    }
  return p;
}

}  // namespace wn::alg
