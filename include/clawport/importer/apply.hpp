// SPDX-License-Identifier: MIT
// Applying an import: the plan is recomputed from scratch and must hash to the integrity
// the operator was shown; each tree is copied with the export's safe copy into a staging
// directory beside its place and published by rename; the config is written last
// (append-only, zeroclaw/config_append.hpp). A failure at any step removes what this run
// published and staged, so the install is left exactly as it was.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../fs/copy.hpp"
#include "../fs/policy.hpp"
#include "../zeroclaw/config_append.hpp"
#include "../zeroclaw/secret_ledger.hpp"
#include "plan.hpp"

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

/// What an applied import did.
struct import_result {
  import_plan plan;
  std::string backup;     ///< the previous config's name (`config.toml.bak-<time>`), or ""
  fs::copy_tally copied;  ///< files and bytes placed
  /// The required-secrets ledger recording `plan.secrets` (zeroclaw/secret_ledger.hpp), or
  /// "" when there were none; `ledger_problem` says why it could not be written (the import
  /// itself stands: a later export then does not list those secrets).
  std::string ledger;
  std::string ledger_problem;
};

/// How apply writes (test seams included).
struct apply_options {
  bool sync = true;
  std::function<void()> before_config;  ///< after the trees are published, before the config
};

namespace detail {

/// `20261201T104500Z` for backup names.
inline std::string compact_time(const timestamp& t) {
  std::string s = format_rfc3339({t.seconds, 0});  // 2026-12-01T10:45:00+00:00
  std::string out;
  for (char c : s.substr(0, 19))
    if (c != '-' && c != ':') out += c;
  return out + "Z";
}

template <class Fs>
struct applier {
  using dir = typename Fs::dir;
  Fs& fs;
  const dir& root;
  std::string token;
  std::vector<std::vector<std::string>> created;  ///< directories this run made, in order
  std::vector<std::pair<std::vector<std::string>, bool>> published;  ///< (path, was empty dir)

  static std::vector<std::string> split(const std::string& rel) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
      const std::size_t slash = rel.find('/', start);
      parts.push_back(
          rel.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
      if (slash == std::string::npos) return parts;
      start = slash + 1;
    }
  }

  std::optional<dir> open_parents(const std::vector<std::string>& parts) {
    std::optional<dir> cur;
    std::vector<std::string> so_far;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      const dir& here = cur ? *cur : root;
      so_far.push_back(parts[i]);
      const auto st = fs.stat_at(here, parts[i]);
      if (!st) {
        fs.make_dir_at(here, parts[i], 0755);
        created.push_back(so_far);
      } else if (st->kind != fs::file_kind::directory) {
        throw error(errc::destination_refused,
                    "cannot place the import: " + join(so_far) + " is not a directory",
                    join(so_far));
      }
      cur.emplace(fs.open_dir_at(here, parts[i]));
    }
    return cur;
  }

  static std::string join(const std::vector<std::string>& parts) {
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : "/") + p;
    return s;
  }

  /// Copies the bundle tree `src` to `to` (install-relative) through a staging directory.
  void place(const dir& bundle_root, const placement& pl, fs::copy_tally& tally) {
    const std::vector<std::string> to = split(pl.to);
    const std::optional<dir> opened = open_parents(to);
    const dir& parent = opened ? *opened : root;
    const std::string leaf = to.back();
    const auto st = fs.stat_at(parent, leaf);
    bool was_empty_dir = false;
    if (st) {
      if (st->kind != fs::file_kind::directory || !fs.is_empty(fs.open_dir_at(parent, leaf)))
        throw error(errc::destination_refused,
                    pl.to + " appeared since the import was planned; nothing was written", pl.to);
      was_empty_dir = true;
    }
    const std::string staging = ".clawport-import-" + token + "-" + leaf;
    fs.make_dir_at(parent, staging, 0755);
    try {
      std::optional<dir> src;
      std::optional<dir> cur;
      for (const std::string& part : split(pl.from)) {
        cur.emplace(fs.open_dir_at(cur ? *cur : bundle_root, part));
      }
      src = std::move(cur);
      dir out = fs.open_dir_at(parent, staging);
      fs::copy_tally t;
      fs::copy_tree(fs, *src, out, fs::copy_spec(pl.from), t);
      if (t.symlinks_skipped + t.others_skipped + t.hard_links_skipped + t.replaced_skipped > 0)
        throw error(errc::identity_changed,
                    "the bundle's " + pl.from + " changed after it was verified", pl.from);
      tally.files += t.files;
      tally.bytes += t.bytes;
      if (was_empty_dir) fs.remove_dir_at(parent, leaf);
      const auto r = fs.rename_at(parent, staging, parent, leaf, fs::rename_mode::noreplace);
      if (r == fs::rename_result::unsupported)
        fs.rename_at(parent, staging, parent, leaf, fs::rename_mode::replace);
    } catch (...) {
      try {
        fs.remove_tree_at(parent, staging);
      } catch (...) {  // a crash or second failure leaves it for the documented cleanup
      }
      try {
        if (was_empty_dir && !fs.stat_at(parent, leaf)) fs.make_dir_at(parent, leaf, st->mode);
      } catch (...) {
      }
      throw;
    }
    published.push_back({to, was_empty_dir});
  }

  /// Best-effort undo of everything this run published or created, newest first.
  void rollback() noexcept {
    for (auto it = published.rbegin(); it != published.rend(); ++it) {
      try {
        const std::optional<dir> opened = open_existing(it->first);
        const dir& parent = opened ? *opened : root;
        fs.remove_tree_at(parent, it->first.back());
        if (it->second) fs.make_dir_at(parent, it->first.back(), 0755);
      } catch (...) {
      }
    }
    for (auto it = created.rbegin(); it != created.rend(); ++it) {
      try {
        const std::optional<dir> opened = open_existing(*it);
        fs.remove_dir_at(opened ? *opened : root, it->back());
      } catch (...) {
      }
    }
  }

  std::optional<dir> open_existing(const std::vector<std::string>& parts) {
    std::optional<dir> cur;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i)
      cur.emplace(fs.open_dir_at(cur ? *cur : root, parts[i]));
    return cur;
  }
};

}  // namespace detail

