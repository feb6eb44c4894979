// Name lookup for every string-keyed registry (algorithms, families, profiles,
// patterns, operators, backends): an unknown name is a ConfigError that names
// the field and every allowed name, so each registry's error reads the same.
#pragma once
#include <string>

#include "systemc/core/config_error.h"

namespace wn {

// `entries` is any range whose elements have a `name` member convertible to
// std::string; `what` names the kind in the message ("algorithm", "profile").
template <class Entries>
const auto& find_by_name(const Entries& entries, const std::string& name, const ConfigField& field,
                         const std::string& what) {
  std::string allowed;
  for (const auto& e : entries) {
    if (e.name == name) return e;
    allowed += (allowed.empty() ? "" : ", ") + std::string(e.name);
  }
  throw ConfigError(field, "unknown " + what + " '" + name + "'; allowed: " + allowed);
}

}  // namespace wn
