// SPDX-License-Identifier: MIT
// Applying an import: the plan is recomputed from scratch and must hash to the integrity
// the operator was shown; each tree is copied with the export's safe copy into a staging
// directory beside its place, every byte hashed against the verified digest list in the
// same pass (copy_verified), and published by rename; the config is written last
// (append-only, zeroclaw/config_append.hpp). A failure at any step removes what this run
// published and staged, so the install is left exactly as it was.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../digest/sha256.hpp"
#include "../fs/copy.hpp"
#include "../fs/policy.hpp"
#include "../plan/consent.hpp"
#include "../publish/names.hpp"
#include "../zeroclaw/config_append.hpp"
#include "../zeroclaw/secret_ledger.hpp"
#include "plan.hpp"
#include "staged_copy.hpp"

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
  /// Staging directories a killed run of this same plan left, which this run removed.
  std::vector<std::string> recovered;
};

/// How apply writes (test seams included).
struct apply_options {
  bool sync = true;
  std::function<void()> before_config;  ///< after the trees are published, before the config
};

namespace detail {

template <class Fs>
struct applier {
  using dir = typename Fs::dir;
  Fs& fs;
  const dir& root;
  std::string token;
  const std::vector<verify::bundle_file>& files;  ///< the bundle as verified and planned
  std::uint32_t umask;
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

  /// One tree staged beside its place, waiting to be published.
  struct staged_tree {
    std::vector<std::string> to;  ///< install-relative place
    std::string name;             ///< the staging directory's name, beside the place
    bool was_empty_dir = false;   ///< the place held an empty directory (removed on publish)
    std::uint32_t empty_mode = 0755;
    std::optional<dir> parent;
    std::optional<dir> handle;  ///< open and locked while this run works in it
    bool published = false;
  };
  std::vector<staged_tree> staged;
  std::vector<std::string> recovered;  ///< leftovers of a killed run of this plan, removed

  /// Makes the staging directory `name` in `parent` and locks it. One that exists is this
  /// plan's (the token is the plan's): unlocked, it is a killed run's leftover and is
  /// removed; locked, another run of this plan is working in it and the import is refused.
  dir make_staging(const dir& parent, const std::string& name, const std::string& shown) {
    if (const auto st = fs.stat_at(parent, name)) {
      if (st->kind != fs::file_kind::directory)
        throw error(errc::destination_refused,
                    shown + " exists and is not a directory an import made; nothing was written",
                    shown);
      {
        dir old = fs.open_dir_at(parent, name);
        if (!fs.try_lock(old))
          throw error(errc::destination_refused,
                      "another import of this plan is running (it holds " + shown +
                          "); nothing was written",
                      shown);
      }
      fs.remove_tree_at(parent, name);
      recovered.push_back(shown);
    }
    fs.make_dir_at(parent, name, 0755);
    try {
      dir d = fs.open_dir_at(parent, name);
      if (!fs.try_lock(d))
        throw error(
            errc::destination_refused,
            "another import of this plan is running (it holds " + shown + "); nothing was written",
            shown);
      return d;
    } catch (...) {
      try {
        fs.remove_dir_at(parent, name);
      } catch (...) {  // a crash leaves it for the retry or `recover`
      }
      throw;
    }
  }

  /// Copies the bundle tree `pl.from` into a staging directory beside `pl.to`
  /// (install-relative), every byte checked against the verified digest list.
  void stage(const dir& bundle_root, const placement& pl, fs::copy_tally& tally) {
    staged_tree t;
    t.to = split(pl.to);
    t.parent = open_parents(t.to);
    const dir& parent = t.parent ? *t.parent : root;
    const std::string leaf = t.to.back();
    if (const auto st = fs.stat_at(parent, leaf)) {
      if (st->kind != fs::file_kind::directory || !fs.is_empty(fs.open_dir_at(parent, leaf)))
        throw error(errc::destination_refused,
                    pl.to + " appeared since the import was planned; nothing was written", pl.to);
      t.was_empty_dir = true;
      t.empty_mode = st->mode;
    }
    t.name = publish::import_staging_name(token, leaf);
    std::vector<std::string> shown_parts(t.to.begin(), t.to.end() - 1);
    shown_parts.push_back(t.name);
    t.handle.emplace(make_staging(parent, t.name, join(shown_parts)));
    staged.push_back(std::move(t));
    fs::copying_sink<Fs> sink{fs};
    const fs::copy_tally c =
        copy_verified(fs, sink, bundle_root, pl.from, *staged.back().handle, files, umask);
    tally.files += c.files;
    tally.bytes += c.bytes;
  }

  /// Renames every staged tree into its place (no-replace), once all are complete.
  void publish_all() {
    for (staged_tree& t : staged) {
      const dir& parent = t.parent ? *t.parent : root;
      const std::string& leaf = t.to.back();
      if (t.was_empty_dir) fs.remove_dir_at(parent, leaf);
      const auto r = fs.rename_at(parent, t.name, parent, leaf, fs::rename_mode::noreplace);
      if (r == fs::rename_result::unsupported)
        fs.rename_at(parent, t.name, parent, leaf, fs::rename_mode::replace);
      t.published = true;
      published.push_back({t.to, t.was_empty_dir});
    }
  }

  /// Best-effort undo of everything this run staged, published or created, newest first.
  void rollback() noexcept {
    for (auto it = staged.rbegin(); it != staged.rend(); ++it) {
      it->handle.reset();
      try {
        const dir& parent = it->parent ? *it->parent : root;
        if (!it->published && fs.stat_at(parent, it->name)) fs.remove_tree_at(parent, it->name);
        if (!it->published && it->was_empty_dir && !fs.stat_at(parent, it->to.back()))
          fs.make_dir_at(parent, it->to.back(), it->empty_mode);
      } catch (...) {  // a crash or second failure leaves it for the retry or `recover`
      }
    }
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
  if (auto r = clawport::plan::check_integrity(plan_integrity, p.plan_integrity))
    throw error(errc::identity_changed,
                clawport::plan::message(*r, {"import", "clawport import --dry-run", true}),
                "plan_integrity");
  const timestamp now = o.now ? *o.now : clock_now();
  const zeroclaw::append_plan merged = zeroclaw::append_tables(
      p.config_before, p.additions, provenance_comment(p, now), o.config_path);

  auto root = fs.open_root(p.install_root);
  auto bundle_root = fs.open_root(p.bundle);
  detail::applier<Fs> ap{fs, root, digest::short_form(p.plan_integrity), p.files, o.umask, {}, {},
                         {}, {}};
  try {
    // Every tree is staged (the long part) before any is published, so a run killed while
    // copying leaves only staging directories, which a re-run of the plan recognises.
    for (const placement& pl : p.placements) ap.stage(bundle_root, pl, res.copied);
    if (a.sync && !p.placements.empty()) fs.sync_filesystem(root);
    ap.publish_all();
    res.recovered = ap.recovered;
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
