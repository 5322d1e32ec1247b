// SPDX-License-Identifier: MIT
// `skills bundle list` and `skills bundle remove` (docs/cli.md, `skills bundle`): the
// configured bundles with their directories, skills and the agents listing them; and the
// removal of one `[skill_bundles.<alias>]` table from config.toml through the one config
// writer (zeroclaw::rewrite_config: backup kept, mode kept). The bundle's directory and its
// skills stay on disk: removing the table only stops ZeroClaw from loading them.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../fs/policy.hpp"
#include "../zeroclaw/config_append.hpp"
#include "../zeroclaw/config_file.hpp"
#include "loader.hpp"
#include "locations.hpp"
#include "placement.hpp"
#include "remove.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// One configured bundle, as `skills bundle list` shows it.
struct bundle_entry {
  std::string alias;
  std::string directory;            ///< resolved, absolute
  bool exists = false;              ///< the directory is there (ZeroClaw creates it otherwise)
  std::vector<std::string> skills;  ///< its skill directories (with a manifest), sorted
  std::vector<std::string> agents;  ///< the agents whose skill_bundles list it
};

/// Every configured bundle in alias order. A directory that cannot be opened (missing, a
/// symlink, outside `<install>/shared`) is listed with `exists = false` and no skills.
template <class Fs>
std::vector<bundle_entry> list_bundles(Fs& fs, const skills_config& cfg,
                                       std::string_view install_root) {
  static_assert(fs::check_policy<Fs>());
  std::vector<bundle_entry> out;
  for (const auto& b : cfg.bundles) {
    bundle_entry e;
    e.alias = b.first;
    e.directory = resolve_directory(cfg, install_root, b.first);
    for (const auto& a : cfg.agents) {
      for (const std::string& listed : a.second.skill_bundles) {
        if (text::trim(listed) == b.first) {
          e.agents.push_back(a.first);
          break;
        }
      }
    }
    try {
      auto d = open_skills_dir(fs, bundle_location(cfg, install_root, b.first), false);
      e.exists = true;
      fs.for_each_entry(d, [&](std::string_view n) {
        const auto st = fs.stat_at(d, n);
        if (!st || st->kind != fs::file_kind::directory) return;
        if (detail::has_manifest_file(fs, fs.open_dir_at(d, n))) e.skills.emplace_back(n);
      });
      std::sort(e.skills.begin(), e.skills.end());
    } catch (const error&) {
      e.exists = false;
    }
    out.push_back(std::move(e));
  }
  return out;
}

namespace detail {

/// The dotted key of a `[a.b."c"]` or `[[a.b]]` header line, one string per part; nullopt
/// for a line that is not a table header.
inline std::optional<std::vector<std::string>> header_key(std::string_view line) {
  std::string_view t = text::trim(line);
  if (t.empty() || t.front() != '[') return std::nullopt;
  const bool array = t.size() > 1 && t[1] == '[';
  t.remove_prefix(array ? 2 : 1);
  std::vector<std::string> parts(1);
  char quote = 0;
  for (const char c : t) {
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        parts.back().push_back(c);
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '.') {
      parts.emplace_back();
    } else if (c == ']') {
      for (std::string& p : parts) p = std::string(text::trim(p));
      return parts;
    } else {
      parts.back().push_back(c);
    }
  }
  return std::nullopt;
}

inline bool under_bundle(const std::vector<std::string>& key, std::string_view alias) {
  return key.size() >= 2 && key[0] == "skill_bundles" && key[1] == alias;
}

}  // namespace detail

