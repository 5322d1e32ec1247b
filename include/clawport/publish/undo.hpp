// SPDX-License-Identifier: MIT
// The one undo journal of a multi-step apply (import, claw add/update/remove, skills
// remove/restore): each step that changed the user's tree records how to undo it (restore
// the config from its backup, restore the ledger, remove a published directory, move a
// renamed tree back), and a failure runs the records newest first, so every apply undoes
// in the reverse of the order it did.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "rename.hpp"

#include <exception>
#include <functional>
#include <string>
#include <string_view>
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

  /// Runs the steps (as run()) and returns what could not be undone as a message's tail,
  /// "; <what>: <why>" each ("" when everything was undone).
  std::string run_tail() noexcept {
    std::string tail;
    try {
      for (const std::string& left : run()) tail += "; " + left;
    } catch (...) {
    }
    return tail;
  }

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

/// The undo step of a rename of `from` (in `from_dir`) to `to` (in `to_dir`): `to` back to
/// `from`, never replacing (publish::rename_noreplace); a taken `from` is errc::io naming
/// it. The directories must outlive the journal.
template <class Fs>
std::function<void()> rename_back(Fs& fs, const typename Fs::dir& from_dir, std::string_view from,
                                  const typename Fs::dir& to_dir, std::string_view to) {
  return [&fs, &from_dir, &to_dir, from = std::string(from), to = std::string(to)] {
    if (!rename_noreplace(fs, to_dir, to, from_dir, from))
      throw error(errc::io, from + " is taken, so " + to + " could not be moved back", from);
  };
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
