// SPDX-License-Identifier: MIT
// The one reader of standard input in the tool (tools/check_rules.py allows stdin reads
// only here): every read is bounded, so `< /dev/zero` is refused rather than exhausting
// memory; a secret typed at a terminal is read with echo off, and Ctrl-C there restores
// the terminal before the command ends with 130 (issue 41 items 12, 13).
#pragma once

#include <clawport/clawport.hpp>

#include "interrupt.hpp"
#include "output.hpp"

#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

namespace clawport::cli {

/// The most a command reads from standard input: a secret, an answer.
inline constexpr std::size_t max_input_bytes = 64 * 1024;

/// Whether standard input is a terminal.
inline bool stdin_is_terminal() noexcept { return ::isatty(STDIN_FILENO) == 1; }

namespace input_detail {

/// SIGINT and SIGTERM recorded (cli/interrupt.hpp) and NOT restarted while it lives, so a
/// read blocked at a prompt returns EINTR and the caller can restore the terminal.
class interruptible {
 public:
  interruptible() noexcept {
    struct sigaction sa {};
    sa.sa_handler = clawport_cli_on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, nullptr, &old_int_);
    sigaction(SIGTERM, nullptr, &old_term_);
    if (old_int_.sa_handler != SIG_IGN) sigaction(SIGINT, &sa, nullptr);
    if (old_term_.sa_handler != SIG_IGN) sigaction(SIGTERM, &sa, nullptr);
  }
  ~interruptible() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  interruptible(const interruptible&) = delete;
  interruptible& operator=(const interruptible&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

/// Echo off on the terminal while it lives; restored however the scope ends.
class no_echo {
 public:
  no_echo() {
    active_ = ::tcgetattr(STDIN_FILENO, &saved_) == 0;
    if (!active_) return;
    termios quiet = saved_;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  ~no_echo() {
    if (active_) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
  }
  no_echo(const no_echo&) = delete;
  no_echo& operator=(const no_echo&) = delete;

 private:
  termios saved_{};
  bool active_ = false;
};

inline error too_long(const std::string& what) {
  return error(errc::limit_exceeded,
               what + " is longer than " + std::to_string(max_input_bytes / 1024) +
                   " KiB on standard input; nothing was written (give the value itself, not a "
                   "file or a device)",
               what);
}

inline error cancelled(const std::string& what) {
  return error(errc::cancelled, "interrupted while reading " + what + "; nothing was written",
               what);
}

/// Reads one byte; nullopt at the end. A signal recorded before or during the read ends it
/// as errc::cancelled (the tool then exits 128+signal).
inline std::optional<char> read_byte(const std::string& what) {
  for (;;) {
    if (interrupted()) throw cancelled(what);
    char c = 0;
    const ::ssize_t n = ::read(STDIN_FILENO, &c, 1);
    if (n == 1) return c;
    if (n == 0) return std::nullopt;
    if (errno == EINTR) continue;  // a signal recorded: refused at the top
    throw error(errc::io, "cannot read " + what + " from standard input: " + std::strerror(errno),
                what);
  }
}

}  // namespace input_detail

/// All of standard input, at most max_input_bytes (one more byte is read to tell, never
/// the rest): errc::limit_exceeded past it, naming `what`. One final newline (and a CR
/// before it) is dropped, as `echo` or a here-string adds it.
inline std::string read_all_input(const std::string& what) {
  std::string value;
  char buffer[4096];
  input_detail::interruptible scope;
  for (;;) {
    if (interrupted()) throw input_detail::cancelled(what);
    const std::size_t want = std::min(sizeof buffer, max_input_bytes + 1 - value.size());
    const ::ssize_t n = ::read(STDIN_FILENO, buffer, want);
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;  // a signal recorded: refused at the top
    if (n < 0)
      throw error(errc::io, "cannot read " + what + " from standard input: " + std::strerror(errno),
                  what);
    value.append(buffer, static_cast<std::size_t>(n));
    if (value.size() > max_input_bytes) throw input_detail::too_long(what);
  }
  if (!value.empty() && value.back() == '\n') value.pop_back();
  if (!value.empty() && value.back() == '\r') value.pop_back();
  return value;
}

/// One line of standard input (without its newline), at most max_input_bytes; nullopt at
/// the end of input before any byte. Reads byte by byte, so nothing after the line is
/// consumed.
inline std::optional<std::string> read_input_line(const std::string& what) {
  std::string line;
  input_detail::interruptible scope;
  for (;;) {
    const std::optional<char> c = input_detail::read_byte(what);
    if (!c) return line.empty() ? std::nullopt : std::optional<std::string>(line);
    if (*c == '\n') return line;
    if (line.size() == max_input_bytes) throw input_detail::too_long(what);
    line += *c;
  }
}

/// One line typed at `prompt` (written to stderr, escaped by out::prompt) on a terminal that does
/// not echo it. Ctrl-C restores the echo and throws errc::cancelled (exit 130).
inline std::string read_hidden_line(const std::string& prompt, const std::string& what) {
  std::optional<std::string> value;
  {
    // Echo off before the prompt shows: what is typed after it is never echoed nor
    // discarded by the terminal's flush. Ctrl-C is recorded from before the prompt shows;
    // the scopes end (echo back) before any throw leaves.
    input_detail::interruptible scope;
    input_detail::no_echo quiet;
    out::prompt(prompt);
    value = read_input_line(what);
  }
  out::line("", out::to::err);
  return value.value_or(std::string());
}

}  // namespace clawport::cli
