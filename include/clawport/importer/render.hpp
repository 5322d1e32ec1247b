// SPDX-License-Identifier: MIT
// The import plan as the operator reads it (text) and as `--json` prints it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "apply.hpp"
#include "plan.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

inline nlohmann::json to_json(const import_plan& p) {
  nlohmann::json j;
  j["bundle"] = p.bundle;
  j["config"] = p.config_path;
  j["source_alias"] = p.source_alias;
  j["alias"] = p.alias;
  j["manifest_sha256"] = "sha256:" + p.manifest_sha256;
  j["entries"] = nlohmann::json::array();
  for (const entry_change& e : p.entries)
    j["entries"].push_back(
        {{"kind", e.kind}, {"from", e.from}, {"to", e.to}, {"action", e.action}});
  j["placements"] = nlohmann::json::array();
  for (const placement& pl : p.placements)
    j["placements"].push_back({{"kind", pl.kind}, {"from", pl.from}, {"to", pl.to}});
  j["risk_flags"] = nlohmann::json::array();
  for (const verify::finding& f : p.risk_flags)
    j["risk_flags"].push_back({{"kind", f.code}, {"path", f.path}, {"detail", f.detail}});
  j["secrets"] = nlohmann::json::array();
  for (const std::string& s : p.secrets)
    j["secrets"].push_back({{"path", s}, {"command", "zeroclaw config set " + s}});
  j["warnings"] = nlohmann::json::array();
  for (const verify::finding& f : p.warnings)
    j["warnings"].push_back({{"code", f.code}, {"path", f.path}, {"detail", f.detail}});
  j["appended"] = p.appended;
  j["plan_integrity"] = p.plan_integrity;
  return j;
}

/// The plan in words, ending with the command that applies it.
inline std::string render_plan(const import_plan& p) {
  std::string out = "import plan for agent `" + p.source_alias + "` from " + p.bundle + " into " +
                    p.config_path + "\n";
  out += "  installed as: " + p.alias + "\n";
  for (const verify::finding& w : p.warnings) out += "  warning: " + w.detail + "\n";
  out += "\nentries:\n";
  for (const entry_change& e : p.entries) {
    out += "  " + e.action + " " + e.kind + " " + e.from;
    if (e.action == "rename" || e.action == "map") out += " -> " + e.to;
    if (e.action == "reuse") out += " (identical entry on the target)";
    out += "\n";
  }
  if (!p.placements.empty()) {
    out += "\nfiles placed (under " + p.install_root + "):\n";
    for (const placement& pl : p.placements) out += "  " + pl.from + "/ -> " + pl.to + "/\n";
  }
  if (!p.risk_flags.empty()) {
    out += "\n" + std::to_string(p.risk_flags.size()) + " capability grant(s) to accept:\n";
    for (const verify::finding& f : p.risk_flags)
      out += "  " + f.code + " " + f.path + ": " + f.detail + "\n";
  }
  if (!p.secrets.empty()) {
    out += "\n" + std::to_string(p.secrets.size()) + " credential(s) to supply after the import:\n";
    for (const std::string& s : p.secrets) out += "  zeroclaw config set " + s + "\n";
  }
  out += "\nplan_integrity: " + p.plan_integrity + "\n";
  return out;
}

inline nlohmann::json to_json(const import_result& r) {
  nlohmann::json j = to_json(r.plan);
  j["applied"] = true;
  j["backup"] = r.backup;
  j["files"] = r.copied.files;
  j["bytes"] = r.copied.bytes;
  j["secrets_ledger"] = r.ledger;
  if (!r.ledger_problem.empty()) j["secrets_ledger_problem"] = r.ledger_problem;
  j["recovered"] = r.recovered;
  return j;
}

inline std::string render_result(const import_result& r) {
  std::string out = "imported agent `" + r.plan.source_alias + "` as `" + r.plan.alias + "` into " +
                    r.plan.config_path + " (" + std::to_string(r.copied.files) + " file(s))\n";
  if (!r.backup.empty()) out += "  previous config kept as " + r.backup + "\n";
  for (const std::string& left : r.recovered)
    out += "  removed " + left + ", left by an earlier run of this plan that was killed\n";
  if (!r.plan.secrets.empty()) {
    out += "  supply the credentials:\n";
    for (const std::string& s : r.plan.secrets) out += "    zeroclaw config set " + s + "\n";
  }
  if (!r.ledger.empty()) out += "  required secrets recorded in " + r.ledger + "\n";
  if (!r.ledger_problem.empty())
    out += "  warning: the required secrets were not recorded (" + r.ledger_problem + ")\n";
  return out;
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