/// `text` without the `[skill_bundles.<alias>]` table and its sub-tables (pure). The
/// comments and blank lines just before the next table stay with it. Throws
/// errc::config_invalid when the bundle is not written as such a table (an inline table or
/// dotted keys): that config is left for the user to edit.
inline std::string config_without_bundle(std::string_view text, std::string_view alias) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = text.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  // The header of each line, none for a line inside a multi-line string.
  std::vector<std::optional<std::vector<std::string>>> headers(lines.size());
  bool in_multiline = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!in_multiline) headers[i] = detail::header_key(lines[i]);
    for (const std::string_view q : {"\"\"\"", "'''"}) {
      for (std::size_t p = lines[i].find(q); p != std::string_view::npos;
           p = lines[i].find(q, p + 3))
        in_multiline = !in_multiline;
    }
  }
  std::string out;
  bool found = false;
  for (std::size_t i = 0; i < lines.size();) {
    if (!headers[i] || !detail::under_bundle(*headers[i], alias)) {
      out += lines[i++];
      continue;
    }
    found = true;
    std::size_t j = i + 1;
    std::size_t keep_from = j;  // the comment block just before the next header stays
    for (; j < lines.size(); ++j) {
      if (headers[j] && !detail::under_bundle(*headers[j], alias)) break;
      const std::string_view t = text::trim(lines[j]);
      if (!t.empty() && t.front() != '#') keep_from = j + 1;
    }
    for (std::size_t k = keep_from; k < j; ++k) out += lines[k];
    if (j == lines.size()) {
      // The table ended the file: drop the blank lines that separated it.
      while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
        out.pop_back();
    }
    i = j;
  }
  if (!found) {
    throw error(errc::config_invalid,
                "skill_bundles." + std::string(alias) + " is not written as a [skill_bundles." +
                    std::string(alias) +
                    "] table (an inline table or dotted keys); remove it from config.toml by "
                    "hand; nothing was written",
                "skill_bundles." + std::string(alias));
  }
  return out;
}

/// What `remove_skill_bundle` did.
struct bundle_remove_result {
  std::string alias;
  std::string directory;                 ///< the bundle's directory, left on disk
  std::string backup;                    ///< the config backup
  std::vector<std::string> skills_left;  ///< skills still in the directory
};

/// Removes bundle `alias` from the config at `config_path` (absolute). Refused, before
/// anything is written: an alias not configured (errc::not_found, listing the configured
/// ones), a bundle an agent still lists (errc::destination_refused naming the agents), a
/// bundle not written as a table, an edit that would change anything but that table.
template <class Fs>
bundle_remove_result remove_skill_bundle(Fs& fs, const std::string& config_path,
                                         const std::string& alias, const timestamp& now) {
  const std::string text = zeroclaw::read_existing_install_config(fs, config_path);
  const skills_config cfg = parse_skills_config(text, config_path);
  const std::string root = paths::normalize(paths::parent(config_path));
  const std::string field = "skill_bundles." + alias;
  if (!cfg.bundles.count(alias)) {
    std::string list;
    for (const auto& b : cfg.bundles) list += (list.empty() ? "" : ", ") + b.first;
    throw error(errc::not_found,
                "skill bundle '" + alias + "' is not configured (configured: " +
                    (list.empty() ? std::string("none") : list) + ")",
                field);
  }
  bundle_remove_result out;
  out.alias = alias;
  for (const bundle_entry& e : list_bundles(fs, cfg, root)) {
    if (e.alias != alias) continue;
    out.directory = e.directory;
    out.skills_left = e.skills;
    if (!e.agents.empty()) {
      std::string list;
      for (const auto& a : e.agents) list += (list.empty() ? "" : ", ") + a;
      throw error(errc::destination_refused,
                  "skill bundle '" + alias + "' is listed in the skill_bundles of agent(s) " +
                      list + "; remove it from agents." + e.agents.front() +
                      ".skill_bundles first; nothing was written",
                  field);
    }
  }
  // The edit must remove that table and nothing else: the documents compare equal once
  // the bundle (and a skill_bundles table left empty) is erased from the old one.
  const auto without_bundle = [&](std::string_view t) {
    toml::table doc = detail::parse_toml(t, config_path);
    if (toml::table* b = doc["skill_bundles"].as_table()) {
      b->erase(alias);
      if (b->empty()) doc.erase("skill_bundles");
    }
    return doc;
  };
  const toml::table expected = without_bundle(text);
  const auto check = [&](std::string_view new_text) {
    if (without_bundle(new_text) != expected) {
      throw error(errc::config_invalid,
                  "removing the [" + field + "] table from " + config_path +
                      " would change other settings (a multi-line string or an unusual layout); "
                      "remove it by hand; nothing was written",
                  field);
    }
  };
  const zeroclaw::config_append_result w = zeroclaw::rewrite_config(
      fs, config_path, [&](std::string_view t) { return config_without_bundle(t, alias); }, now,
      check);
  out.backup = w.backup;
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
