// SPDX-License-Identifier: MIT
// The import plan as the operator reads it (text) and as `--json` prints it.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "../core/text.hpp"
#include "../digest/sha256.hpp"
#include "../formats/json.hpp"
#include "apply.hpp"
#include "plan.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

template <class J = nlohmann::json>  // always; instantiated where rendered (issue 48)
J to_json(const import_plan& p) {
  J j;
  j["bundle"] = p.bundle;
  j["config"] = p.config_path;
  j["source_alias"] = p.source_alias;
  j["alias"] = p.alias;
  j["manifest_sha256"] = digest::prefixed(p.manifest_sha256);
  j["signed_by"] = json::text_or_null<J>(p.signed_by);
  j["entries"] = J::array();
  for (const entry_change& e : p.entries) {
    J item = {{"kind", e.kind}, {"from", e.from}, {"to", e.to}, {"action", e.action}};
    if (!e.reason.empty()) item["reason"] = e.reason;
    j["entries"].push_back(std::move(item));
  }
  j["placements"] = J::array();
  for (const placement& pl : p.placements)
    j["placements"].push_back({{"kind", pl.kind}, {"from", pl.from}, {"to", pl.to}});
  j["risk_flags"] = J::array();
  for (const verify::finding& f : p.risk_flags)
    j["risk_flags"].push_back({{"kind", f.code}, {"path", f.path}, {"detail", f.detail}});
  j["secrets"] = J::array();
  for (const std::string& s : p.secrets)
    j["secrets"].push_back(
        {{"path", s}, {"command", detail::supply_command(s, p.config_path).str()}});
  j["warnings"] = J::array();
  for (const verify::finding& f : p.warnings)
    j["warnings"].push_back({{"code", f.code}, {"path", f.path}, {"detail", f.detail}});
  j["todo"] = J::array();
  for (const todo_item& t : p.todo) {
    J item = {{"group", t.group}, {"kind", t.kind}, {"path", t.path}, {"detail", t.detail}};
    if (!t.command.empty()) item["command"] = t.command.str();
    j["todo"].push_back(std::move(item));
  }
  j["map_options"] = J::array();
  for (const map_option& m : p.map_options)
    j["map_options"].push_back({{"kind", m.kind}, {"from", m.from}, {"local", m.local}});
  if (p.memory)  // --with-memory only: a plan without it is the document it was
    j["memory"] = {{"store", p.memory->store},
                   {"create", p.memory->create},
                   {"entries", p.memory->entries},
                   {"categories", p.memory->categories},
                   {"embedding_model", p.memory->embedding_model},
                   {"markdown", detail::markdown_digests(p.memory->markdown)}};
  j["appended"] = p.appended;
  j["plan_integrity"] = p.plan_integrity;
  return j;
}

/// The to-do list by group: secrets (with the command), settings to review, what to
/// re-create; a group with nothing in it is not shown.
inline void render_todo(text::terminal_lines& line, const std::vector<todo_item>& todo) {
  static constexpr std::pair<const char*, const char*> groups[] = {
      {"secret",
       " credential(s) to supply after the import (or `zeroclaw config set <path>` there):"},
      {"review", " host-local setting(s) travelled; review them on this host:"},
      {"memory", " step(s) for the memory merged into this install's store:"},
      {"recreate", " item(s) were left behind on the source; re-create them here if wanted:"}};
  for (const auto& [group, heading] : groups) {
    std::size_t n = 0;
    for (const todo_item& t : todo) n += t.group == group ? 1 : 0;
    if (n == 0) continue;
    line("");
    line(std::to_string(n) + heading);
    for (const todo_item& t : todo) {
      if (t.group != group) continue;
      if (!t.command.empty()) {
        // The command alone on its line, so the whole line can be pasted (issue 41 item 1).
        line("  ", t.command);
        if (t.kind != "required_secret") line("    (" + t.detail + ")");
      } else
        line("  [" + t.kind + "] " + t.path + " \u2014 " + t.detail);
    }
  }
}

