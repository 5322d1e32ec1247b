// SPDX-License-Identifier: MIT
// The human reports of `skills new|install|remove|restore|bundle add|list|remove` (their
// JSON documents are lifecycle_json.hpp's), each line through the one terminal-safe
// renderer: skill names, paths and archive names are not the user's words. The CLI prints
// them as they are.
#pragma once

#include <string>
#include <vector>

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "bundle_add.hpp"
#include "bundles.hpp"
#include "install.hpp"
#include "remove.hpp"
#include "restore.hpp"
#include "scaffold.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// `skills new`: the skill scaffolded and what was created.
inline std::string render_text(const scaffold_result& r, const text::marks& m = {}) {
  text::terminal_lines line;
  line("  " + std::string(m.ok) + " Scaffolded skill '" + r.ref.display() + "' at " + r.directory);
  for (const auto& c : r.created) line("    " + c);
  return std::move(line.text);
}

/// `skills install`: installed or upgraded, and where the previous version went.
inline std::string render_text(const install_result& r, const text::marks& m = {}) {
  text::terminal_lines line;
  line("  " + std::string(m.ok) + " Skill " + (r.upgraded ? "upgraded" : "installed") +
       " and audited: " + r.directory + " (" + text::counted(r.files_scanned, "file", "files") +
       " scanned)");
  if (r.upgraded) {
    line("    previous version " + (r.archived_to.empty()
                                        ? std::string("deleted (global directory)")
                                        : "archived at " + r.archived_to));
  }
  return std::move(line.text);
}

/// `skills remove`: archived (where) or deleted.
inline std::string render_text(const remove_result& r, const text::marks& m = {}) {
  text::terminal_lines line;
  if (!r.archived_to.empty()) {
    line("  " + std::string(m.ok) + " Skill '" + r.name + "' removed from bundle '" + r.bundle +
         "' and archived at " + r.archived_to);
  } else {
    line("  " + std::string(m.ok) + " Skill '" + r.name + "' deleted from " + r.directory);
  }
  return std::move(line.text);
}

/// `skills restore`: where the skill is back, from which archive, the older ones kept.
inline std::string render_text(const restore_result& r, const text::marks& m = {}) {
  text::terminal_lines line;
  line("  " + std::string(m.ok) + " Skill '" + r.name + "' restored into bundle '" + r.bundle +
       "' at " + r.directory);
  line("    from " + r.restored_from);
  if (!r.other_archives.empty()) {
    std::string kept = "    " + std::to_string(r.other_archives.size()) + " older archive(s) kept:";
    for (const auto& a : r.other_archives) kept += " " + a;
    line(kept);
  }
  return std::move(line.text);
}

/// `skills bundle add`: created (and the config's backup), or already there.
inline std::string render_text(const bundle_add_result& r, const text::marks& m = {}) {
  text::terminal_lines line;
  if (!r.created) {
    line("skill bundle '" + r.alias + "' already exists (no change)");
    return std::move(line.text);
  }
  line("  " + std::string(m.ok) + " created skill_bundles." + r.alias + " (dir: " + r.directory +
       ")");
  line("    previous config saved as " + r.backup);
  return std::move(line.text);
}

/// `skills bundle list`: each bundle of the config at `config_path`, its skills and agents.
inline std::string render_text(const std::vector<bundle_entry>& bundles,
                               const std::string& config_path) {
  text::terminal_lines line;
  if (bundles.empty()) {
    line("No skill bundles configured in " + config_path +
         " (`clawport skills bundle add <alias>` adds one).");
    return std::move(line.text);
  }
  const auto listed = [](const std::vector<std::string>& names, const char* none) {
    std::string s = names.empty() ? std::string(none) : std::string();
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
    return s;
  };
  line(std::to_string(bundles.size()) + " skill bundle(s) in " + config_path + ":");
  for (const bundle_entry& b : bundles) {
    line("  " + b.alias + "  " + b.directory + (b.exists ? "" : " (missing: ZeroClaw creates it)"));
    line("    skills: " + listed(b.skills, "none"));
    line("    agents: " + listed(b.agents, "none (no agent loads it)"));
  }
  return std::move(line.text);
}

/// `skills bundle remove`: the table removed from `config_path`, its directory left.
inline std::string render_text(const bundle_remove_result& r, const std::string& config_path,
                               const text::marks& m = {}) {
  text::terminal_lines line;
  line("  " + std::string(m.ok) + " removed skill_bundles." + r.alias + " from " + config_path);
  line("    previous config saved as " + r.backup);
  line("    its directory " + r.directory + " stays on disk (" +
       std::to_string(r.skills_left.size()) + " skill(s)); delete it by hand if no longer wanted");
  return std::move(line.text);
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
