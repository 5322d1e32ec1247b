// SPDX-License-Identifier: MIT
// `skills new` (docs/cli.md, `skills new`): the canonical skill-name rule, the
// `<bundle>/<name>` reference rule, the scaffolded SKILL.md, and writing the scaffold
// staged and published through skills/placement.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/error.hpp"
#include "../fs/modes.hpp"
#include "../fs/policy.hpp"
#include "../fs/write_new_file.hpp"
#include "frontmatter.hpp"
#include "locations.hpp"
#include "manifest.hpp"
#include "placement.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

// The name rule itself (`is_valid_skill_name`, `validate_skill_name`) is manifest.hpp's.

/// `code-review` -> `Code Review`: hyphen segments, empty ones dropped, first letter upper.
inline std::string title_from_name(std::string_view name) {
  std::string out;
  std::size_t i = 0;
  while (i <= name.size()) {
    std::size_t j = name.find('-', i);
    if (j == std::string_view::npos) j = name.size();
    if (j > i) {
      if (!out.empty()) out += ' ';
      std::string part(name.substr(i, j - i));
      if (part[0] >= 'a' && part[0] <= 'z') part[0] = static_cast<char>(part[0] - 'a' + 'A');
      out += part;
    }
    i = j + 1;
  }
  return out;
}

/// A resolved `<bundle>/<name>` (upstream `SkillRef`).
struct skill_ref {
  std::string bundle;
  std::string name;
  std::string display() const { return shown_skill(bundle, name); }
};

/// Upstream `reference::resolve`: with `bundle`, it must be configured; without, the only
/// configured bundle is implied. No bundles, or several without `bundle`, are refusals.
inline skill_ref resolve_skill_ref(const skills_config& cfg, const std::string& name,
                                   const std::string& bundle) {
  if (cfg.bundles.empty()) {
    throw error(errc::not_found, "no skill bundles are configured; create one before adding skills",
                "skill_bundles");
  }
  if (!bundle.empty()) {
    if (!cfg.bundles.count(bundle)) {
      throw error(errc::not_found, "skill bundle '" + bundle + "' is not configured",
                  "skill_bundles." + bundle);
    }
    return {bundle, name};
  }
  if (cfg.bundles.size() == 1) return {cfg.bundles.begin()->first, name};
  std::string list;
  for (const auto& b : cfg.bundles) list += (list.empty() ? "" : ", ") + b.first;
  throw error(
      errc::invalid_argument,
      "several skill bundles are configured (" + list + "): choose one with --bundle <alias>",
      name);
}

/// What the scaffold writes.
struct scaffold_options {
  std::string description;     ///< empty: a placeholder naming the skill
  bool create_subdirs = true;  ///< `scripts/ references/ assets/`
  std::string body;            ///< empty: `# <Title Case Name>`
};

/// The optional sub-directories of the canonical layout, in creation order.
inline constexpr std::string_view scaffold_subdirs[] = {"scripts", "references", "assets"};

/// The scaffolded SKILL.md (strict form, so `skill_document::parse` reads it back).
inline skill_document scaffold_document(const std::string& name, const scaffold_options& opt) {
  skill_document doc;
  doc.frontmatter.name = name;
  doc.frontmatter.description =
      opt.description.empty() ? "Describe when an agent should use " + name : opt.description;
  doc.frontmatter.version = "0.1.0";
  doc.body = opt.body.empty() ? "# " + title_from_name(name) + "\n" : opt.body;
  return doc;
}

/// What `scaffold_skill` made.
struct scaffold_result {
  skill_ref ref;
  std::string directory;             ///< absolute
  std::vector<std::string> created;  ///< relative paths, creation order
  std::vector<std::string> warnings;
};

/// Writes a new skill `name` into bundle `bundle` (upstream `scaffold_skill`): the name
/// rule, a configured bundle whose directory stays in `<install>/shared`, a vacant name.
/// The bundle directory is created if missing; SKILL.md and the sub-directories are
/// built in a staging directory and published with one no-replace rename. On any
/// failure nothing of the skill remains (the bundle directory may have been created).
template <class Fs>
scaffold_result scaffold_skill(Fs& fs, const skills_config& cfg, std::string_view install_root,
                               const std::string& bundle, const std::string& name,
                               const scaffold_options& opt = {}) {
  static_assert(fs::check_policy<Fs>());
  validate_skill_name(name);
  scaffold_result out;
  out.ref = resolve_skill_ref(cfg, name, bundle);
  const skills_dir_location loc = bundle_location(cfg, install_root, out.ref.bundle);
  out.directory = paths::join(loc.path, name);
  const std::string text = scaffold_document(name, opt).serialize();

  typename Fs::dir parent = open_skills_dir(fs, loc, true);
  if (fs.stat_at(parent, name)) throw skill_exists(loc, name);
  staged_skill<Fs> stage(fs, parent, loc, name);
  try {
    fs::write_new_file(fs, stage.skill(), "SKILL.md", text, fs::modes::file);
  } catch (const error& e) {
    throw with_context(e, "failed to write " + out.directory + "/SKILL.md", out.directory,
                       reason_of(e));
  }
  out.created.emplace_back("SKILL.md");
  if (opt.create_subdirs) {
    for (const std::string_view d : scaffold_subdirs) {
      try {
        fs.make_dir_at(stage.skill(), d, fs::modes::dir);
      } catch (const error& e) {
        throw with_context(e, "failed to create " + paths::join(out.directory, d), out.directory,
                           reason_of(e));
      }
      out.created.emplace_back(std::string(d) + "/");
    }
  }
  if (auto w = stage.publish()) out.warnings.push_back(*w);
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
