// SPDX-License-Identifier: MIT
// `skills bundle add` (docs/cli.md, `skills bundle add`): a new `[skill_bundles.<alias>]`
// table appended to config.toml through the one config writer (zeroclaw/config_append.hpp),
// then the bundle's directory created through handles.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../formats/toml_writer.hpp"
#include "../fs/policy.hpp"
#include "../zeroclaw/config_append.hpp"
#include "../zeroclaw/config_file.hpp"
#include "loader.hpp"
#include "locations.hpp"
#include "placement.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// Upstream `validate_alias_key` for aliases the CLI creates: non-empty, at most 63
/// bytes, only `a-z 0-9 _`, first and last character in `a-z0-9`, no `__`.
inline void validate_alias_key(std::string_view alias) {
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  bool ok = !alias.empty() && alias.size() <= 63 && alnum(alias.front()) && alnum(alias.back()) &&
            alias.find("__") == std::string_view::npos;
  for (const char c : alias) ok = ok && (alnum(c) || c == '_');
  if (!ok) {
    throw error(errc::invalid_argument,
                "bundle alias '" + std::string(alias) +
                    "' must be 1-63 characters of a-z, 0-9 and _, start and end with a letter or "
                    "digit, and not contain __",
                std::string(alias));
  }
}

/// The table `skills bundle add` appends.
inline std::string bundle_table_text(std::string_view alias,
                                     const std::optional<std::string>& directory) {
  std::string t = "[skill_bundles." + toml_writer::key(alias) + "]\n";
  if (directory) t += "directory = " + toml_writer::quote(*directory) + "\n";
  return t;
}

/// What `add_skill_bundle` did.
struct bundle_add_result {
  std::string alias;
  bool created = false;   ///< false: the bundle was already configured (nothing changed)
  std::string directory;  ///< the resolved bundle directory
  std::string backup;     ///< the config backup, when created
  std::vector<std::string> warnings;
};

/// Adds bundle `alias` to the config at `config_path` (absolute): refuses a bad alias or a
/// directory outside `<install>/shared` (errc::unsafe_path) or shared with another bundle,
/// before anything is written; an alias already configured changes nothing. The bundle's
/// directory is created afterwards (a failure there is a warning: ZeroClaw creates it too).
template <class Fs>
bundle_add_result add_skill_bundle(Fs& fs, const std::string& config_path, const std::string& alias,
                                   const std::optional<std::string>& directory,
                                   const timestamp& now) {
  validate_alias_key(alias);
  const std::string install = paths::normalize(paths::parent(config_path));
  const std::string root = install.empty() ? std::string("/") : install;
  bundle_add_result out;
  out.alias = alias;
  const std::string text = zeroclaw::read_existing_install_config(fs, config_path);
  const skills_config cfg = parse_skills_config(text, config_path);
  if (cfg.bundles.count(alias)) {
    out.directory = resolve_directory(cfg, root, alias);
    return out;
  }
  skills_config after;
  const auto check = [&](std::string_view text) {
    after = parse_skills_config(text, config_path);
    if (!after.bundles.count(alias)) {
      throw error(errc::config_invalid,
                  "skill_bundles." + alias +
                      " would not be a bundle table after the append; "
                      "nothing was written",
                  "skill_bundles." + alias);
    }
    validate_directory(resolve_directory(after, root, alias), root,
                       "skill_bundles." + alias + ".directory");
    validate_uniqueness(after, root);
  };
  const zeroclaw::config_append_result w =
      zeroclaw::append_to_config(fs, config_path, bundle_table_text(alias, directory), now, check);
  out.created = true;
  out.backup = w.backup;
  out.directory = resolve_directory(after, root, alias);
  try {
    (void)open_skills_dir(fs, bundle_location(after, root, alias), true);
  } catch (const error& e) {
    out.warnings.push_back("the bundle directory " + out.directory + " could not be created (" +
                           e.what() + ")");
  }
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
