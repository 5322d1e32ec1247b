// SPDX-License-Identifier: MIT
// The progress line of the long commands (issue 44 item 1): on stderr, only when it is a
// terminal, rewritten in place, so that no phase that can take seconds goes quiet. One
// class for `export`, `verify` and `import`.
#pragma once

#include "output.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace clawport::cli {

/// The progress line: shown when `enabled` (stderr is a terminal and no `--json`).
class progress_line {
 public:
  explicit progress_line(bool enabled) : enabled_(enabled) {}
  /// For a command whose `--json` is `json`: shown only on a terminal, never with --json.
  static progress_line for_command(bool json) {
    return progress_line(!json && ::isatty(STDERR_FILENO) == 1);
  }
  progress_line(progress_line&&) = default;
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;
  ~progress_line() { clear(); }

  /// `what: n/N files` (`what: n files` when the total is not known, 0, or passed): at the
  /// first call of a phase, at most ten times a second after it, and at the last file.
  void count(std::string_view what, std::uint64_t n, std::uint64_t total,
             std::string_view one = "file", std::string_view many = "files") {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && what == what_ && n != total && now - last_ < std::chrono::milliseconds(100))
      return;
    last_ = now;
    what_ = std::string(what);
    std::string l = std::string(what) + ": " + std::to_string(n);
    if (total != 0 && n <= total) l += "/" + std::to_string(total);
    l += " " + std::string(n == 1 ? one : many);
    out::clear_progress();
    out::progress(l);
    shown_ = true;
  }
  /// A phase without a count: the line never goes quiet while it runs.
  void phase(const std::string& what) {
    if (!enabled_) return;
    out::clear_progress();
    out::progress(what);
    shown_ = true;
  }
  void clear() {
    if (shown_) out::clear_progress();
    shown_ = false;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::string what_;  // the phase last counted: a new one shows its first count at once
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace clawport::cli
