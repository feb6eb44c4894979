// Bad user input: one line naming the field and the allowed values; the CLI
// prints it and exits with code 2. Never an assert.
#pragma once
#include <stdexcept>
#include <string>

namespace wn {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string field, const std::string& what)
      : std::runtime_error(field + ": " + what), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

}  // namespace wn
