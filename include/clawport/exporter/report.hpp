// SPDX-License-Identifier: MIT
// The terminal report (docs/cli.md, export): upstream's wording and order, then clawport's
// additions (host-local settings to review, how the bundle was published). And the `--json` shape.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/text.hpp"
#include "../formats/json.hpp"
#include "result.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

namespace report_detail {

/// Appends lines, each ending in '\n', through the one terminal-safe renderer
/// (core/text.hpp): a control character in a config value (a risk flag's command line), a
/// path or a name is shown escaped, never sent to the terminal.
using lines = ::clawport::text::terminal_lines;

inline std::string n(std::uint64_t v) { return std::to_string(v); }

/// The first line (what went where) and the skill-file line.
inline void headline(lines& line, const export_result& r) {
  if (r.dry_run) {
    line("dry run: would export agent `" + r.alias + "` to " + r.out + " (" + n(r.workspace.files) +
         " workspace file(s), " + n(r.workspace.bytes / 1024) +
         " KiB of them); nothing was written");
  } else {
    line("exported agent `" + r.alias + "` to " + r.out + " (" + n(r.workspace.files) +
         " workspace file(s), " + n(r.workspace.bytes / 1024) + " KiB of them)");
  }
  if (r.signed_bundle) {
    line("  signed: zeroclaw-agent.sha256.sig (ssh-keygen -Y, namespace clawport-bundle)");
  }
  if (r.skill_bundles > 0) {
    line("  " + n(r.skills.files) + " skill file(s) carried from " + n(r.skill_bundles) +
         " skill bundle(s)");
  }
  if (r.replaced_non_bundle) {
    line("  " + std::string(r.dry_run ? "would replace" : "replaced") + " " + r.out +
         ", which was not a bundle (it held no zeroclaw-agent.toml) \u2014 --force replaces "
         "any non-empty directory");
  }
}

/// What the copy skipped, in upstream's order.
inline void skipped(lines& line, const export_result& r) {
  const std::uint64_t replaced = r.workspace.replaced + r.skills.replaced;
  const std::uint64_t hard = r.workspace.hard_links + r.skills.hard_links;
  const std::uint64_t special = r.workspace.special + r.skills.special;
  const std::uint64_t links = r.workspace.symlinks + r.skills.symlinks;
  if (replaced > 0) {
    line("  " + n(replaced) +
         " entry/entries were replaced while the export ran and were skipped \u2014 the bundle "
         "carries the objects it inspected");
  }
  if (hard > 0) {
    line("  " + n(hard) +
         " hard-linked file(s) skipped \u2014 a second name for a file that may live anywhere "
         "on this host is not this workspace's content to carry");
  }
  if (special > 0) {
    line("  " + n(special) +
         " special file(s) skipped \u2014 sockets, FIFOs, and devices are host state, not "
         "content a bundle can carry");
  }
  if (links > 0) {
    line("  " + n(links) + " symlink(s) skipped \u2014 links are not followed into a bundle");
  }
  const std::uint64_t names = r.workspace.names + r.skills.names;
  if (names > 0) {
    line("  " + n(names) +
         " entry/entries skipped for their name \u2014 not UTF-8 or holding a control "
         "character, a bundle cannot carry it (each is listed under `dropped` as "
         "unportable_name)");
  }
}

/// Capability grants, scrubbed credentials, what was left behind.
inline void plan_sections(lines& line, const export_result& r) {
  const zeroclaw::export_plan& plan = r.plan;
  if (!plan.risk_flags.empty()) {
    line("");
    line("\u26a0\ufe0f  " + n(plan.risk_flags.size()) +
         " capability grant(s) an importing operator must accept:");
    for (const auto& f : plan.risk_flags) {
      line("  [" + std::string(zeroclaw::to_string(f.kind)) + "] " + f.path + " \u2014 " +
           f.detail);
    }
  }
  if (!plan.required_secrets.empty()) {
    line("");
    line("\U0001F511 " + n(plan.required_secrets.size()) +
         " credential(s) were scrubbed and must be supplied on import:");
    for (const auto& s : plan.required_secrets) line("  " + s);
  }
  // The memory store and snapshot are dropped in the manifest always (as upstream); said
  // here only when the workspace held them and its memory did not travel (--with-memory).
  std::vector<const zeroclaw::dropped_item*> shown;
  for (const auto& d : plan.dropped) {
    if (d.path == "workspace/memory" && (!r.had_memory_store || r.memory)) continue;
    if (d.path == "workspace/MEMORY_SNAPSHOT.md" && !r.had_memory_snapshot) continue;
    shown.push_back(&d);
  }
  if (!shown.empty()) {
    line("");
    line("\u2139\ufe0f  " + n(shown.size()) + " item(s) could not travel and were left behind:");
    for (const zeroclaw::dropped_item* dp : shown) {
      const zeroclaw::dropped_item& d = *dp;
      line("  " + d.path + " (" + std::string(zeroclaw::to_string(d.reason)) + ") \u2014 " +
           d.detail);
    }
  }
}

/// The scrubbing-scope warnings and the review hint.
inline void scope_warnings(lines& line, const export_result& r) {
  line("");
  line(
      "\u26a0\ufe0f  Scrubbing blanks the fields the schema marks secret. It is not credential "
      "detection: other config values travel as written, so a token in an MCP server's url, "
      "or a credential in its command or args, is carried and repeated in the manifest's "
      "risk flags.");
  const std::uint64_t carried = r.workspace.files + r.skills.files;
  if (carried > 0) {
    line("");
    line("\u26a0\ufe0f  " + n(carried) +
         " carried file(s) are copied as-is. Scrubbing covers config.toml only: workspace and "
         "skill content is never scanned for secrets, so a .env file, a token in a note, or a "
         "credential in a git remote will be contained in the export.");
  }
  line("");
  line(
      "Review config.toml, zeroclaw-agent.toml, and the files the bundle carries before "
      "sharing it.");
}

/// clawport's additions: host-local settings, how the bundle was published, warnings.
inline void additions(lines& line, const export_result& r) {
  const auto& plan = r.plan;
  if (!plan.host_local.empty()) {
    line("");
    line("\U0001F3E0 " + n(plan.host_local.size()) +
         " setting(s) travel and only mean something on this host; review them "
         "on the target:");
    for (const auto& h : plan.host_local) {
      line("  [" + std::string(zeroclaw::to_string(h.kind)) + "] " + h.path + " \u2014 " +
           h.detail);
    }
  }
  if (!r.dry_run) {
    line("");
    std::string how = "Published with " + r.publish.strategy + " (" + r.publish.guarantee;
    if (r.publish.guarantee == publish::guarantee::atomic) {
      how +=
          ": the destination always held either the complete old or the complete new "
          "bundle";
    } else if (r.publish.guarantee == publish::guarantee::recoverable) {
      how +=
          ": a crash while publishing leaves the previous bundle beside the destination; "
          "`clawport recover` restores it";
    }
    how += ")";
    if (r.publish.requested != r.publish.strategy) {
      how += "; " + r.publish.requested + " is not supported by this kernel or filesystem";
    }
    line(how + ".");
  }
  for (const auto& w : r.publish.warnings) line("\u26a0\ufe0f  " + w);
}

/// Why memory rows stayed home, for the report and the JSON.
inline std::string_view skip_name(memory::skip_reason r) noexcept {
  switch (r) {
    case memory::skip_reason::redacted_category:
      return "redacted_category";
    case memory::skip_reason::conversation:
      return "conversation";
    case memory::skip_reason::credential_shape:
      return "credential_shape";
    case memory::skip_reason::not_utf8:
      return "not_utf8";
    case memory::skip_reason::too_large:
      return "too_large";
  }
  return "unknown";
}

/// `--with-memory`: what travelled, what stayed home, and the privacy warning (loud).
inline void memory_section(lines& line, const export_result& r) {
  if (!r.memory) return;
  const memory::summary& m = *r.memory;
  std::string cats;
  for (const auto& [name, count] : m.categories)
    cats += (cats.empty() ? "" : ", ") + name + " " + n(count);
  line("⚠️  MEMORY TRAVELS: " + text::counted(m.entries, "memory", "memories") + " of `" +
       r.alias + "` " + (r.dry_run ? "would be" : "are") +
       " in memory/entries.jsonl (bundle format 2)" +
       (cats.empty() ? std::string() : " — " + cats));
  line(
      "  they may hold personal data: what the agent was told about people, places and "
      "accounts. Anyone who holds the bundle can read them; share it as you would the "
      "conversations themselves");
  for (const auto& [why, count] : m.skipped)
    line("  " + text::counted(count, "memory", "memories") + " left home (" +
         std::string(skip_name(why)) + ")");
  line(
      "  never carried: embeddings, session ids, conversation rows, other agents' rows; "
      "categories " +
      [&] {
        std::string c;
        for (const auto& name : m.redacted_categories) c += (c.empty() ? "" : ", ") + name;
        return c;
      }() +
      ". Credential detection is a pattern list: read memory/entries.jsonl before sharing");
  if (!m.embedding_model.empty())
    line("  the source embedded with " + m.embedding_model +
         "; run `zeroclaw memory reindex` on the target after the import");
}

}  // namespace report_detail

