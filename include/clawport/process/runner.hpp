// SPDX-License-Identifier: MIT
// The one place the library starts processes: `skills test` runs TEST.sh commands,
// `skills install` runs the system's git and the signing policies run OpenSSH's
// ssh-keygen, all through `process::posix_runner::run(request)`:
//
//   outcome run(const request& r) const
//
// It forks and execve's `r.argv` (no shell): the command gets its own process group (or,
// with `r.new_session`, its own session, so it has no terminal to prompt on), stdin from
// `r.stdin_path` (else /dev/null), the working directory asked for (empty: the caller's),
// an empty signal mask and default signal dispositions, and ONLY the environment the
// caller handed to the runner (nothing is inherited). stdout and stderr are captured
// apart, each up to a cap.
//
// The timeout is a hard limit on the command and on everything it started. The command is
// not the runner's child but a supervisor's: a forked process that makes itself a child
// subreaper (Linux `PR_SET_CHILD_SUBREAPER`; set there, not in the caller, so the caller's
// process keeps its own semantics), so every descendant that leaves the process group or
// the session (`setsid`, a double fork) is re-parented to it instead of to init. When the
// command exits or the deadline passes, the supervisor SIGKILLs the group and every child
// it has, again and again as orphans arrive, and reaps them all; only then does it report
// the command's status. The caller's own wait is bounded too (deadline plus
// `kill_grace`), so neither a command that closes its output and runs on nor one that
// ignores SIGTERM outlives its timeout.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "../core/config.hpp"
#include "../core/paths.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace process {

/// The environment a command gets: `NAME=value` strings, nothing else.
using environment = std::vector<std::string>;

/// One command to run.
struct request {
  std::vector<std::string>
      argv;         ///< argv[0] is looked up in the environment's PATH when it has no '/'
  std::string cwd;  ///< the working directory; empty: the caller's
  std::chrono::milliseconds timeout{30000};
  std::string stdin_path;    ///< the file read as stdin; empty: /dev/null
  bool new_session = false;  ///< setsid: no controlling terminal (a prompt fails at once)
};

/// What a run gave.
struct outcome {
  int exit = -1;    ///< exit status; -1 when killed by a signal or never started
  std::string out;  ///< stdout, up to posix_runner::max_captured_bytes
  std::string err;  ///< stderr, likewise
  bool timed_out = false;
  std::string error;     ///< why it could not be started, if it was not
  int error_number = 0;  ///< the errno of that, when there was one
};

namespace detail {

// Everything below runs in the forked supervisor, so it uses async-signal-safe calls only
// (no allocation, no stdio): the caller may have had other threads when it forked.

/// What the supervisor tells the runner once every descendant is gone.
struct supervisor_report {
  int status = 0;     ///< the command's wait status
  int reaped = 0;     ///< 1 when the command was reaped (status is meaningful)
  int timed_out = 0;  ///< 1 when the deadline passed first
};

/// Waits up to `ms` milliseconds for a SIGCHLD (blocked in the supervisor, so one that
/// arrived earlier is still pending and returns at once).
inline void await_child_signal(long long ms) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(ms / 1000);
  ts.tv_nsec = static_cast<long>((ms % 1000) * 1000000);
  ::sigtimedwait(&chld, nullptr, &ts);
}

inline long long ms_left(std::chrono::steady_clock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                               std::chrono::steady_clock::now())
      .count();
}

/// SIGKILLs every live child of the calling process, found in /proc (Linux; elsewhere
/// none are found, and only the group kill applies).
inline void kill_own_children() {
#if defined(__linux__)
  const pid_t self = ::getpid();
  const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) char buf[8192];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (n <= 0) break;
    for (long off = 0; off < n;) {
      // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, char name[].
      unsigned short reclen = 0;
      std::memcpy(&reclen, buf + off + 16, sizeof reclen);
      const char* name = buf + off + 19;
      off += reclen;
      long pid = 0;
      const char* q = name;
      for (; *q >= '0' && *q <= '9' && pid < 100000000; ++q) pid = pid * 10 + (*q - '0');
      if (*q != '\0' || q == name) continue;
      char path[40] = "/proc/";
      char digits[24];
      int k = 0;
      for (long v = pid; v > 0; v /= 10) digits[k++] = static_cast<char>('0' + v % 10);
      std::size_t at = 6;
      while (k > 0) path[at++] = digits[--k];
      std::memcpy(path + at, "/stat", 6);
      const int f = ::open(path, O_RDONLY | O_CLOEXEC);
      if (f < 0) continue;
      char st[512];
      const ssize_t got = ::read(f, st, sizeof st - 1);
      ::close(f);
      if (got <= 0) continue;
      st[got] = '\0';
      // "pid (comm) S ppid ...": comm may hold ')', so the last one ends it.
      const char* close_paren = nullptr;
      for (const char* c = st; *c != '\0'; ++c)
        if (*c == ')') close_paren = c;
      if (close_paren == nullptr || close_paren[1] == '\0' || close_paren[2] == '\0') continue;
      const char* r = close_paren + 3;  // past ") S"
      while (*r == ' ') ++r;
      long ppid = 0;
      for (; *r >= '0' && *r <= '9'; ++r) ppid = ppid * 10 + (*r - '0');
      if (ppid == self) ::kill(static_cast<pid_t>(pid), SIGKILL);
    }
  }
  ::close(dir);
