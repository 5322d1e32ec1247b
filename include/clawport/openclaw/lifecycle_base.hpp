// SPDX-License-Identifier: MIT
// What every OpenClaw apply shares (docs/openclaw.md, "Lifecycle"): the consent it was
// given and the refusal when that is not enough, the one listing of a workspace tree, and
// the lines a plan's text gives its blockers and actions.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "../fs/walk.hpp"
#include "../plan/consent.hpp"
#include "failure.hpp"
#include "value.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// What the caller consented to: `--yes` and `--plan-integrity` (plan/consent.hpp).
using consent = clawport::plan::consent;

namespace detail {

/// Sets `out.failed` to the consent refusal `r`, when there is one: true when the apply
/// stops there (every apply checks consent twice: given, then the integrity).
template <class Outcome>
bool refused(Outcome& out, const char* schema, const std::optional<clawport::plan::refusal>& r,
             const clawport::plan::subject& s) {
  if (!r) return false;
  out.failed = refusal_of(schema, *r, s);
  return true;
}

/// Every regular (or other non-directory) entry below `d`, `/`-separated and sorted (each
/// directory's names in byte order, depth first), without following links: the one walk
/// (fs/walk.hpp). A directory nested deeper than `depth` below `d` is errc::limit_exceeded
/// naming it (relative to `d`), never left out of the listing.
template <class Fs>
void list_tree(Fs& fs, const typename Fs::dir& d, const std::string& prefix,
               std::vector<std::string>& out, int depth) {
  struct lister : fs::walk_visitor {
    lister(Fs& f, std::vector<std::string>& o) : fs(f), out(o) {}
    Fs& fs;
    std::vector<std::string>& out;
    bool visit(const typename Fs::dir&, std::string_view, const std::string& rel,
               const fs::stat_info& st) {
      if (st.kind == fs::file_kind::directory) return true;
      out.push_back(rel);
      return false;
    }
    std::optional<typename Fs::dir> enter(const typename Fs::dir& parent, std::string_view name,
                                          const std::string&, const fs::stat_info&) {
      return fs.open_dir_at(parent, name);
    }
    error too_deep(const std::string& rel, std::size_t max) const {
      return error(errc::limit_exceeded,
                   rel + " is nested deeper than " + std::to_string(max) +
                       " directories; clawport lists no deeper, and refuses rather than leave "
                       "its files out",
                   rel);
    }
  } v(fs, out);
  fs::walk_options opt;
  opt.max_depth = depth < 0 ? 0 : static_cast<std::size_t>(depth);
  fs::walk(fs, d, v, opt, prefix);
}

}  // namespace detail

namespace detail {

/// `  ERROR <code>: <message>`: the one line of a blocker in a plan's text.
inline std::string blocker_line(std::string_view code, const std::string& message) {
  return "  ERROR " + std::string(code) + ": " + message;
}
/// The line of each blocker of a plan.
/// The lines of typed blockers (plan_blocker or diagnostic: an errc `code` and a message).
template <class Blocker>
void blocker_lines(text::terminal_lines& line, const std::vector<Blocker>& blockers) {
  for (const auto& b : blockers) line(blocker_line(to_string(b.code), b.message));
}

}  // namespace detail

namespace detail {

/// `<verb> <kind> <id>` of a plan action, as the human plans and results show it.
template <class Action>
std::string action_words(const Action& a) {
  return std::string(to_string(a.verb)) + " " + std::string(to_string(a.kind)) + " " + a.id;
}

}  // namespace detail

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
