// Internal to the schedule-file reader: typed access to a JSON value that knows its own path,
// so every error names the file, the JSON path and what is allowed. No JSON-library message
// ever reaches the user: every access is checked before it is made.
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

#include "systemc/core/config_error.h"

namespace wn::alg::file {

using nlohmann::json;

// A file's text (names, keys, the file name itself) may hold any byte: every message is one line.
inline std::string printable(const std::string& s) {
  std::string out;
  for (const unsigned char ch : s) {
    if (ch < 0x20 || ch == 0x7f)
      out += fmt::format("\\x{:02x}", ch);
    else
      out += char(ch);
  }
  return out;
}

// The one way a schedule file is refused: "FILE: PATH: what; allowed: ...".
[[noreturn]] inline void refuse(const std::string& file, const std::string& path, const std::string& what,
                                const std::string& allowed) {
  throw ConfigError(printable(file),
                    printable(fmt::format("{}: {}; allowed: {}", path.empty() ? "(top level)" : path, what, allowed)));
}

class Value {
 public:
  Value(const std::string& file, const json& v, std::string path) : file_(&file), v_(&v), path_(std::move(path)) {}
  const json& raw() const { return *v_; }
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(const std::string& what, const std::string& allowed) const {
    refuse(*file_, path_, what, allowed);
  }
  // An object whose keys are all in `known` (keys starting with "x-" are the user's own and ignored).
  void object(std::initializer_list<const char*> known) const {
    if (!v_->is_object()) fail(fmt::format("{} is not an object", kind()), "an object with keys " + list(known));
    for (const auto& [k, unused] : v_->items()) {
      (void)unused;
      bool ok = k.rfind("x-", 0) == 0;
      for (const char* n : known) ok = ok || k == n;
      if (!ok)
        at_key(k).fail(fmt::format("unknown key '{}'", k), "the keys " + list(known) + " (or your own, named x-...)");
    }
  }
  bool has(const char* key) const { return v_->contains(key); }
  Value at_key(const std::string& key) const {
    return Value(*file_, v_->at(key), path_.empty() ? key : path_ + "." + key);
  }
  // A required key.
  Value need(const char* key, const std::string& allowed) const {
    if (!v_->contains(key)) fail(fmt::format("missing key '{}'", key), allowed);
    return at_key(key);
  }
  size_t size() const { return v_->size(); }
  Value item(size_t i) const { return Value(*file_, (*v_)[i], fmt::format("{}[{}]", path_, i)); }
  // A list (JSON array) of at most `max` items.
  const Value& array(const std::string& allowed, size_t max = SIZE_MAX) const {
    if (!v_->is_array()) fail(fmt::format("{} is not a list", kind()), allowed);
    if (v_->size() > max) fail(fmt::format("{} items", v_->size()), fmt::format("at most {}", max));
    return *this;
  }
  uint64_t uint(uint64_t min, uint64_t max) const {
    const std::string allowed = fmt::format("an integer {}..{}", min, max);
    if (!v_->is_number_integer()) fail(fmt::format("{} is not an integer", kind()), allowed);
    if (!v_->is_number_unsigned() && v_->get<int64_t>() < 0) fail(fmt::format("{} is negative", v_->dump()), allowed);
    if (!v_->is_number_unsigned()) return check_range(0, min, max, allowed);  // -0
    return check_range(v_->get<uint64_t>(), min, max, allowed);
  }
  uint64_t check_range(uint64_t x, uint64_t min, uint64_t max, const std::string& allowed) const {
    if (x < min || x > max) fail(fmt::format("{} is out of range", x), allowed);
    return x;
  }
  std::string string(const std::string& allowed) const {
    if (!v_->is_string()) fail(fmt::format("{} is not a string", kind()), allowed);
    return v_->get<std::string>();
  }
  bool boolean() const {
    if (!v_->is_boolean()) fail(fmt::format("{} is not true or false", kind()), "true or false");
    return v_->get<bool>();
  }

 private:
  std::string kind() const {
    if (v_->is_null()) return "null";
    if (v_->is_string()) return fmt::format("the string {}", short_dump());
    if (v_->is_number_float()) return fmt::format("the number {}", short_dump());
    if (v_->is_number()) return fmt::format("the number {}", short_dump());
    if (v_->is_boolean()) return v_->get<bool>() ? "true" : "false";
    if (v_->is_array()) return "a list";
    return "an object";
  }
  std::string short_dump() const {
    std::string s = v_->dump(-1, ' ', true, json::error_handler_t::replace);
    return s.size() > 40 ? s.substr(0, 37) + "..." : s;
  }
  static std::string list(std::initializer_list<const char*> keys) {
    std::string s;
    for (const char* k : keys) s += (s.empty() ? "" : ", ") + std::string(k);
    return s;
  }
  const std::string* file_;
  const json* v_;
  std::string path_;
};

}  // namespace wn::alg::file
