// SPDX-License-Identifier: MIT
// What `clawport skills list|audit` show, as the library builds it: the view selected by
// `--agent`/`--bundle`, install-relative display paths, and the two `--json` documents
// (written with formats/json.hpp, so a skill or file name that is not UTF-8 never fails).
#pragma once

#include "../core/error.hpp"
#include "../formats/json.hpp"
#include "audit.hpp"
#include "loader.hpp"
#include "locations.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// Which skills to show: `agent` alone = what it loads (and why the rest not); `bundle`
/// alone = the bundle's directory unfiltered; both = the agent's rows of that bundle;
/// neither = every configured bundle and the global directory.
struct list_request {
  std::string agent;
  std::string bundle;
};

/// The view `request` selects. Throws errc::not_found for an unknown agent or bundle.
template <class Fs>
skill_view list_skills(Fs& fs, const skills_config& cfg, const install_paths& where,
                       const list_request& request) {
  if (request.agent.empty()) {
    return request.bundle.empty() ? all_skills(fs, cfg, where)
                                  : bundle_skills(fs, cfg, where, request.bundle);
  }
  skill_view view = agent_skills(fs, cfg, where, request.agent);
  if (!request.bundle.empty()) {
    if (!cfg.bundles.count(request.bundle)) {
      (void)resolve_directory(cfg, where.install_root, request.bundle);  // the not-found refusal
    }
    view.entries.erase(
        std::remove_if(view.entries.begin(), view.entries.end(),
                       [&](const skill_entry& e) { return e.bundle != request.bundle; }),
        view.entries.end());
  }
  return view;
}

/// `path` relative to the install when it lies inside it, else as it is.
inline std::string shown_path(const std::string& path, const std::string& install) {
  const std::string p = paths::normalize(path);
  const std::string root = paths::normalize(install);
  if (p != root && paths::starts_with(p, root)) return p.substr(root == "/" ? 1 : root.size() + 1);
  return path;
}

/// "workspace", "global" or "bundle <alias>".
inline std::string source_of(const skill_entry& e) {
  return e.origin == skill_origin::bundle ? "bundle " + e.bundle : std::string(to_string(e.origin));
}

/// The `skills list --json` document: {"skills": [{name, bundle, origin, path, loaded,
/// reason}], "warnings": [...]}.
inline nlohmann::ordered_json to_json(const skill_view& view, const std::string& install) {
  using oj = nlohmann::ordered_json;
  oj skills = oj::array();
  for (const skill_entry& e : view.entries) {
    oj row;
    row["name"] = e.name;
    row["bundle"] = json::text_or_null(e.bundle);
    row["origin"] = std::string(to_string(e.origin));
    row["path"] = shown_path(e.path, install);
    row["loaded"] = e.loaded();
    row["reason"] = e.loaded() ? oj() : oj(e.reason);
    skills.push_back(std::move(row));
  }
  oj doc;
  doc["skills"] = std::move(skills);
  doc["warnings"] = view.warnings;
  return doc;
}

/// One row of the `skills audit --json` document.
inline nlohmann::ordered_json audit_row(const std::string& skill, const std::string& file,
                                        std::optional<std::size_t> line, const std::string& reason,
                                        bool blocking) {
  using oj = nlohmann::ordered_json;
  oj f;
  f["skill"] = skill;
  f["file"] = json::text_or_null(file);
  f["line"] = line ? oj(*line) : oj();
  f["reason"] = reason;
  f["blocking"] = blocking;
  return f;
}

/// The audit of one directory given as `skill`: its report, or the error that made it
/// unauditable (one blocking finding on the skill root).
struct audit_outcome {
  std::string skill;
  std::optional<audit_report> report;
  std::optional<error> failure;
};

/// The `skills audit --json` document: {"findings": [{skill, file, line, reason, blocking}]}.
inline nlohmann::ordered_json to_json(const std::vector<audit_outcome>& outcomes) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const audit_outcome& o : outcomes) {
    if (o.failure)
      findings.push_back(audit_row(o.skill, "", std::nullopt, o.failure->what(), true));
    if (!o.report) continue;
    for (const audit_finding& f : o.report->findings) {
      findings.push_back(audit_row(o.skill, f.file, f.line, f.reason, f.blocking));
    }
  }
  nlohmann::ordered_json doc;
  doc["findings"] = std::move(findings);
  return doc;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