#endif
}

/// Kills the command's group and every descendant that has become the supervisor's child
/// (a subreaper inherits them all), reaping each, until none is left or `limit` passes.
inline void kill_all_descendants(pid_t group, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  for (;;) {
    ::kill(-group, SIGKILL);
    for (;;) {
      const pid_t r = ::waitpid(-1, nullptr, WNOHANG);
      if (r > 0) continue;
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return;  // ECHILD: nothing left
      break;              // children remain, none dead yet
    }
    if (ms_left(until) <= 0) return;
    kill_own_children();
    await_child_signal(std::min<long long>(10, std::max<long long>(1, ms_left(until))));
  }
}

/// Waits for `child` until `deadline`, reaping any orphan that exits meanwhile.
inline supervisor_report wait_until(pid_t child, std::chrono::steady_clock::time_point deadline) {
  supervisor_report rep;
  for (;;) {
    int st = 0;
    const pid_t r = ::waitpid(-1, &st, WNOHANG);
    if (r == child) {
      rep.status = st;
      rep.reaped = 1;
      return rep;
    }
    if (r > 0 || (r < 0 && errno == EINTR)) continue;
    if (r < 0) return rep;  // ECHILD: cannot happen while child is unreaped
    const long long left = ms_left(deadline);
    if (left <= 0) {
      rep.timed_out = 1;
      return rep;
    }
    await_child_signal(left);
  }
}

/// The pipes' write ends and what the command is, for the supervisor.
struct supervised_command {
  const char* program;
  char* const* args;
  char* const* envp;
  const char* cwd;  ///< nullptr: stay in the caller's
  int in_r;         ///< stdin; -1: /dev/null
  int out_w, err_w, exec_w, report_w;
  bool new_session;
  std::chrono::milliseconds timeout;
  std::chrono::milliseconds kill_grace;
};

/// A clean signal state for the command: nothing blocked, every signal at its default
/// (an ignored SIGPIPE or SIGINT of the caller's must not reach it).
inline void reset_signals() {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);  // fails for KILL, STOP
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

/// The command itself (in the grandchild): own group or session, stdin, the pipes as
/// stdout and stderr; an exec failure's errno goes to the exec pipe.
[[noreturn]] inline void exec_command(const supervised_command& c) {
  if (c.new_session)
    ::setsid();
  else
    ::setpgid(0, 0);
  reset_signals();
  const int in = c.in_r >= 0 ? c.in_r : ::open("/dev/null", O_RDONLY);
  if (in >= 0) ::dup2(in, 0);
  ::dup2(c.out_w, 1);
  ::dup2(c.err_w, 2);
  int err = 0;
  if (c.cwd != nullptr && ::chdir(c.cwd) != 0) {
    err = errno;
  } else {
    ::execve(c.program, c.args, c.envp);
    err = errno;
  }
  const ssize_t w = ::write(c.exec_w, &err, sizeof err);
  (void)w;
  ::_exit(127);
}

/// The supervisor (see the file comment): a subreaper that starts the command, waits for
/// it until the deadline, kills and reaps every descendant, then reports and exits.
[[noreturn]] inline void supervise(const supervised_command& c) {
  const auto deadline = std::chrono::steady_clock::now() + c.timeout;
#if defined(__linux__)
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &chld, nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) exec_command(c);
  if (pid < 0) {
    const int err = errno;
    const ssize_t w = ::write(c.exec_w, &err, sizeof err);
    (void)w;
    ::_exit(127);
  }
  // Also from here, so the group kill cannot miss it; a session leader-to-be must not be
  // made a group leader first (setsid would fail), and is reached by its pid meanwhile.
  if (!c.new_session) ::setpgid(pid, pid);
  if (c.in_r >= 0) ::close(c.in_r);
  ::close(c.out_w);
  ::close(c.err_w);
  ::close(c.exec_w);
  const supervisor_report rep = wait_until(pid, deadline);
  kill_all_descendants(pid, c.kill_grace);
  const ssize_t w = ::write(c.report_w, &rep, sizeof rep);
  (void)w;
  ::_exit(0);
}

}  // namespace detail

/// Runs programs through fork/execve (see the file comment).
class posix_runner {
 public:
  /// Captured output beyond this many bytes per stream is read and discarded.
  static constexpr std::size_t max_captured_bytes = 1024 * 1024;
  /// How long killing and reaping the descendants may take after the deadline; the
  /// runner's own wait ends at the deadline plus twice this, whatever happens.
  static constexpr std::chrono::milliseconds kill_grace{2000};

