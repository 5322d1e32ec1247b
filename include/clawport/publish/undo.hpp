// SPDX-License-Identifier: MIT
// The one undo journal of a multi-step apply (import, claw add/update/remove): each step
// that changed the user's tree records how to undo it (restore the config from its backup,
// restore the ledger, remove a published directory, remove a directory made on the way),
// and a failure runs the records newest first, so every apply undoes in the reverse of the
// order it did.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"

#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// Undo steps of one apply. `commit()` on success; otherwise `run()` (or the destructor)
/// undoes, newest first.
class undo_journal {
 public:
  undo_journal() = default;
  undo_journal(const undo_journal&) = delete;
  undo_journal& operator=(const undo_journal&) = delete;
  /// Undoes what is still recorded (best effort) unless committed or already run.
  ~undo_journal() { (void)run(); }

  /// Records how to undo the step just done; `what` names it in run()'s report.
  void add(std::string what, std::function<void()> undo) {
    steps_.push_back({std::move(what), std::move(undo)});
  }

  /// The apply succeeded: forget every step.
  void commit() noexcept { steps_.clear(); }

  /// Number of steps recorded.
  std::size_t size() const noexcept { return steps_.size(); }

  /// Runs every recorded step once, newest first; a step that fails does not stop the
  /// others. Returns what could not be undone, one "<what>: <why>" each, oldest-run first.
  std::vector<std::string> run() noexcept {
    std::vector<std::string> left;
    std::vector<step> todo;
    todo.swap(steps_);
    for (auto it = todo.rbegin(); it != todo.rend(); ++it) {
      try {
        it->undo();
      } catch (const std::exception& e) {
        note(left, it->what, e.what());
      } catch (...) {  // a simulated crash, or worse: nothing later can undo either
        note(left, it->what, "interrupted");
      }
    }
    return left;
  }

 private:
  struct step {
    std::string what;
    std::function<void()> undo;
  };
  std::vector<step> steps_;

  static void note(std::vector<std::string>& left, const std::string& what,
                   const char* why) noexcept {
    try {
      left.push_back(what + ": " + why);
    } catch (...) {
    }
  }
};

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