/// Applies the import of `o` if its plan, recomputed now, hashes to `plan_integrity`
/// (`sha256:<hex>`); else errc::identity_changed and nothing is written. Places the
/// workspace and skill bundles (staged, published), then appends to the config, keeping the
/// previous one as `config.toml.bak-<time>`. Any failure undoes what this run did.
template <class Fs, class Schema = zeroclaw::schema_v3>
import_result apply_import(Fs& fs, const import_options& o, const std::string& plan_integrity,
                           const apply_options& a = {}) {
  import_result res;
  res.plan = plan_import<Fs, Schema>(fs, o);
  const import_plan& p = res.plan;
  if (p.plan_integrity != plan_integrity)
    throw error(errc::identity_changed,
                "the import plan changed since it was shown (the bundle or the install changed): "
                "it was " +
                    plan_integrity + ", it is now " + p.plan_integrity +
                    "; nothing was written. Review the new plan and apply it with its integrity",
                "plan_integrity");
  const timestamp now = o.now ? *o.now : from_time_point(std::chrono::system_clock::now());
  const zeroclaw::append_plan merged = zeroclaw::append_tables(
      p.config_before, p.additions, provenance_comment(p, now), o.config_path);

  auto root = fs.open_root(p.install_root);
  auto bundle_root = fs.open_root(p.bundle);
  detail::applier<Fs> ap{fs, root, p.plan_integrity.substr(7, 12), {}, {}};
  try {
    for (const placement& pl : p.placements) ap.place(bundle_root, pl, res.copied);
    if (a.sync && !p.placements.empty()) fs.sync_filesystem(root);
    if (a.before_config) a.before_config();
    // The config last, through the one append-only writer; the text it would write must
    // be exactly the planned one (else the config changed since planning).
    const std::string expected = merged.text;
    res.backup = zeroclaw::append_to_config(fs, o.config_path, merged.addition, now,
                                            [&](std::string_view text) {
                                              if (text != expected)
                                                throw error(errc::identity_changed,
                                                            "the config " + o.config_path +
                                                                " changed since the import was "
                                                                "planned; nothing was written",
                                                            o.config_path);
                                            })
                     .backup;
  } catch (...) {
    ap.rollback();
    throw;
  }
  // The secrets left blank, recorded beside the config so that exporting this agent before
  // they are supplied still lists them as required (issue 22 item 20).
  try {
    res.ledger = zeroclaw::record_secret_ledger(
        fs, p.install_root, o.config_path.substr(o.config_path.rfind('/') + 1), p.secrets);
  } catch (const error& e) {
    res.ledger_problem = e.what();
  }
  return res;
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
