// SPDX-License-Identifier: MIT
// What a copied source tree (the workspace, a skill bundle) must never hold: the install
// itself. A workspace configured as the install root or an ancestor of it (`$HOME` while the
// install is `~/.zeroclaw`) would carry the unscrubbed config.toml and `.secret_key` (which
// decrypts every `enc2:` value) into the bundle. Refused twice: by resolved path before
// anything is created, and by identity during the walk (so a rename or a link made after
// the check cannot slip the install in either).
#pragma once

#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "destination.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace exporter_detail {

/// One part of the install a source tree may not hold.
struct protected_entry {
  std::string what;      ///< "the install root", "the config file", "the key file .secret_key"
  std::string path;      ///< as shown
  std::string resolved;  ///< through resolve_path / canonical
  std::optional<fs::file_id> id;
};

/// A source tree to check: its field (`agents.<a>.workspace.path`,
/// `skill_bundles.<b>.directory`), its planned and resolved paths.
struct guarded_source {
  std::string field;
  std::string planned;
  std::string resolved;
};

inline error install_inside_source(const std::string& field, const std::string& planned,
                                   const protected_entry& p) {
  return error(errc::overlap,
               field + " (" + planned + ") contains " + p.what + " " + p.path +
                   " \u2014 copying it would carry the install's unscrubbed config.toml and "
                   ".secret_key into the bundle; point " +
                   field + " at a directory that does not hold the install. Nothing was written",
               field);
}

/// Refuses, naming the field, a source whose resolved path equals or contains a protected
/// entry. Runs before anything is created.
inline void reject_install_inside(const std::vector<guarded_source>& sources,
                                  const std::vector<protected_entry>& protected_entries) {
  for (const guarded_source& s : sources) {
    for (const protected_entry& p : protected_entries) {
      if (!p.resolved.empty() && paths::starts_with(p.resolved, s.resolved)) {
        throw install_inside_source(s.field, s.planned, p);
      }
    }
  }
}

/// The walk's backstop: an entry whose identity is a protected entry's refuses the copy.
inline void reject_protected_identity(const std::vector<protected_entry>& protected_entries,
                                      const std::string& field, const std::string& planned,
                                      const fs::file_id& id) {
  for (const protected_entry& p : protected_entries) {
    if (p.id && *p.id == id) throw install_inside_source(field, planned, p);
  }
}

}  // namespace exporter_detail
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
