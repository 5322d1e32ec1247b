// SPDX-License-Identifier: MIT
// The names the tool leaves beside what it writes while it works: one registry of staging
// families (export, import, claw, skills, convert: staged directories; replace, update:
// temporary files beside the one file they replace), so `clawport recover` knows every one
// and each command builds its names here. An export's staging directory is
// `.zeroclaw-export-<token>` and its retired old bundle `.zeroclaw-export-old-<token>`:
// they share the token so a crashed export leaves a pair `clawport recover` recognises.
#pragma once

#include "../core/config.hpp"
#include "../fs/temp_dir.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace publish {

/// The commands that stage beside their destination (docs/cli.md, `recover`).
enum class staging_kind { export_bundle, import, claw, skills, convert, replace, update };

/// What a family leaves: a staged directory (locked while its command runs), or a
/// temporary file beside the one file it replaces (`.<file><marker><token>`).
enum class staging_shape { directory, file };

/// One family of staging names: `<prefix><token>` with a token of the generated grammar
/// (six of [A-Za-z0-9]), or for `import`, `<prefix><12 hex digits of the plan>-<leaf>`; for
/// a file family, `.<file><prefix><token>` beside `<file>`.
struct staging_family {
  staging_kind kind;
  std::string_view name;     ///< "export", "import", ...
  std::string_view prefix;   ///< ".zeroclaw-export-", ".clawport-import-", ... (file: the marker)
  std::string_view creator;  ///< who makes it, in recover's sentences
  staging_shape shape = staging_shape::directory;
};

/// The registry: every staging family the tool creates (indexed by staging_kind).
inline constexpr staging_family staging_families[] = {
    {staging_kind::export_bundle, "export", ".zeroclaw-export-", "an export"},
    {staging_kind::import, "import", ".clawport-import-", "an import"},
    {staging_kind::claw, "claw", ".clawport-claw-", "`claw add`"},
    {staging_kind::skills, "skills", ".clawport-stage-", "`skills install`, `new` or `remove`"},
    {staging_kind::convert, "convert", ".clawport-convert-", "`convert`"},
    // publish::replace_file: config.toml, openclaw.json, the ledgers.
    {staging_kind::replace, "replace", ".tmp-", "a command replacing the file",
     staging_shape::file},
    {staging_kind::update, "update", ".clawport-update-", "`claw update`", staging_shape::file},
};

/// The registry's entry for `kind`.
inline constexpr const staging_family& family_of(staging_kind kind) noexcept {
  return staging_families[static_cast<std::size_t>(kind)];
}

namespace detail {
constexpr bool indexed_by_kind() noexcept {
  std::size_t i = 0;
  for (const staging_family& f : staging_families)
    if (static_cast<std::size_t>(f.kind) != i++) return false;
  return true;
}
}  // namespace detail
static_assert(detail::indexed_by_kind(), "staging_families must list the kinds in order");

/// Prefix of a staging directory beside the destination.
inline constexpr std::string_view staging_prefix = family_of(staging_kind::export_bundle).prefix;
/// Prefix of the previous bundle while it is moved aside.
inline constexpr std::string_view retired_prefix = ".zeroclaw-export-old-";
/// Prefix of a staging directory while it is being created and locked, before it is
/// renamed to its staging name. `recover` never matches it (the `-` is outside the token
/// alphabet), so it never sees a staging directory that is not locked yet.
inline constexpr std::string_view creating_prefix = ".zeroclaw-export-new-";
/// Length of a generated token (the `tempfile` default upstream uses).
inline constexpr std::size_t token_length = 6;

/// True for a token the exporter generates: exactly `token_length` of [A-Za-z0-9].
inline bool is_token(std::string_view token) noexcept {
  if (token.size() != token_length) return false;
  for (const char c : token) {
    const bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum) return false;
  }
  return true;
}

/// A fresh random token of `token_length` characters from [A-Za-z0-9].
inline std::string random_token() { return fs::random_name(token_length); }

/// `.zeroclaw-export-<token>`.
inline std::string staging_name(std::string_view token) {
  return std::string(staging_prefix) + std::string(token);
}

/// The retired name paired with a staging name: the staging prefix is replaced by the
/// old-bundle prefix; a name without the prefix is used whole as the token (upstream's
/// `retired_name`).
inline std::string retired_name(std::string_view staging) {
  std::string_view token = staging;
  if (token.substr(0, staging_prefix.size()) == staging_prefix) {
    token.remove_prefix(staging_prefix.size());
  }
  return std::string(retired_prefix) + std::string(token);
}

/// True for `.zeroclaw-export-old-<token>` with a token of the exact generated grammar.
inline bool is_retired_name(std::string_view name) noexcept {
  return name.substr(0, retired_prefix.size()) == retired_prefix &&
         is_token(name.substr(std::min(name.size(), retired_prefix.size())));
}

