// Where wormnet keeps results worth not computing twice (synthesized schedules,
// router areas): $<env_var>, else $XDG_CACHE_HOME/wormnet/<leaf>, else
// ~/.cache/wormnet/<leaf> (/tmp without a HOME).
#pragma once
#include <cstdlib>
#include <string>

namespace wn {

inline std::string cache_dir(const char* env_var, const std::string& leaf) {
  if (const char* d = std::getenv(env_var); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/wormnet/" + leaf;
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/wormnet/" + leaf;
}

}  // namespace wn
