// SPDX-License-Identifier: MIT
// The one append-only config writer: new tables are appended to the user's config.toml
// without rewriting a byte of it, preceded by a provenance comment, and written through a
// temp file in the same directory, fsync, rename, fsync of the directory, keeping the
// previous file as `config.toml.bak-<time>`. `append_tables` is pure (text in, text out)
// and refuses, naming the table, where the file's shape makes an append invalid or
// ambiguous (a table written inline, an array written inline, an entry that exists);
// `write_config_append` is the I/O half, through the Fs policy.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/toml.hpp"
#include "../fs/policy.hpp"
#include "document.hpp"
#include "parse.hpp"
#include "toml_writer.hpp"

#include <toml++/toml.h>

#include <cerrno>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport::zeroclaw {

/// The result of planning an append: the whole new file and what it parses to.
struct config_append {
  std::string text;  ///< the user's bytes, unchanged, then the comment and the new tables
  value merged;      ///< `text` parsed
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
inline config_append append_tables(std::string_view existing, const value& additions,
                                   std::string_view provenance,
                                   std::string_view what = "config.toml") {
  const toml::table parsed = toml_adaptor::parse(existing, what);
  for (const member& m : additions.members) {
    if (!m.val.is_table() && !detail::is_table_array(m.val))
      detail::append_refused(m.key, "only tables and arrays of tables are appended");
    detail::check_addition(parsed.get(m.key), m.val, m.key);
  }
  std::string text(existing);
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (!text.empty()) text += '\n';
  std::size_t at = 0;
  while (at <= provenance.size() && !provenance.empty()) {
    const std::size_t end = provenance.find('\n', at);
    const std::string_view line =
        provenance.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    text += line.empty() ? "#\n" : "# " + std::string(line) + "\n";
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  text += toml_writer::write(additions, false);

  value expected = parse_toml(existing, what);
  detail::merge_into(expected, additions, "");
  config_append out;
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
  return out;
}

/// How `write_config_append` writes.
struct config_write_options {
  std::string backup_suffix;            ///< the previous file is kept as `<name>.bak-<suffix>`
  std::string token;                    ///< names the temp file `.<name>.clawport-<token>`
  bool sync = true;                     ///< flush the new file (syncfs) and fsync the directory
  std::function<void()> before_rename;  ///< test seam: after the temp file is complete
};

/// Replaces `dir/name` by `new_text`, which must extend the current content: the file is
/// re-read and must still be exactly `expected_old` (else errc::identity_changed, nothing
/// written); with `expected_old` empty (nullopt) the file must not exist and is created
/// (no backup; the function then returns ""). Keeps the old bytes as `<name>.bak-<suffix>` (`-2`,
/// `-3`, ... if taken), writes a temp file with the old mode, flushes, renames it over `name`,
/// fsyncs the directory. A symlinked config is refused (errc::unsafe_path): replacing it would cut
/// the link. On any failure before the rename the temp file and the backup are removed and the
/// config is untouched. Returns the backup's name.
template <class Fs>
std::string write_config_append(Fs& fs, const typename Fs::dir& dir, const std::string& name,
                                std::optional<std::string_view> expected_old,
                                const std::string& new_text, const config_write_options& o) {
  static_assert(fs::check_policy<Fs>());
  const auto st = fs.stat_at(dir, name);
  if (!expected_old) {
    if (st)
      throw error(errc::identity_changed,
                  "the config " + name +
                      " appeared since the import was planned; nothing was written (plan again)",
                  name);
    const std::string temp = "." + name + ".clawport-" + o.token;
    try {
      {
        auto t = fs.create_file_at(dir, temp, 0600);
        fs.write_all(t, new_text.data(), new_text.size());
      }
      if (o.sync) fs.sync_filesystem(dir);
      if (o.before_rename) o.before_rename();
      if (fs.rename_at(dir, temp, dir, name, fs::rename_mode::noreplace) ==
          fs::rename_result::unsupported) {
        if (fs.stat_at(dir, name))
          throw error(errc::identity_changed, "the config " + name + " appeared", name);
        fs.rename_at(dir, temp, dir, name, fs::rename_mode::replace);
      }
    } catch (const error& e) {
      try {
        fs.unlink_at(dir, temp);
      } catch (...) {
      }
      throw error(e.code(), "failed to write the config " + name + ": " + e.what(), name,
                  e.sys_errno());
    }
    if (o.sync) fs.sync_dir(dir);
    return "";
  }
  if (!st) throw error(errc::not_found, "the config " + name + " does not exist", name);
  if (st->kind == fs::file_kind::symlink)
    throw error(errc::unsafe_path,
                "the config " + name +
                    " is a symbolic link; clawport does not replace it (that would cut the "
                    "link): write through the link's target's install instead",
                name);
  if (st->kind != fs::file_kind::regular)
    throw error(errc::unsafe_path, "the config " + name + " is not a regular file", name);
  std::string current;
  {
    auto f = fs.open_file_at(dir, name);
    char buf[16384];
    for (;;) {
      const std::size_t n = fs.read(f, buf, sizeof buf);
      if (n == 0) break;
      current.append(buf, n);
    }
  }
  if (current != *expected_old)
    throw error(errc::identity_changed,
                "the config " + name +
                    " changed since the import was planned; nothing was written (plan again)",
                name);

  std::string backup;
  std::optional<std::string> temp;
  try {
    for (int attempt = 1;; ++attempt) {
      backup =
          name + ".bak-" + o.backup_suffix + (attempt > 1 ? "-" + std::to_string(attempt) : "");
      try {
        auto b = fs.create_file_at(dir, backup, st->mode & 0777);
        fs.write_all(b, current.data(), current.size());
        break;
      } catch (const error& e) {
        if (e.sys_errno() == EEXIST && attempt < 100) {
          backup.clear();
          continue;
        }
        backup.clear();
        throw;
      }
    }
    temp = "." + name + ".clawport-" + o.token;
    {
      auto t = fs.create_file_at(dir, *temp, 0600);
      fs.write_all(t, new_text.data(), new_text.size());
      fs.set_mode(t, st->mode & 07777);
    }
    if (o.sync) fs.sync_filesystem(dir);
    if (o.before_rename) o.before_rename();
    fs.rename_at(dir, *temp, dir, name, fs::rename_mode::replace);
    temp.reset();
  } catch (const error& e) {
    try {
      if (temp) fs.unlink_at(dir, *temp);
    } catch (...) {  // a second failure must not mask the first
    }
    try {
      if (!backup.empty()) fs.unlink_at(dir, backup);
    } catch (...) {
    }
    throw error(e.code(), "failed to write the config " + name + ": " + e.what(), name,
                e.sys_errno());
  }
  if (o.sync) {
    try {
      fs.sync_dir(dir);
    } catch (const error& e) {
      throw error(
          e.code(),
          "the config " + name + " was written but the directory could not be flushed: " + e.what(),
          name, e.sys_errno());
    }
  }
  return backup;
}

}  // namespace clawport::zeroclaw
