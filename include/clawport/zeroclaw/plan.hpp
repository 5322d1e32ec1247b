// SPDX-License-Identifier: MIT
// The export plan: everything the pure half (closure, scrub, drops, risk flags) decides,
// handed to the exporter, which copies, then reports what did not arrive
// (record_missing_identity_document, record_missing_skill_content) and renders.
#pragma once

#include "../bundle/layout.hpp"  // the bundle layout: bundle::

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "../core/paths.hpp"
#include "../core/text.hpp"
#include "../core/version.hpp"
#include "document.hpp"
#include "install_layout.hpp"
#include "reasons.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

// ---- the bundle layout, named here too (defined once: bundle/layout.hpp) ----
inline constexpr std::string_view manifest_file = bundle::manifest_file;
inline constexpr std::string_view digest_list_file = bundle::digest_list_file;
inline constexpr std::string_view config_file = bundle::config_file;
inline constexpr std::string_view workspace_dir = bundle::workspace_dir;
inline constexpr std::string_view skills_dir = bundle::skills_dir;
inline constexpr std::string_view workspace_memory_dir = "memory";
inline constexpr std::string_view memory_snapshot_file = "MEMORY_SNAPSHOT.md";

/// One entry of the manifest's `dropped` list.
struct dropped_item {
  std::string path;  ///< dotted config path (`fallback[0]` style index) or bundle path
  drop_reason reason;
  std::string detail;
  friend bool operator==(const dropped_item& a, const dropped_item& b) {
    return a.path == b.path && a.reason == b.reason && a.detail == b.detail;
  }
};

/// One entry of the manifest's `risk_flags` list.
struct risk_flag {
  risk_kind kind;
  std::string path;
  std::string detail;
};

/// A host-local setting that travels (clawport's report only; see reasons.hpp).
struct host_local_note {
  note_kind kind;
  std::string path;  ///< dotted config path in the closure
  std::string detail;
};

/// A planned skill-bundle copy: content of `<install>/<relative>/<skill>/...` goes to
/// `skills/<alias>/<skill>/...` for each top-level skill directory the filter admits.
struct skill_source {
  std::string alias;     ///< a portable name (names grammar), the directory under skills/
  std::string relative;  ///< install-relative, '/'-separated, always under `shared/`
  skill_filter filter;
};

/// Where the agent's workspace is read from.
struct workspace_source {
  /// false: `path` is `agents/<alias>/workspace`, relative to the install root (open it
  /// anchored, docs/library.md, Exporting). true: `workspace.path` was configured; `path` is that
  /// value as written (exempt from the ancestor walk).
  bool configured = false;
  std::string path;
};

/// Caller-supplied context for planning. Nothing here is read from the environment.
struct plan_options {
  /// The install root (the directory holding config.toml), used to decide whether an
  /// absolute skill-bundle directory lies inside this install's `shared/`. "." when the
  /// config has no parent, as upstream does.
  std::string install_root = ".";
  /// How parse errors name the config text: its real path (`/home/me/.zeroclaw/config.toml:3:7:
  /// ...`); "config.toml" when the caller does not say.
  std::string config_name = std::string(install_config_name);
  /// Written as `provenance.zeroclaw_version` (this tool is not ZeroClaw, so by default it
  /// names itself: "clawport <version>").
  std::string producer_version = "clawport " + std::string(version_string);
  /// Secret fields an import left blank (its ledger, secret_ledger.hpp): each one still
  /// blank in the closure is listed in `required_secrets` as a scrubbed one is.
  std::set<std::string> blank_required;
};

/// The result of `plan_export` (docs/format.md).
struct export_plan {
  std::string root_alias;
  /// The scrubbed, pruned config closure, in render order (starts with schema_version).
  value closure = value::make_table();
  std::vector<std::string> required_secrets;  ///< sorted by bytes, unique
  std::vector<dropped_item> dropped;          ///< in recording order (docs/format.md)
  std::vector<risk_flag> risk_flags;          ///< in collection order (docs/format.md)
  workspace_source workspace;
  std::optional<std::string> identity_document;  ///< workspace-relative, '/'-separated
  std::vector<skill_source> skill_sources;       ///< planned copies, in skill_bundles order
  std::vector<host_local_note> host_local;       ///< report-only notes
  std::string producer_version;
  /// The memory backend the config selects for the agent and where (`markdown`
  /// (agents.a.memory.backend)), for the private_data drops; empty when it cannot tell.
  std::string memory_backend;
  /// The backend's name as configured (`sqlite`, `sqlite.<alias>`, `markdown`, …; the agent's
  /// own, else `[memory] backend`; empty: the default, sqlite), for `--with-memory`.
  std::string memory_backend_name;
  /// `[memory.policy] redact_categories` of the install: categories whose rows never travel
  /// with `--with-memory` (memory/jsonl.hpp adds ZeroClaw's credential categories).
  std::vector<std::string> memory_redact_categories;
};

/// `dedup`: trims each element (Rust `str::trim`, Unicode White_Space, as the skills
/// reader does), removes empty ones, keeps first occurrences in order.
inline std::vector<std::string> dedup(const std::vector<std::string>& list) {
  std::vector<std::string> out;
  for (const std::string& raw : list) {
    const std::string_view trimmed = text::trim(raw);
    if (trimmed.empty()) continue;
    std::string item(trimmed);
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(std::move(item));
  }
  return out;
}

// workspace_entry_included (docs/library.md, Exporting) is part of the install layout
// (install_layout.hpp).

