// SPDX-License-Identifier: MIT
// SIGINT/SIGTERM during a command: the handler only records the signal; the library polls
// it through the cancellation callback the command passes in its options, unwinds (removing
// its staging tree, or moving the previous bundle back) and the tool exits 128+signal
// (130, 143). The one piece of process-wide state lives here, in the tool, not the library.
#pragma once

#include <csignal>

namespace clawport::cli {

/// The signal received while an interrupt_scope was active (0: none).
inline volatile std::sig_atomic_t& interrupt_slot() noexcept {
  static volatile std::sig_atomic_t received = 0;
  return received;
}
inline int interrupt_signal() noexcept { return static_cast<int>(interrupt_slot()); }
inline bool interrupted() noexcept { return interrupt_slot() != 0; }

extern "C" inline void clawport_cli_on_signal(int sig) { interrupt_slot() = sig; }

/// Installs the recording handler for SIGINT and SIGTERM for its lifetime (SA_RESTART, so
/// system calls in flight finish), restoring the previous dispositions afterwards.
class interrupt_scope {
 public:
  interrupt_scope() noexcept {
    struct sigaction sa {};
    sa.sa_handler = clawport_cli_on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    // A signal the tool was started with ignored (nohup, a background job of a script)
    // stays ignored, as the shell intended.
    sigaction(SIGINT, nullptr, &old_int_);
    sigaction(SIGTERM, nullptr, &old_term_);
    if (old_int_.sa_handler != SIG_IGN) sigaction(SIGINT, &sa, nullptr);
    if (old_term_.sa_handler != SIG_IGN) sigaction(SIGTERM, &sa, nullptr);
  }
  ~interrupt_scope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  interrupt_scope(const interrupt_scope&) = delete;
  interrupt_scope& operator=(const interrupt_scope&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace clawport::cli
