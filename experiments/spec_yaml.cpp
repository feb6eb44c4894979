#include "experiments/spec_yaml.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace wn::spec_yaml {

namespace {

constexpr size_t kMaxRange = 100000;  // a range longer than this is a typo (step 0.0001), not a sweep

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

}  // namespace

std::string dump(const YAML::Node& n) {
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

// A mapping key: a plain name (yaml-cpp would throw its own message at a list or map as a key).
std::string key_of(const Ctx& c, const YAML::Node& k) {
  if (!k.IsScalar())
    c.fail("yaml", fmt::format("the key '{}' is not a name; allowed: parameter names as keys", dump(k)));
  return k.Scalar();
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

}  // namespace wn::spec_yaml
