// SPDX-License-Identifier: MIT
// The one place the library starts processes: `skills test` runs TEST.sh commands and
// `skills install` runs the system's git. A Runner policy has one call,
//
//   command_outcome run(const std::vector<std::string>& argv, const std::string& cwd,
//                       std::chrono::milliseconds timeout)
//
// and `posix_runner` models it with fork/execve: the child gets its own process group,
// stdin from /dev/null, the working directory asked for and ONLY the environment the
// caller handed to the runner (nothing is inherited); on timeout the whole group is
// killed. Output is captured up to a cap, stdout then stderr, as upstream concatenates.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "test_script.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// The environment a test command or git gets: `NAME=value` strings, nothing else.
using process_env = std::vector<std::string>;

/// Runs programs through fork/execve (see the file comment).
class posix_runner {
 public:
  /// Captured output beyond this many bytes per stream is read and discarded.
  static constexpr std::size_t max_captured_bytes = 1024 * 1024;

  explicit posix_runner(process_env env) : env_(std::move(env)) {}

  const process_env& env() const noexcept { return env_; }

  /// Runs `argv` (argv[0] is looked up in the environment's PATH when it has no '/').
  command_outcome run(const std::vector<std::string>& argv, const std::string& cwd,
                      std::chrono::milliseconds timeout) const {
    command_outcome out;
    if (argv.empty()) {
      out.error = "no command to run";
      return out;
    }
    const std::string program = resolve(argv.front());
    if (program.empty()) {
      out.error = "failed to execute command: " + argv.front() + " was not found on PATH";
      return out;
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char*> envp;
    for (const std::string& e : env_) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);

    int out_pipe[2] = {-1, -1};
    int err_pipe[2] = {-1, -1};
    int exec_pipe[2] = {-1, -1};  // reports an exec failure's errno, closes on success
    if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0 ||
        ::pipe2(exec_pipe, O_CLOEXEC) != 0) {
      out.error = std::string("failed to execute command: pipe: ") + std::strerror(errno);
      close_all({out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0], exec_pipe[1]});
      return out;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
      out.error = std::string("failed to execute command: fork: ") + std::strerror(errno);
      close_all({out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0], exec_pipe[1]});
      return out;
    }
    if (pid == 0) {
      // Child: only async-signal-safe calls from here on.
      ::setpgid(0, 0);
      const int devnull = ::open("/dev/null", O_RDONLY);
      if (devnull >= 0) ::dup2(devnull, 0);
      ::dup2(out_pipe[1], 1);
      ::dup2(err_pipe[1], 2);
      int err = 0;
      if (::chdir(cwd.c_str()) != 0) {
        err = errno;
      } else {
        ::execve(program.c_str(), args.data(), envp.data());
        err = errno;
      }
      const ssize_t w = ::write(exec_pipe[1], &err, sizeof err);
      (void)w;
      ::_exit(127);
    }
    ::setpgid(pid, pid);  // also from the parent, so the kill below cannot miss the group
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    ::close(exec_pipe[1]);
    int exec_errno = 0;
    const ssize_t got = read_retry(exec_pipe[0], &exec_errno, sizeof exec_errno);
    ::close(exec_pipe[0]);

    std::string err_text;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int fds[2] = {out_pipe[0], err_pipe[0]};
    std::string* sinks[2] = {&out.output, &err_text};
    while (fds[0] >= 0 || fds[1] >= 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        out.timed_out = true;
        break;
      }
      pollfd p[2];
      nfds_t n = 0;
      int which[2] = {0, 0};
      for (int i = 0; i < 2; ++i) {
        if (fds[i] < 0) continue;
        p[n].fd = fds[i];
        p[n].events = POLLIN;
        p[n].revents = 0;
        which[n] = i;
        ++n;
      }
      const int r = ::poll(p, n, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
      if (r < 0) {
        if (errno == EINTR) continue;
        break;
      }
      for (nfds_t k = 0; k < n; ++k) {
        if (p[k].revents == 0) continue;
        char buf[8192];
        const ssize_t m = ::read(p[k].fd, buf, sizeof buf);
        if (m > 0) {
          std::string& s = *sinks[which[k]];
          if (s.size() < max_captured_bytes) {
            s.append(buf, std::min<std::size_t>(static_cast<std::size_t>(m),
                                                max_captured_bytes - s.size()));
          }
        } else if (m == 0 || (errno != EINTR && errno != EAGAIN)) {
          ::close(fds[which[k]]);
          fds[which[k]] = -1;
        }
      }
    }
    if (out.timed_out) ::kill(-pid, SIGKILL);
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!out.timed_out) ::kill(-pid, SIGKILL);  // stragglers left in the background
    out.output += err_text;
    if (got == static_cast<ssize_t>(sizeof exec_errno)) {
      out.error = "failed to execute command: " + argv.front() + ": " + std::strerror(exec_errno);
      out.exit = -1;
      return out;
    }
    out.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
  }

 private:
  static void close_all(std::initializer_list<int> fds) {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }

  static ssize_t read_retry(int fd, void* buf, std::size_t n) {
    ssize_t r;
    do {
      r = ::read(fd, buf, n);
    } while (r < 0 && errno == EINTR);
    return r;
  }

  /// `name` itself when it holds a '/', else the first executable PATH entry.
  std::string resolve(const std::string& name) const {
    if (name.find('/') != std::string::npos) return name;
    std::string path = "/usr/local/bin:/usr/bin:/bin";
    for (const std::string& e : env_) {
      if (e.compare(0, 5, "PATH=") == 0) path = e.substr(5);
    }
    std::size_t i = 0;
    while (i <= path.size()) {
      std::size_t j = path.find(':', i);
      if (j == std::string::npos) j = path.size();
      const std::string dir = j > i ? path.substr(i, j - i) : std::string(".");
      const std::string candidate = dir + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
      i = j + 1;
    }
    return {};
  }

  process_env env_;
};

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
