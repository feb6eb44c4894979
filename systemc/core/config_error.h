// Bad user input: one line naming the field and the allowed values; the CLI
// prints it and exits with code 2. Never an assert.
//
// Code below app/ does not know how the user spelled a parameter (a CLI flag,
// a sweep-spec key): it names the parameter by its id (Param) and app/ words
// it (app/param_words.cpp). A mention of a parameter inside the message is
// param_ref(id), which app/ replaces by the same word. A field that is not a
// run parameter (a file, a line of it, a family's own declared option) is a
// string.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace wn {

// The run parameters the framework reads; families declare their own options by name.
// clang-format off
#define WN_PARAMS(X) \
  X(algorithm) X(avoid) X(backend) X(baseline) X(buf) X(by) X(bytes) X(bytes_per_flit) X(clock_ns) \
  X(combine_cycles) X(copy_cycles) X(cycles) X(firmware) X(group) X(hotspot_fraction) X(hotspot_node) \
  X(index_cycles) X(index_op_cycles) X(index_setup_cycles) X(json) X(max_cycles) X(max_hops) X(max_packet_bytes) X(mem_words) X(merge) X(multiport_flit_cycles) X(multiport_startup) X(op) X(out) \
  X(packet_flits) X(pattern) X(ports) X(profile) X(rate) X(reorder_cycles) X(schedule) X(source) X(steps) \
  X(tolerance) X(topology) X(trace) X(vcs)
// clang-format on

enum class Param : uint8_t {
#define WN_PARAM_ENUM(p) p,
  WN_PARAMS(WN_PARAM_ENUM)
#undef WN_PARAM_ENUM
};

#define WN_PARAM_ONE(p) +1
inline constexpr size_t kParamCount = 0 WN_PARAMS(WN_PARAM_ONE);
#undef WN_PARAM_ONE

// The id as text: for reports and logs that no user-facing layer words (never a flag).
inline const char* param_id(Param p) {
  static const char* const ids[] = {
#define WN_PARAM_ID(p) #p,
      WN_PARAMS(WN_PARAM_ID)
#undef WN_PARAM_ID
  };
  return size_t(p) < kParamCount ? ids[size_t(p)] : "?";
}

inline std::optional<Param> param_from_id(const std::string& id) {
  for (size_t i = 0; i < kParamCount; ++i)
    if (id == param_id(Param(i))) return Param(i);
  return std::nullopt;
}

// A parameter mentioned inside a message: "\x01id\x02", replaced by words_of() (app/ passes its
// wording; the default keeps the id).
inline std::string param_ref(Param p) { return std::string("\x01") + param_id(p) + "\x02"; }

template <class Word>
std::string words_of(const std::string& text, const Word& word) {
  std::string out;
  size_t at = 0;
  for (size_t open; (open = text.find('\x01', at)) != std::string::npos;) {
    const size_t close = text.find('\x02', open);
    if (close == std::string::npos) break;
    out.append(text, at, open - at);
    const auto p = param_from_id(text.substr(open + 1, close - open - 1));
    out += p ? word(*p) : text.substr(open + 1, close - open - 1);
    at = close + 1;
  }
  return out.append(text, at, std::string::npos);
}

inline std::string neutral_words(const std::string& text) {
  return words_of(text, [](Param p) { return std::string(param_id(p)); });
}

// How a result text names a parameter: app/ passes its flag words; the default keeps the id.
using ParamWords = std::string (*)(Param);
inline std::string neutral_param_word(Param p) { return param_id(p); }

// What an error blames: a run parameter, or a field named in the caller's words.
struct ConfigField {
  ConfigField(Param p) : param(p) {}                  // NOLINT: implicit by design
  ConfigField(std::string n) : name(std::move(n)) {}  // NOLINT
  ConfigField(const char* n) : name(n) {}             // NOLINT
  std::optional<Param> param;
  std::string name;
};

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const ConfigField& field, const std::string& detail)
      : std::runtime_error((field.param ? std::string(param_id(*field.param)) : field.name) + ": " +
                           neutral_words(detail)),
        field_(field),
        detail_(detail) {}
  const std::optional<Param>& param() const { return field_.param; }
  // The field as the thrower named it: the parameter's id, or the given name.
  std::string field() const { return field_.param ? param_id(*field_.param) : field_.name; }
  // The message after the field, with its param_ref() marks (words_of() words them).
  const std::string& detail() const { return detail_; }

 private:
  ConfigField field_;
  std::string detail_;
};

}  // namespace wn
