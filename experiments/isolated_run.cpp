#include "experiments/isolated_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "systemc/core/config_error.h"

namespace wn {

IsolatedChild start_isolated(const std::function<nlohmann::json()>& job) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe() failed");
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error("fork() failed");
  }
  if (pid == 0) {
    // Die with the parent: a killed sweep or compare must not leave its points running as
    // orphans (holding CPUs and the results file's lock). The parent may have died before
    // prctl(): then we already have a new parent, and go at once.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    close(fds[0]);
    nlohmann::json out;
    try {
      out = {{"result", job()}};
    } catch (const ConfigError& e) {
      out = {{"config_error", {{"field", e.field()}, {"param", bool(e.param())}, {"detail", e.detail()}}}};
    } catch (const std::exception& e) {
      out = {{"error", e.what()}};
    }
    const std::string s = out.dump();
    size_t off = 0;
    while (off < s.size()) {
      const ssize_t w = write(fds[1], s.data() + off, s.size() - off);
      if (w <= 0) break;
      off += size_t(w);
    }
    close(fds[1]);
    std::fflush(stdout);
    _exit(0);  // skip destructors of the parent's copy of the world
  }
  close(fds[1]);
  return {pid, fds[0]};
}

nlohmann::json finish_isolated(IsolatedChild child) {
  std::string buf;
  char chunk[65536];
  ssize_t n;
  while ((n = read(child.fd, chunk, sizeof chunk)) > 0) buf.append(chunk, size_t(n));
  close(child.fd);
  int status = 0;
  waitpid(child.pid, &status, 0);
  if (buf.empty())
    throw std::runtime_error("simulation child died (status " + std::to_string(status) + ") without a result");
  const auto j = nlohmann::json::parse(buf);
  if (j.contains("config_error")) {
    const auto& e = j["config_error"];
    const std::string field = e["field"].get<std::string>();
    const auto param = e["param"].get<bool>() ? param_from_id(field) : std::nullopt;
    throw ConfigError(param ? ConfigField(*param) : ConfigField(field), e["detail"].get<std::string>());
  }
  if (j.contains("error")) throw std::runtime_error(j["error"].get<std::string>());
  return j["result"];
}

}  // namespace wn