/// The plan in words, every line through the one terminal-safe renderer (core/text.hpp):
/// a control sequence in a bundle string (an MCP `args` entry, a path) is shown escaped and
/// can never erase or repaint the capability-grant lines the operator approves.
inline std::string render_plan(const import_plan& p) {
  text::terminal_lines line;
  line("import plan for agent `" + p.source_alias + "` from " + p.bundle + " into " +
       p.config_path);
  line("  installed as: " + p.alias);
  if (!p.signed_by.empty()) line("  signed by: " + p.signed_by + " (an allowed signer)");
  for (const verify::finding& w : p.warnings) line("  warning: " + w.detail);
  line("");
  line("entries:");
  for (const entry_change& e : p.entries) {
    std::string l = "  " + e.action + " " + e.kind + " " + e.from;
    if (e.action == "rename" || e.action == "map") l += " -> " + e.to;
    if (!e.reason.empty()) l += ": " + e.reason;
    if (e.action == "reuse") l += " (identical entry on the target)";
    line(l);
  }
  if (!p.map_options.empty()) {
    line("");
    line("the target's own could serve instead (plan again with one --map per choice):");
    for (const map_option& m : p.map_options) {
      std::string locals;
      for (const std::string& l : m.local) locals += (locals.empty() ? "" : ", ") + l;
      line("  " + m.kind + " " + m.from + ": --map " + m.kind + "." + m.from +
           "=<one of: " + locals + ">");
    }
  }
  if (!p.placements.empty()) {
    line("");
    line("files placed (under " + p.install_root + "):");
    for (const placement& pl : p.placements) line("  " + pl.from + "/ -> " + pl.to + "/");
  }
  if (!p.risk_flags.empty()) {
    line("");
    line(std::to_string(p.risk_flags.size()) + " capability grant(s) to accept:");
    for (const verify::finding& f : p.risk_flags)
      line("  " + f.code + " " + f.path + ": " + f.detail);
  }
  if (p.memory) {
    std::string cats;
    for (const auto& [name, n] : p.memory->categories)
      cats += (cats.empty() ? " (" : ", ") + name + " " + std::to_string(n);
    line("");
    if (!p.memory->markdown.empty()) {
      line("memory written (--with-memory) as the Markdown backend's files of " +
           zeroclaw::default_workspace(p.alias) + "/, created with it:");
      for (const auto& f : p.memory->markdown) line("  " + f.first);
    } else {
      line("memory merged (--with-memory) into " + p.memory->store +
           (p.memory->create ? " (created with the runtime's schema)" : "") + ":");
    }
    line("  " + std::to_string(p.memory->entries) + " memories for `" + p.alias + "`" +
         (cats.empty() ? "" : cats + ")") +
         (p.memory->markdown.empty()
              ? " in one transaction, embeddings left out; no other agent's rows are touched"
              : ", one `- **key**: content` line each"));
  }
  render_todo(line, p.todo);
  line("");
  line("plan_integrity: " + p.plan_integrity);
  return std::move(line.text);
}

template <class J = nlohmann::json>  // always; instantiated where rendered (issue 48)
J to_json(const import_result& r) {
  J j = to_json(r.plan);
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
  text::terminal_lines line;
  line("imported agent `" + r.plan.source_alias + "` as `" + r.plan.alias + "` into " +
       r.plan.config_path + " (" + std::to_string(r.copied.files) + " file(s))");
  if (!r.backup.empty()) line("  previous config kept as " + r.backup);
  if (r.plan.memory && !r.plan.memory->markdown.empty())
    line("  wrote " + std::to_string(r.plan.memory->entries) +
         " memories as the Markdown backend's files of the new workspace");
  else if (r.plan.memory)
    line("  merged " + std::to_string(r.plan.memory->entries) + " memories into " +
         r.plan.memory->store);
  for (const std::string& left : r.recovered)
    line("  removed " + left + ", left by an earlier run of this plan that was killed");
  render_todo(line, r.plan.todo);
  if (!r.ledger.empty()) line("  required secrets recorded in " + r.ledger);
  if (!r.ledger_problem.empty())
    line("  warning: the required secrets were not recorded (" + r.ledger_problem + ")");
  return std::move(line.text);
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
