// SPDX-License-Identifier: MIT
// The one config writer: text is only ever APPENDED to an install's config.toml, never
// rewritten, so comments, order and formatting the user chose survive byte for byte.
// The new file is written by publish::replace_file, the one atomic replace (a temporary
// beside it, mode and owner kept, flushed, renamed); the previous bytes are kept first as
// `config.toml.bak-<stamp>`. A failure at any step leaves config.toml exactly as it was.
// `append_tables` (pure) plans such an append of whole tables and refuses, naming the
// table, where the file's shape makes it invalid or ambiguous (a table or an array of
// tables written inline, an entry that exists); `append_to_config` writes it.
#pragma once

#include <cerrno>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/time.hpp"
#include "../formats/toml.hpp"
#include "../formats/toml_writer.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "../publish/names.hpp"
#include "../publish/replace_file.hpp"
#include "comment.hpp"
#include "config_file.hpp"
#include "document.hpp"
#include "parse.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace zeroclaw {

/// `existing` followed by `addition`, separated so `addition` starts on a line of its own
/// after one blank line (none when `existing` is empty); the result ends with a newline.
inline std::string config_with_appended(std::string_view existing, std::string_view addition) {
  std::string out(existing);
  if (!out.empty()) {
    if (out.back() != '\n') out += '\n';
    if (out.size() < 2 || out[out.size() - 2] != '\n') out += '\n';
  }
  out.append(addition.data(), addition.size());
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

/// `config.toml.bak-<YYYYMMDDTHHMMSSZ>` for the instant `t` (UTC).
inline std::string config_backup_name(std::string_view config_name, const timestamp& t) {
  std::string iso = format_rfc3339(timestamp{t.seconds, 0});  // 2026-12-01T10:22:33+00:00
  std::string stamp;
  for (const char c : iso.substr(0, 19)) {
    if (c != '-' && c != ':') stamp += c;
  }
  return std::string(config_name) + ".bak-" + stamp + "Z";
}

/// The result of planning an append: the whole new file and what it parses to.
struct append_plan {
  std::string text;      ///< the user's bytes, unchanged, then the comment and the new tables
  std::string addition;  ///< what `append_to_config` is given: the comment and the tables
  value merged;          ///< `text` parsed
};

namespace detail {

[[noreturn]] inline void append_refused(const std::string& path, const std::string& why) {
  throw error(errc::config_invalid,
              "cannot append `" + path + "` to the config: " + why +
                  "; the file was not changed (clawport never rewrites a config silently)",
              path);
}

inline bool is_table_array(const value& v) {
  return v.is_array() && !v.items.empty() &&
         std::all_of(v.items.begin(), v.items.end(), [](const value& i) { return i.is_table(); });
}

inline bool writes_header(const value& table) {
  if (table.members.empty()) return true;
  for (const member& m : table.members)
    if (!m.val.is_table() && !is_table_array(m.val)) return true;
  return false;
}

/// Checks one addition against the existing document, as toml++ parsed it (which knows
/// which tables were written inline).
inline void check_addition(const toml::node* existing, const value& add, const std::string& path) {
  if (existing == nullptr) return;  // all new below here
  if (add.is_table()) {
    const toml::table* t = existing->as_table();
    if (t == nullptr)
      append_refused(path, "the config already has a value there that is not a table");
    if (t->is_inline())
      append_refused(path, "the config writes it as an inline table (`" + path +
                               " = { ... }`), which TOML does not let a later [table] extend; "
                               "rewrite it as a [" +
                               path + "] table first");
    if (writes_header(add))
      append_refused(path, "the config already has this entry (an import never overwrites one)");
    for (const member& m : add.members) {
      if (!m.val.is_table() && !is_table_array(m.val)) continue;
      check_addition(t->get(m.key), m.val, path + "." + m.key);
    }
    return;
  }
  if (is_table_array(add)) {
    const toml::array* a = existing->as_array();
    if (a == nullptr)
      append_refused(path, "the config already has a value there that is not an array of tables");
    for (const toml::node& element : *a) {
      const toml::table* t = element.as_table();
      if (t == nullptr || t->is_inline())
        append_refused(path, "the config writes it as an inline array (`" + path +
                                 " = [ ... ]`), which a later [[" + path +
                                 "]] cannot extend; rewrite it as [[" + path + "]] tables first");
    }
    return;
  }
  append_refused(path, "only tables and arrays of tables are appended");
}

/// `into` with `add` merged in: tables recursively, arrays of tables concatenated.
inline void merge_into(value& into, const value& add, const std::string& path) {
  for (const member& m : add.members) {
    const std::string p = path.empty() ? m.key : path + "." + m.key;
    value* have = into.find(m.key);
    if (have == nullptr) {
      into.set(m.key, m.val);
    } else if (have->is_table() && m.val.is_table()) {
      merge_into(*have, m.val, p);
    } else if (have->is_array() && is_table_array(m.val)) {
      have->items.insert(have->items.end(), m.val.items.begin(), m.val.items.end());
    } else {
      append_refused(p, "the config already has this key");
    }
  }
}

}  // namespace detail

/// Plans appending `additions` (a document holding only tables and arrays of tables, e.g.
/// `{agents: {x: {...}}, mcp: {servers: [...]}}`) to `existing` (a config's text), after a
/// comment made of `provenance` (one `# ` line per line). Pure. Refuses with
/// errc::config_parse when `existing` does not parse, and errc::config_invalid, subject =
/// the table, when the append would be invalid TOML, would extend an inline table or
/// array, would define an existing entry again, or would not parse to the existing
/// document plus the additions.
inline append_plan append_tables(std::string_view existing, const value& additions,
                                 std::string_view provenance,
                                 std::string_view what = "config.toml") {
  const toml::table parsed = toml_adaptor::parse(existing, what);
  for (const member& m : additions.members) {
    if (!m.val.is_table() && !detail::is_table_array(m.val))
      detail::append_refused(m.key, "only tables and arrays of tables are appended");
    detail::check_addition(parsed.get(m.key), m.val, m.key);
  }
  if (const auto why = comment_problem(provenance))  // the rule verify applies to a bundle
    detail::append_refused(std::string(what), "the provenance comment cannot be written: " + *why);
  std::string addition;
  std::size_t at = 0;
  while (!provenance.empty()) {
    const std::size_t end = provenance.find('\n', at);
    const std::string_view line =
        provenance.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    addition += line.empty() ? "#\n" : "# " + std::string(line) + "\n";
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  addition += toml_writer::write(additions, false);
  std::string text = config_with_appended(existing, addition);

  value expected = parse_toml(existing, what);
  detail::merge_into(expected, additions, "");
  append_plan out;
  try {
    out.merged = parse_toml(text, what);
  } catch (const error& e) {
    detail::append_refused(additions.members.empty() ? std::string(what) : additions.members[0].key,
                           std::string("the appended file would not parse: ") + e.what());
  }
  if (!(out.merged == expected))
    detail::append_refused(additions.members.empty() ? std::string(what) : additions.members[0].key,
                           "the appended file would not mean the config plus the new tables");
  out.text = std::move(text);
  out.addition = std::move(addition);
  return out;
}

/// What `append_to_config` did.
struct config_append_result {
  std::string config;  ///< absolute path of config.toml
  std::string backup;  ///< absolute path of the backup of the previous bytes
  std::string text;    ///< the whole new config text
};

/// Checks a candidate config text; throws clawport::error to refuse it.
using config_check = std::function<void(std::string_view new_text)>;

/// The new text of a config, from its bytes as read (`rewrite_config`).
using config_edit = std::function<std::string(std::string_view old_text)>;

/// Replaces the config at `config_path` (absolute) with `edit(its bytes)`. The result must
/// parse as TOML (else errc::config_parse) and pass `check`. The file is read by
/// fs::read_file's rule and replaced by publish::replace_file (mode and owner kept, backup
/// first): a symlinked, hard-linked or non-regular config is refused (errc::unsafe_path:
/// the rename would replace the link or split the file); a config changed while it was
/// being edited is errc::identity_changed. `now` names the backup (none without
/// `keep_backup`: `backup` is then ""). The one writer of an
/// install's config: `append_to_config` and `secrets set` are its two edits.
template <class Fs>
config_append_result rewrite_config(Fs& fs, const std::string& config_path, const config_edit& edit,
                                    const timestamp& now, const config_check& check = {},
                                    bool keep_backup = true) {
  static_assert(fs::check_policy<Fs>());
  const std::string path = paths::normalize(config_path);
  const std::string dir = paths::parent(path);
  const std::string name = paths::file_name(path);
  if (dir.empty() || name.empty()) {
    throw error(errc::invalid_argument, "not a config file path: " + config_path, config_path);
  }
  config_append_result out;
  out.config = path;

  typename Fs::dir parent = [&] {
    try {
      return fs.open_root(dir);
    } catch (const error& e) {
      throw with_context(e, "failed to open " + dir, dir, reason_of(e));
    }
  }();
  // The one rule for an edit in place (publish::check_replaceable): a symlinked, hard-linked
  // or non-regular config is refused before anything is read or written.
  const std::optional<fs::read_result> read = read_config_to_replace(fs, parent, name, path);
  if (!read) throw error(errc::not_found, "no such file: " + path, path, ENOENT);
  const fs::read_result& old = *read;

  out.text = edit(old.bytes);
  try {
    (void)toml_adaptor::parse(out.text, path);
  } catch (const error& e) {
    throw error(
        errc::config_parse,
        "editing " + path + " would make it invalid TOML (" + e.what() + "); nothing was written",
        path);
  }
  if (check) check(out.text);

  publish::replace_options ro;
  ro.expect = old.info;
  if (keep_backup) ro.backup = config_backup_name(name, now);
  ro.previous = old.bytes;
  const std::string kept = publish::replace_file(fs, parent, name, out.text, path, ro).backup;
  if (!kept.empty()) out.backup = paths::join(dir, kept);
  return out;
}

/// Appends `addition` to the config at `config_path` (absolute) through `rewrite_config`
/// (its refusals: not TOML, `check`, a linked or changed config).
template <class Fs>
config_append_result append_to_config(Fs& fs, const std::string& config_path,
                                      std::string_view addition, const timestamp& now,
                                      const config_check& check = {}) {
  return rewrite_config(
      fs, config_path,
      [addition](std::string_view old_text) { return config_with_appended(old_text, addition); },
      now, check);
}

}  // namespace zeroclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
