// SPDX-License-Identifier: MIT
// The Markdown memory backend's files as memories, and back (issue 47 items 6-7): ZeroClaw's
// own mapping, the one `zeroclaw migrate openclaw` uses (crates/zeroclaw-runtime/src/
// migration.rs, `parse_markdown_file`): `MEMORY.md` is `core`, each top-level
// `memory/<stem>.md` is `daily`; one memory per line; blank lines and headings skipped, a
// leading `- ` dropped; `**key**: value` keeps its key, any other line is
// `openclaw_<stem>_<line number>` (MEMORY.md's stem being `openclaw_core`). Beyond upstream:
// a daily file named `YYYY-MM-DD.md` gives its entries that day as their time (upstream uses
// the import's), and a key a file repeats becomes `<key>__openclaw_<i>` (upstream's rename
// of a clashing key), so the keys stay unique per agent. The reverse writes what ZeroClaw's
// Markdown backend appends: `- **key**: content` lines. Pure: text in, text out.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "entry.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace memory {

/// The stem ZeroClaw gives `MEMORY.md`'s unkeyed lines.
inline constexpr std::string_view core_stem = "openclaw_core";

namespace detail {

/// `**key**: value` with both parts non-empty after trimming, else nothing.
inline bool structured_line(std::string_view line, std::string& key, std::string& value) {
  if (line.substr(0, 2) != "**") return false;
  const std::string_view rest = line.substr(2);
  const std::size_t end = rest.find("**:");
  if (end == std::string_view::npos) return false;
  const std::string_view k = text::trim(rest.substr(0, end));
  const std::string_view v = text::trim(rest.substr(end + 3));
  if (k.empty() || v.empty()) return false;
  key.assign(k);
  value.assign(v);
  return true;
}

/// Whether `stem` is a date, `YYYY-MM-DD`.
inline bool is_date(std::string_view stem) {
  if (stem.size() != 10 || stem[4] != '-' || stem[7] != '-') return false;
  for (std::size_t i = 0; i < stem.size(); ++i)
    if (i != 4 && i != 7 && (stem[i] < '0' || stem[i] > '9')) return false;
  return true;
}

/// `s` with its line breaks made spaces (a Markdown entry is one line).
inline std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

/// Whether `s` is `[a-z0-9_-]+`, usable as a file name as it is.
inline bool plain_name(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  return true;
}

}  // namespace detail

/// The memories of one Markdown file: `category` `core` for MEMORY.md (`stem` core_stem),
/// `daily` for `memory/<stem>.md`. `now` (RFC 3339) is their time unless the stem is a date.
inline std::vector<entry> parse_markdown(std::string_view text, std::string_view category,
                                         std::string_view stem, const std::string& now) {
  std::vector<entry> out;
  const std::string when =
      detail::is_date(stem) ? std::string(stem) + "T00:00:00+00:00" : std::string(now);
  std::size_t number = 0;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view raw = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);  // Rust's lines()
    std::string_view line = text::trim(raw);
    if (line.empty() || line.front() == '#') continue;
    if (line.substr(0, 2) == "- ") line.remove_prefix(2);
    entry e;
    if (!detail::structured_line(line, e.key, e.content)) {
      e.key = "openclaw_" + std::string(stem) + "_" + std::to_string(number);
      e.content.assign(text::trim(line));
    }
    if (e.content.empty()) continue;
    e.category.assign(category);
    e.created = e.updated = when;
    out.push_back(std::move(e));
  }
  return out;
}

/// Makes the keys of `entries` unique: an exact repeat (key, content, category) is dropped,
/// another entry with a key already taken becomes the first free `<key>__openclaw_<i>`.
/// Returns the entries kept; `renamed` counts the renames.
inline std::vector<entry> unique_keys(std::vector<entry> entries, std::size_t& renamed) {
  std::set<std::string> keys;
  std::set<std::pair<std::string, std::string>> seen;  // (key, category + '\0' + content)
  std::vector<entry> out;
  for (entry& e : entries) {
    if (!seen.insert({e.key, e.category + '\0' + e.content}).second) continue;
    if (!keys.insert(e.key).second) {
      for (std::size_t i = 1;; ++i) {
        const std::string candidate = e.key + "__openclaw_" + std::to_string(i);
        if (keys.insert(candidate).second) {
          e.key = candidate;
          break;
        }
      }
      ++renamed;
    }
    out.push_back(std::move(e));
  }
  return out;
}

/// The Markdown files of `entries`, as ZeroClaw's Markdown backend writes them: `core` in
/// `MEMORY.md`, `daily` in `memory/<date of created>.md`, any other category in
/// `memory/imports/zeroclaw/<category>.md` (`other.md` for a category that is not
/// `[a-z0-9_-]+`); one `- **key**: content` line each, a line break in a key or content made
/// a space (a Markdown entry is one line). Path -> text.
inline std::map<std::string, std::string> to_markdown(const std::vector<entry>& entries) {
  std::map<std::string, std::string> files;
  for (const entry& e : entries) {
    std::string file = "MEMORY.md";
    if (e.category == "daily")
      file = "memory/" +
             (e.created.size() >= 10 && detail::is_date(e.created.substr(0, 10))
                  ? e.created.substr(0, 10)
                  : std::string("undated")) +
             ".md";
    else if (e.category != "core")  // a bundle's category is never a path: other.md then
      file = "memory/imports/zeroclaw/" +
             (detail::plain_name(e.category) ? e.category : std::string("other")) + ".md";
    files[file] += "- **" + detail::one_line(e.key) + "**: " + detail::one_line(e.content) + "\n";
  }
  return files;
}

}  // namespace memory
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