/// True for `.zeroclaw-export-<token>` with a token of the exact generated grammar.
inline bool is_staging_name(std::string_view name) noexcept {
  return name.substr(0, staging_prefix.size()) == staging_prefix &&
         is_token(name.substr(std::min(name.size(), staging_prefix.size())));
}

/// `<prefix><token>` of the family `kind` (not `import`: see import_staging_name; not a
/// file family: see temp_file_name).
inline std::string staging_name(staging_kind kind, std::string_view token) {
  return std::string(family_of(kind).prefix) + std::string(token);
}

/// `.<file><marker><token>`: the temporary file of the file family `kind` beside `file`
/// (`.config.toml.tmp-AbC123`).
inline std::string temp_file_name(staging_kind kind, std::string_view file,
                                  std::string_view token) {
  return "." + std::string(file) + std::string(family_of(kind).prefix) + std::string(token);
}

/// Length of the plan token in an import's staging name.
inline constexpr std::size_t import_token_length = 12;

/// `.clawport-import-<plan token>-<leaf>`: where an import stages the tree it places at
/// `<leaf>`. The token is the plan's, so a re-run of the same plan recognises its leftovers.
inline std::string import_staging_name(std::string_view plan_token, std::string_view leaf) {
  return staging_name(staging_kind::import, plan_token) + "-" + std::string(leaf);
}

/// What a name beside a destination is, in the registry's terms.
struct staging_match {
  const staging_family* family = nullptr;  ///< null: no family's prefix
  bool exact = false;                      ///< of the exact grammar the family generates
  bool retired = false;                    ///< an export's `.zeroclaw-export-old-<token>`
  /// `.zeroclaw-export-new-<token>`: a staging directory being made, or whose export died
  /// before it locked it (not `exact`: recover removes it only when empty and unlocked).
  bool creating = false;
  /// `.clawport-import-<12 hex>.intent`: the intent directory of an import
  /// (publish/intent.hpp; exact): recover finishes or undoes what it records.
  bool intent = false;
};

namespace detail {

inline bool lower_hex_token(std::string_view s) noexcept {
  if (s.size() != import_token_length) return false;
  for (const char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace detail

/// `.zeroclaw-export-new-<token>`: where a staging directory is created and locked.
inline std::string creating_name(std::string_view token) {
  return std::string(creating_prefix) + std::string(token);
}

/// The token of a staging or retired name ("" for other names).
inline std::string_view token_of(std::string_view name) {
  if (is_retired_name(name)) return name.substr(retired_prefix.size());
  if (is_staging_name(name)) return name.substr(staging_prefix.size());
  return {};
}

/// Classifies `name` against every family of the registry (`recover` acts only on exact
/// names and names the others it leaves alone). The file families are matched only for the
/// file `destination` (`.<destination><marker>...`): a temporary file belongs to the one
/// file it replaces, and a name like `.notes.tmp-AbC123` beside some other file is not the
/// tool's to judge.
inline staging_match match_staging(std::string_view name,
                                   std::string_view destination = {}) noexcept {
  staging_match m;
  for (const staging_family& f : staging_families) {
    if (f.shape != staging_shape::file || destination.empty()) continue;
    if (name.size() <= destination.size() + 1 || name[0] != '.' ||
        name.substr(1, destination.size()) != destination)
      continue;
    const std::string_view rest = name.substr(destination.size() + 1);
    if (rest.substr(0, f.prefix.size()) != f.prefix) continue;
    m.family = &f;
    m.exact = is_token(rest.substr(f.prefix.size()));
    return m;
  }
  for (const staging_family& f : staging_families) {
    if (f.shape == staging_shape::file) continue;
    if (name.substr(0, f.prefix.size()) != f.prefix) continue;
    m.family = &f;
    const std::string_view rest = name.substr(f.prefix.size());
    if (f.kind == staging_kind::export_bundle) {
      m.creating = name.substr(0, creating_prefix.size()) == creating_prefix &&
                   is_token(name.substr(std::min(name.size(), creating_prefix.size())));
      m.retired = is_retired_name(name);
      m.exact = m.retired || is_token(rest);
    } else if (f.kind == staging_kind::import) {
      m.intent = rest.size() == import_token_length + 7 &&
                 detail::lower_hex_token(rest.substr(0, import_token_length)) &&
                 rest.substr(import_token_length) == ".intent";
      if (m.intent) {
        m.exact = true;
        return m;
      }
      const std::string_view leaf = rest.substr(std::min(rest.size(), import_token_length + 1));
      m.exact = rest.size() > import_token_length + 1 &&
                detail::lower_hex_token(rest.substr(0, import_token_length)) &&
                rest[import_token_length] == '-' && !leaf.empty() && leaf != "." && leaf != "..";
    } else {
      m.exact = is_token(rest);
    }
    return m;
  }
  return m;
}

}  // namespace publish
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
