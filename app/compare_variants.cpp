// The variants of `wormnet compare` (compare_variants.h): family flags given as lists crossed only
// with the algorithms that read them, a flag read only with another flag's value kept to the
// variants that have it.
#include "app/compare_variants.h"

#include <fmt/format.h>

#include <set>

#include "algorithms/file_algorithm.h"
#include "algorithms/registry.h"
#include "app/options.h"
#include "experiments/firmware_plugin.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

std::vector<uint32_t> parse_bytes(const std::string& text) {
  std::vector<uint32_t> out;
  for (auto item : split_list(text, "--bytes")) {
    const std::string err = uint_in(4, 64u << 20)(item);
    if (!err.empty() || std::stoul(item) % 4)
      throw ConfigError("--bytes", fmt::format("'{}' is not a message size; allowed: multiples of 4 in 4..{}, "
                                               "comma-separated",
                                               item, 64u << 20));
    out.push_back(uint32_t(std::stoul(item)));
  }
  return out;
}

std::vector<Variant> variants_of(const fw::ScheduleRunOptions& base, const std::vector<std::string>& algos,
                                 const std::vector<std::string>& files, const std::vector<std::string>& plugins) {
  std::vector<Variant> out;
  for (const auto& a : algos) {
    const alg::AlgorithmInfo& info = alg::find_algorithm(a);
    const alg::Family& fam = alg::family_of(info);
    std::vector<std::map<std::string, std::string>> v = {{}};
    std::set<std::string> listed;  // flags given with several values: they name the variant
    for (const auto& [flag, text] : base.family_options) {
      if (!alg::reads_option(info, flag)) continue;
      const auto values = split_list(text, flag);
      if (values.size() > 1) listed.insert(flag);
      std::vector<std::map<std::string, std::string>> next;
      for (const auto& x : v)
        for (const auto& val : values) {
          auto y = x;
          y[flag] = val;
          next.push_back(std::move(y));
        }
      v = std::move(next);
    }
    // A flag read only with another flag's value (--kappa with --ccl-alg hybrid) goes to the
    // variants that have it (butterfly/1 and butterfly/2 are one variant, butterfly).
    std::set<std::map<std::string, std::string>> seen;
    for (auto& x : v) {
      for (const auto& spec : fam.options)
        if (x.count(spec.flag) && !alg::option_applies(fam, spec, x)) x.erase(spec.flag);
      if (!seen.insert(x).second) continue;
      std::string label = a;
      for (const auto& [flag, val] : x)
        if (listed.count(flag)) label += "/" + val;
      out.push_back({label, a, "", x});
    }
  }
  for (const auto& [flag, text] : base.family_options) {
    bool used = false;
    for (const auto& x : out) used = used || x.options.count(flag);
    for (const auto& a : algos)
      for (const auto& spec : alg::family_of(alg::find_algorithm(a)).options)
        if (spec.flag == flag && !used && alg::reads_option(alg::find_algorithm(a), flag))
          throw ConfigError(flag, fmt::format("read only with {} {}; allowed: no {} here, or {} {} among the values",
                                              spec.only_with_flag, spec.only_with_value, flag, spec.only_with_flag,
                                              spec.only_with_value));
  }
  for (const auto& f : files) {
    const alg::AlgorithmInfo& info = alg::schedule_file_algorithm(f);  // read and checked before any simulation
    out.push_back({info.name, info.name, f, {}});
  }
  for (const auto& p : plugins) {
    fw::load_plugin(p);  // opened and its ABI checked before any simulation
    out.push_back({p, base.algorithm, "", {}, p});
  }
  // Two rows with one label would be one line in a plot: the later ones say which file they are.
  std::map<std::string, int> seen;
  for (auto& v : out)
    if (seen[v.label]++ && !v.file.empty()) v.label += " [" + v.file + "]";
  return out;
}

std::vector<PortRow> port_rows_of(const std::vector<std::string>& port_models, const std::vector<double>& mems) {
  std::vector<PortRow> rows;
  for (const auto& p : port_models)
    for (double m : mems)
      rows.push_back(
          {mems.size() == 1 ? p : fmt::format("{} mem={}", p, m == 0 ? std::string("all") : fmt::format("{}", m)), p,
           m});
  return rows;
}

}  // namespace wn::cli