/// Row 17 of docs/format.md: the kept identity document is not a regular file in the staged
/// workspace. Removes `aieos_path` from the closure and records the drop. No-op when
/// no identity document was kept.
inline void record_missing_identity_document(export_plan& plan) {
  if (!plan.identity_document) return;
  const std::string relative = *plan.identity_document;
  plan.identity_document.reset();
  if (value* agents = plan.closure.find("agents"))
    if (value* agent = agents->find(plan.root_alias))
      if (value* identity = agent->find("identity")) {
        identity->erase("aieos_path");
        if (identity->members.empty()) agent->erase("identity");
      }
  plan.dropped.push_back(
      {"agents." + plan.root_alias + ".identity.aieos_path", drop_reason::source_missing,
       "the AIEOS identity document `" + relative +
           "` is not in the exported workspace, so the reference is dropped rather than "
           "shipped pointing at nothing"});
}

/// Row 18 of docs/format.md: each alias carried no skill content. Removes its planned source and
/// its `carried_skills` flag and records `skills/<alias>` as source_missing, in the
/// order given. The config entry still travels.
inline void record_missing_skill_content(export_plan& plan,
                                         const std::vector<std::string>& aliases) {
  for (const std::string& alias : aliases) {
    plan.skill_sources.erase(
        std::remove_if(plan.skill_sources.begin(), plan.skill_sources.end(),
                       [&](const skill_source& s) { return s.alias == alias; }),
        plan.skill_sources.end());
    const std::string flag_path = "skill_bundles." + alias;
    plan.risk_flags.erase(std::remove_if(plan.risk_flags.begin(), plan.risk_flags.end(),
                                         [&](const risk_flag& f) {
                                           return f.kind == risk_kind::carried_skills &&
                                                  f.path == flag_path;
                                         }),
                          plan.risk_flags.end());
    plan.dropped.push_back(
        {"skills/" + alias, drop_reason::source_missing,
         "the skill bundle carried no skills from the exporting host: its directory is "
         "absent, or holds nothing the bundle admits. Its config travels, so install the "
         "skills on the target, or re-export from a host that has them"});
  }
}

/// Issue 22 item 3: an entry the copy skipped because a bundle cannot carry its name (not
/// UTF-8, or a control character: bundle::carries_name, verify's `name_invalid`). Listed under
/// its bundle path escaped as the terminal renderer escapes (`caf\xe9.md`), so the manifest
/// stays valid UTF-8 and a newline cannot forge a line of any report.
inline void record_unportable_name(export_plan& plan, std::string_view bundle_path) {
  plan.dropped.push_back(
      {text::escape_for_terminal(bundle_path), drop_reason::unportable_name,
       "the name is not valid UTF-8 or holds a control character, so a bundle cannot carry it "
       "(verify would refuse it as name_invalid); it was skipped, as a symlink is. Rename it "
       "and export again to carry it"});
}

/// Issue 22 item 10: the workspace's own skill directory (`<workspace>/skills/`). The runtime
/// loads the skills there before the shared ones, so a bundle carrying it installs skills.
inline constexpr std::string_view workspace_skills_dir = "skills";

/// Whether a workspace-relative path lies in the workspace's skill directory.
inline bool is_workspace_skill_path(std::string_view workspace_relative) noexcept {
  return workspace_relative.size() > workspace_skills_dir.size() &&
         workspace_relative.substr(0, workspace_skills_dir.size()) == workspace_skills_dir &&
         workspace_relative[workspace_skills_dir.size()] == '/';
}

/// The risk flag of a bundle whose `workspace/skills/` carries files: the one definition the
/// exporter writes, verify derives from the bundle's files (the manifest is not trusted to
/// say it) and the import plan shows.
inline risk_flag workspace_skills_flag() {
  return {risk_kind::carried_workspace_skills, paths::join(workspace_dir, workspace_skills_dir),
          "the workspace carries its own skills directory; the agent loads these skills before "
          "the shared ones, and skills are instructions it reads and act as code it may run"};
}

/// Issue 30: a workspace entry the workspace filter kept home (bundle::private_workspace_entry)
/// and the plan does not already list (the store and the snapshot always are, as upstream).
/// Recorded as `private_data`, naming the memory backend the config selects when it can tell.
inline void record_private_entry(export_plan& plan, bundle::private_kind kind,
                                 std::string_view relative) {
  std::string detail(bundle::private_reason(kind));
  if (kind == bundle::private_kind::memory_file && !plan.memory_backend.empty())
    detail += "; this agent's config selects the " + plan.memory_backend + " memory backend";
  plan.dropped.push_back({paths::join(workspace_dir, text::escape_for_terminal(relative)),
                          drop_reason::private_data, std::move(detail)});
}

/// The export's workspace filter: whether the copy carries `relative`; a private entry that the
/// plan does not list yet (a MEMORY.md or USER.md, in any case) is recorded as it is left out.
inline bool filter_workspace_entry(export_plan& plan, std::string_view relative) {
  const auto kind = bundle::private_workspace_entry(relative);
  if (!kind) return true;
  if (*kind == bundle::private_kind::memory_file || *kind == bundle::private_kind::user_profile)
    record_private_entry(plan, *kind, relative);
  return false;
}

/// The manifest's `skill_bundles`: the aliases whose content is planned (after
/// record_missing_skill_content, the ones that really arrived), in plan order.
inline std::vector<std::string> manifest_skill_bundles(const export_plan& plan) {
  std::vector<std::string> out;
  for (const skill_source& s : plan.skill_sources) out.push_back(s.alias);
  return out;
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