  explicit posix_runner(environment env) : env_(std::move(env)) {}

  const environment& env() const noexcept { return env_; }

  /// Runs `r` (see the file comment).
  outcome run(const request& r) const {
    outcome out;
    if (r.argv.empty()) {
      out.error = "no command to run";
      return out;
    }
    const std::string program = resolve(r.argv.front());
    if (program.empty()) {
      out.error = "failed to execute command: " + r.argv.front() + " was not found on PATH";
      out.error_number = ENOENT;
      return out;
    }
    std::vector<char*> args;
    for (const std::string& a : r.argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char*> envp;
    for (const std::string& e : env_) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);

    const auto fail = [&](const std::string& what, int e) {
      out.error = "failed to execute command: " + what + ": " + std::strerror(e);
      out.error_number = e;
      return out;
    };
    const int in = r.stdin_path.empty() ? -1 : ::open(r.stdin_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0 && !r.stdin_path.empty()) return fail(r.stdin_path, errno);
    int p[8] = {-1, -1, -1, -1, -1, -1, -1, -1};  // out, err, exec errno, supervisor report
    for (int i = 0; i < 8; i += 2) {
      if (::pipe2(p + i, O_CLOEXEC) != 0) {
        const int e = errno;
        close_all({in, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]});
        return fail("pipe", e);
      }
    }
    const detail::supervised_command cmd{program.c_str(),
                                         args.data(),
                                         envp.data(),
                                         r.cwd.empty() ? nullptr : r.cwd.c_str(),
                                         in,
                                         p[1],
                                         p[3],
                                         p[5],
                                         p[7],
                                         r.new_session,
                                         r.timeout,
                                         kill_grace};
    const pid_t sup = ::fork();
    if (sup < 0) {
      const int e = errno;
      close_all({in, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]});
      return fail("fork", e);
    }
    if (sup == 0) {
      close_all({p[0], p[2], p[4], p[6]});
      detail::supervise(cmd);
    }
    close_all({in, p[1], p[3], p[5], p[7]});
    int exec_errno = 0;
    const ssize_t got = read_retry(p[4], &exec_errno, sizeof exec_errno);
    ::close(p[4]);

    const bool cut_off = capture(p[0], p[2], out.out, out.err,
                                 std::chrono::steady_clock::now() + r.timeout + 2 * kill_grace);
    if (cut_off) ::kill(sup, SIGKILL);  // the supervisor is stuck: stop waiting for it
    int status = 0;
    while (::waitpid(sup, &status, 0) < 0 && errno == EINTR) {
    }
    detail::supervisor_report rep;
    const bool reported = read_retry(p[6], &rep, sizeof rep) == static_cast<ssize_t>(sizeof rep);
    ::close(p[6]);
    if (got == static_cast<ssize_t>(sizeof exec_errno)) {
      fail(r.argv.front(), exec_errno);
      out.exit = -1;
      return out;
    }
    out.timed_out = cut_off || (reported && rep.timed_out != 0);
    if (!reported && !cut_off)
      out.error = "failed to execute command: " + r.argv.front() +
                  ": its supervisor ended without a report";
    out.exit = reported && rep.reaped != 0 && WIFEXITED(rep.status) ? WEXITSTATUS(rep.status) : -1;
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

  /// Reads stdout and stderr (up to the cap each) until both close or `deadline` passes
  /// (then true); closes both.
  static bool capture(int out_fd, int err_fd, std::string& out_text, std::string& err_text,
                      std::chrono::steady_clock::time_point deadline) {
    int fds[2] = {out_fd, err_fd};
    std::string* sinks[2] = {&out_text, &err_text};
    bool cut_off = false;
    while (fds[0] >= 0 || fds[1] >= 0) {
      const long long left = detail::ms_left(deadline);
      if (left <= 0) {
        cut_off = true;
        break;
      }
      pollfd pfd[2];
      nfds_t n = 0;
      int which[2] = {0, 0};
      for (int i = 0; i < 2; ++i) {
        if (fds[i] < 0) continue;
        pfd[n].fd = fds[i];
        pfd[n].events = POLLIN;
        pfd[n].revents = 0;
        which[n] = i;
        ++n;
      }
      const int r = ::poll(pfd, n, static_cast<int>(std::min<long long>(left, 1 << 30)));
      if (r < 0) {
        if (errno == EINTR) continue;
        break;
      }
      for (nfds_t k = 0; k < n; ++k) {
        if (pfd[k].revents == 0) continue;
        char buf[8192];
        const ssize_t m = ::read(pfd[k].fd, buf, sizeof buf);
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
    close_all({fds[0], fds[1]});
    return cut_off;
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
      const std::string candidate = paths::join(dir, name);
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
      i = j + 1;
    }
    return {};
  }

  environment env_;
};

}  // namespace process
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