/// The human report of a successful export, every line ending in '\n': upstream's lines
/// in upstream's order, then clawport's additions.
inline std::string render_report(const export_result& r) {
  report_detail::lines line;
  report_detail::headline(line, r);
  report_detail::skipped(line, r);
  report_detail::plan_sections(line, r);
  report_detail::scope_warnings(line, r);
  report_detail::additions(line, r);
  report_detail::memory_section(line, r);
  return std::move(line.text);
}

/// The `--json` document of an export (docs/cli.md). A template (J is always nlohmann::json)
/// so that only a TU that renders it instantiates what it uses (issue 48).
template <class J = nlohmann::json>
J to_json(const export_result& r) {
  using json = J;
  json j;
  j["alias"] = r.alias;
  j["out"] = r.out;
  j["destination"] = r.destination;
  j["dry_run"] = r.dry_run;
  j["replaced_non_bundle"] = r.replaced_non_bundle;
  j["signed"] = r.signed_bundle;
  j["workspace"] = {{"files", r.workspace.files}, {"bytes", r.workspace.bytes}};
  j["skills"] = {{"files", r.skills.files}, {"bundles", r.skill_bundles}};
  j["skipped"] = {{"symlinks", r.workspace.symlinks + r.skills.symlinks},
                  {"hard_links", r.workspace.hard_links + r.skills.hard_links},
                  {"special", r.workspace.special + r.skills.special},
                  {"replaced", r.workspace.replaced + r.skills.replaced},
                  {"names", r.workspace.names + r.skills.names}};
  j["risk_flags"] = json::array();
  for (const auto& f : r.plan.risk_flags) {
    j["risk_flags"].push_back({{"kind", std::string(zeroclaw::to_string(f.kind))},
                               {"path", f.path},
                               {"detail", f.detail}});
  }
  j["required_secrets"] = r.plan.required_secrets;
  j["dropped"] = json::array();
  for (const auto& d : r.plan.dropped) {
    j["dropped"].push_back({{"path", d.path},
                            {"reason", std::string(zeroclaw::to_string(d.reason))},
                            {"detail", d.detail}});
  }
  j["host_local"] = json::array();
  for (const auto& h : r.plan.host_local) {
    j["host_local"].push_back({{"kind", std::string(zeroclaw::to_string(h.kind))},
                               {"path", h.path},
                               {"detail", h.detail}});
  }
  j["skill_bundles"] = zeroclaw::manifest_skill_bundles(r.plan);
  j["exported_at"] = r.exported_at;
  j["publish"] = {{"strategy", r.publish.strategy},
                  {"requested", r.publish.requested},
                  {"guarantee", r.publish.guarantee},
                  {"warnings", r.publish.warnings}};
  if (r.memory) {  // `--with-memory` only: without it the document is what it was
    json skipped = json::object();
    for (const auto& [why, count] : r.memory->skipped)
      skipped[std::string(report_detail::skip_name(why))] = count;
    j["memory"] = {{"entries", r.memory->entries},
                   {"categories", r.memory->categories},
                   {"left_home", skipped},
                   {"redacted_categories", r.memory->redacted_categories},
                   {"backend", r.memory->backend},
                   {"embedding_model", r.memory->embedding_model},
                   {"format_version", bundle::memory_format_version}};
  }
  return j;
}

/// The `--json` text of an export: never throws on a name or path that is not UTF-8 (see
/// formats/json.hpp for the encoding).
template <class J = nlohmann::json>
std::string render_json(const export_result& r) {
  return json::dump(to_json<J>(r));
}

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
