// SPDX-License-Identifier: MIT
// Applying an import: the plan is recomputed from scratch and must hash to the integrity
// the operator was shown; each tree is copied with the export's safe copy into a staging
// directory beside its place, in path order, every byte hashed and checked against the
// bundle's digest list read again in the same order (copy_listed), the whole list against
// the plan's digest of it; then published by rename; the config is written last
// (append-only, zeroclaw/config_append.hpp). A failure at any step removes what this run
// published and staged, so the install is left exactly as it was.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/time.hpp"
#include "../digest/sha256.hpp"
#include "../fs/copy.hpp"
#include "../fs/modes.hpp"
#include "../fs/open_path.hpp"
#include "../fs/owner.hpp"
#include "../fs/policy.hpp"
#include "../fs/write_new_file.hpp"
#include "../plan/consent.hpp"
#include "../publish/intent.hpp"
#include "../publish/names.hpp"
#include "../publish/staged_dir.hpp"
#include "../publish/undo.hpp"
#include "../zeroclaw/config_append.hpp"
#include "../zeroclaw/secret_ledger.hpp"
#include "file_stream.hpp"
#include "plan.hpp"
#include "staged_copy.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <optional>
#include <string>
#include <type_traits>
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

/// Places the planned trees: each staged beside its place (a publish::staged_dir named by
/// the plan), then all published. Every step that changes the install records its undo in
/// `undo` (publish::undo_journal), so a failure at any later step, the config's included,
/// undoes them newest first (the journal is the last member: destroyed first, while the
/// trees its steps refer to still exist).
template <class Fs>
struct applier {
  using dir = typename Fs::dir;
  Fs& fs;
  const dir& root;
  std::string token;
  std::uint32_t umask;
  unsigned jobs;  ///< threads of each staged copy (import_options::jobs)
  /// The config's owner: every directory and file the import makes is given it (a root
  /// run leaves nothing root-owned in a user's install); none when there is no config.
  std::optional<fs::stat_info> owner;
  std::string owner_shown;  ///< the config's path, named when the owner cannot be given

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

  /// Opens (making what is missing) the directories above `parts.back()`; each one made is
  /// journalled for removal and given the install's owner.
  std::optional<dir> open_parents(const std::vector<std::string>& parts) {
    const std::vector<std::string> above(parts.begin(), parts.end() - 1);
    std::vector<std::string> fresh;
    const auto made = [this, &fresh](const std::string& rel) {
      undo.add(rel, [this, rel] {
        const std::optional<dir> opened = open_existing(paths::components(rel));
        fs.remove_dir_at(opened ? *opened : root, paths::file_name(rel));
      });
      fresh.push_back(rel);
    };
    fs::path_result<Fs> r = fs::try_open_path(fs, root, join(above), true, {}, made);
    if (r.refusal == fs::path_refusal::not_directory || r.refusal == fs::path_refusal::symlink)
      throw error(errc::destination_refused,
                  "cannot place the import: " + r.at + " is not a directory", r.at);
    if (!r.ok()) throw fs::path_error(r);
    if (owner)
      for (const std::string& rel : fresh)
        fs::give_dir(fs, *fs::open_path(fs, root, rel).dir, *owner, owner_shown);
    return std::move(r.dir);
  }

  static std::string join(const std::vector<std::string>& parts) {
    return paths::join_components(parts, false);
  }

  /// One tree staged beside its place, waiting to be published. Never moved (a deque
  /// element): its staging directory refers to its parent handle.
  struct staged_tree {
    std::vector<std::string> to;  ///< install-relative place
    bool was_empty_dir = false;   ///< the place held an empty directory (removed on publish)
    std::uint32_t empty_mode = fs::modes::dir;
    std::optional<dir> parent;
    std::optional<publish::staged_dir<Fs>> stage;  ///< after `parent`: destroyed first
    const dir& parent_dir(const dir& root) const { return parent ? *parent : root; }
  };
  std::deque<staged_tree> staged;
  std::vector<std::string> recovered;  ///< leftovers of a killed run of this plan, removed
  publish::undo_journal undo;

  /// Copies the bundle tree `pl.from` into a staging directory beside `pl.to`
  /// (install-relative), every byte checked against the next lines of the digest list.
  template <class List>
  void stage(const dir& bundle_root, const placement& pl, List& list, fs::copy_tally& tally) {
    staged_tree& t = staged.emplace_back();
    t.to = split(pl.to);
    t.parent = open_parents(t.to);
    const dir& parent = t.parent_dir(root);
    const std::string leaf = t.to.back();
    if (const auto st = fs.stat_at(parent, leaf)) {
      if (st->kind != fs::file_kind::directory || !fs.is_empty(fs.open_dir_at(parent, leaf)))
        throw error(errc::destination_refused,
                    pl.to + " appeared since the import was planned; nothing was written", pl.to);
      t.was_empty_dir = true;
      t.empty_mode = st->mode;
    }
    // The plan's name: a killed run's leftover is reclaimed, a running one refused.
    const std::vector<std::string> above(t.to.begin(), t.to.end() - 1);
    t.stage.emplace(fs, parent, publish::plan_named{token, leaf, join(above)});
    const std::string shown = paths::join(join(above), t.stage->name());
    if (t.stage->reclaimed()) recovered.push_back(shown);
    undo.add(shown, [&t] { t.stage.reset(); });
    fs::copying_sink<Fs> sink{fs};
    const fs::copy_tally c =
        copy_listed(fs, sink, bundle_root, pl.from, t.stage->handle(), list, umask, jobs);
    if (owner) fs::give_tree(fs, t.stage->handle(), *owner, owner_shown);
    tally.files += c.files;
    tally.bytes += c.bytes;
  }

  /// Renames every staged tree into its place (never replacing), once all are complete.
  void publish_all() {
    for (staged_tree& t : staged) {
      const dir& parent = t.parent_dir(root);
      const std::string& leaf = t.to.back();
      if (t.was_empty_dir) {
        fs.remove_dir_at(parent, leaf);
        undo.add(join(t.to), [this, &t] {
          if (!fs.stat_at(t.parent_dir(root), t.to.back()))
            fs.make_dir_at(t.parent_dir(root), t.to.back(), t.empty_mode);
        });
      }
      if (!t.stage->publish(parent, leaf))
        throw error(errc::destination_refused,
                    join(t.to) + " appeared since the import was planned; nothing was written",
                    join(t.to));
      undo.add(join(t.to), [this, &t] {
        t.stage->close();
        const std::optional<dir> opened = open_existing(t.to);
        fs.remove_tree_at(opened ? *opened : root, t.to.back());
      });
    }
  }

  /// Stages every placement, in path order, taking the digest list's lines (`list`, in
  /// path order) as it goes: each tree's files are checked against theirs.
  template <class List>
  void stage_all(const dir& bundle_root, const import_plan& p, List& list, fs::copy_tally& tally) {
    std::vector<const placement*> order;
    for (const placement& pl : p.placements) order.push_back(&pl);
    std::sort(order.begin(), order.end(), [](const placement* a, const placement* b) {
      return a->from + "/" < b->from + "/";  // the order of their files' paths
    });
    for (const placement* pl : order) {
      pass_before(bundle_root, p, list, pl->from + "/");
      stage(bundle_root, *pl, list, tally);
    }
    pass_before(bundle_root, p, list, "");
  }

  /// The tree of the bundle a file at `path` belongs to (`workspace`, `skills/<alias>`);
  /// empty for a file verify read itself (the bundle's root, directly below skills/).
  static std::string tree_of(const std::string& path) {
    const std::vector<std::string> parts = split(path);
    if (parts.size() < 2 || (parts[0] == bundle::skills_dir && parts.size() < 3)) return "";
    return parts[0] == bundle::skills_dir ? paths::join(parts[0], parts[1]) : parts[0];
  }

  /// Takes the lines before `limit` (all when it is empty). A tree no placement copies (a
  /// skill bundle a --map points at a local one) is read and checked when the plan left its
  /// bytes to the copy: every deferred byte is checked once, placed or not.
  template <class List>
  void pass_before(const dir& bundle_root, const import_plan& p, List& list,
                   const std::string& limit) {
    for (const digest::list_entry* e = list.peek();
         e != nullptr && (limit.empty() || e->path < limit); e = list.peek()) {
      const std::string tree = tree_of(e->path);
      if (tree.empty()) {
        list.pop();
      } else if (p.bytes_deferred) {
        fs::discarding_sink<Fs> sink{fs};
        copy_listed(fs, sink, bundle_root, tree, {}, list, 0, jobs);
      } else {
        const std::string prefix = tree + "/";
        while (e != nullptr && e->path.compare(0, prefix.size(), prefix) == 0) {
          list.pop();
          e = list.peek();
        }
      }
    }
  }

  std::optional<dir> open_existing(const std::vector<std::string>& parts) {
    if (parts.empty()) return std::nullopt;
    return fs::open_path(fs, root, join({parts.begin(), parts.end() - 1})).dir;
  }
};

/// A killed run of the plan `plan_integrity` may have placed its trees and died before it
/// wrote the config: its intent (publish/intent.hpp) in the install is resolved first, so
/// this run plans against the install as it was (or as the killed run committed it). One a
/// running import holds is refused; returns what was done.
template <class Fs>
std::vector<std::string> resolve_killed_run(Fs& fs, const import_options& o,
                                            const std::string& plan_integrity) {
  const std::string token = digest::short_form(plan_integrity);
  if (!publish::detail::lower_hex_token(token)) return {};  // not a plan's: refused below
  const std::string name = publish::import_intent_name(token);
  std::optional<typename Fs::dir> root;
  try {
    root.emplace(fs.open_root(zeroclaw::install_root_of(o.config_path)));
  } catch (const error&) {
    return {};  // no install yet: planning says so
  }
  const auto st = fs.stat_at(*root, name);
  if (!st || st->kind != fs::file_kind::directory) return {};
  const std::string install_root = zeroclaw::install_root_of(o.config_path);
  publish::rows_undo undo_rows;  // a killed --with-memory's rows (memory_step.hpp)
  if (o.memory)
    undo_rows = [&o, &install_root](const std::string& store, const std::string& agent) {
      (void)o.memory.remove_agent(paths::join(install_root, store), agent);
    };
  const publish::intent_outcome r = publish::resolve_intent(fs, *root, name, undo_rows);
  if (r.busy) throw publish::plan_busy(name);
  if (r.unclear)
    throw error(errc::destination_refused, r.actions.front() + "; nothing was written", name);
  return r.actions;
}

/// The intent of publishing `ap`'s staged trees and then committing the config at
/// `config_path` with the provenance comment `provenance` (its first line the marker).
template <class Fs>
publish::intent_record intent_of(Fs& fs, const applier<Fs>& ap, const std::string& config_path,
                                 const std::string& provenance, const import_plan& p,
                                 const std::string& memory_agent) {
  publish::intent_record r;
  if (p.memory && !p.memory->store.empty()) {
    r.rows_store = p.memory->store;
    r.rows_agent = memory_agent;
  }
  r.commit_file = paths::file_name(config_path);
  if (const auto st = fs.stat_at(ap.root, r.commit_file)) r.before = st->id;
  r.marker = provenance.substr(0, provenance.find('\n'));
  for (const auto& t : ap.staged)
    r.trees.push_back({applier<Fs>::join(t.to), t.stage->id(), t.was_empty_dir,
                       t.was_empty_dir ? t.empty_mode : fs::modes::dir});
  return r;
}

/// The memory step (memory_step.hpp), inside the intent: the store's directories made when
/// missing, the undo recorded first (removing rows that were never added removes none),
/// then the one transaction.
template <class Fs>
void apply_memory(applier<Fs>& ap, const import_options& o, const import_plan& p,
                  const std::string& agent, const std::string& now) {
  const std::vector<std::string> parts = applier<Fs>::split(p.memory->store);
  const std::optional<typename Fs::dir> dir = ap.open_parents(parts);  // undone after the store
  if (p.memory->create && !ap.fs.stat_at(dir ? *dir : ap.root, parts.back())) {
    // A store this run creates goes again on undo, with whatever SQLite left beside it.
    ap.undo.add(p.memory->store, [&ap, parts] {
      const std::optional<typename Fs::dir> d = ap.open_existing(parts);
      for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
        const std::string name = parts.back() + suffix;
        if (ap.fs.stat_at(d ? *d : ap.root, name)) ap.fs.unlink_at(d ? *d : ap.root, name);
      }
    });
  }
  const std::string path = paths::join(p.install_root, p.memory->store);
  ap.undo.add(path, [&o, path, agent] { (void)o.memory.remove_agent(path, agent); });
  merge_memory(o.memory, p.install_root, *p.memory, p.alias, agent, now,
               bundle_rows(ap.fs, p.bundle, p.memory->jsonl_sha256, o.limits.max_memory_bytes));
}

/// Creates the file `parts` (from `parts[i]` on) below `d`, making its directories: inside a
/// staged tree this run made, so every name is new.
template <class Fs>
void write_below(Fs& fs, const typename Fs::dir& d, const std::vector<std::string>& parts,
                 std::size_t i, const std::string& text) {
  if (i + 1 == parts.size()) {
    fs::write_new_file(fs, d, parts[i], text, fs::modes::file);
    return;
  }
  if (!fs.stat_at(d, parts[i])) fs.make_dir_at(d, parts[i], fs::modes::dir);
  write_below(fs, fs.open_dir_at(d, parts[i]), parts, i + 1, text);
}

/// The Markdown backend's files of the new agent (memory_merge::markdown) written into its
/// staged workspace, before anything is published: they are placed, or undone, with it.
template <class Fs>
void stage_markdown_memory(applier<Fs>& ap, const import_plan& p) {
  const std::vector<std::string> ws = applier<Fs>::split(zeroclaw::default_workspace(p.alias));
  for (auto& t : ap.staged) {
    if (t.to != ws) continue;
    for (const auto& [path, text] : p.memory->markdown)
      write_below(ap.fs, t.stage->handle(), applier<Fs>::split(path), 0, text);
    if (ap.owner) fs::give_tree(ap.fs, t.stage->handle(), *ap.owner, ap.owner_shown);
    return;
  }
}

/// Stages the plan's trees (applier::stage_all) against the bundle's digest list read
/// again in path order (or the entries the plan kept), then checks that the whole list is
/// the stream the plan was made with: a list rewritten since is refused, nothing published.
template <class Fs>
void stage_trees(Fs& fs, applier<Fs>& ap, const typename Fs::dir& bundle_root, const import_plan& p,
                 const import_options& o, fs::copy_tally& tally) {
  const verify::limits& lim = o.limits;
  const auto run = [&](auto& source) {
    hashed_stream<std::remove_reference_t<decltype(source)>> list(source);
    std::uint64_t taken = 0;
    if (o.on_progress || o.cancelled)
      list.on_pop = [&o, &taken, &p] {
        check_cancelled(o);
        if (o.on_progress) o.on_progress("copying", ++taken, p.files.listed);
      };
    ap.stage_all(bundle_root, p, list, tally);
    if (list.finish() != p.files.sha256)
      throw stream_changed("its digest list is not the one the plan was made with");
  };
  if (!p.files.streamed) {
    verify::list_in_memory kept(p.files.kept);
    return run(kept);
  }
  auto f = verify::open_list(fs, bundle_root, lim);
  if (!f) throw stream_changed("its digest list is gone or was replaced");
  verify::list_cursor<Fs> cursor(fs, std::move(*f));
  run(cursor);
}

}  // namespace detail

/// Applies the import of `o` with the consent `c` (plan/consent.hpp, as every command that
/// applies a plan): `--yes`, and the plan recomputed now must hash to its integrity
/// (`sha256:<hex>`); else the one refusal (errc::consent_required, plan_integrity_required
/// or plan_integrity_mismatch, plan::message) and nothing is written. Places the
/// workspace and skill bundles (staged, published), then appends to the config, keeping the
/// previous one as `config.toml.bak-<time>`. Any failure undoes what this run did.
template <class Fs, class Schema = zeroclaw::schema_v3>
import_result apply_import(Fs& fs, const import_options& o, const clawport::plan::consent& c,
                           const apply_options& a = {}) {
  const clawport::plan::subject subject{
      "import", "the same command without --yes to see the new plan", true, ""};
  if (auto r = clawport::plan::check_given(c))
    throw clawport::plan::refusal_error(*r, subject, "plan_integrity");
  import_result res;
  const std::vector<std::string> resolved = detail::resolve_killed_run(fs, o, *c.plan_integrity);
  // Planned with the trees' bytes left to the copy that stages them (each hashed as it is
  // copied and compared with the digest list): every byte of the bundle is read once.
  res.plan = detail::plan<Fs, Schema>(fs, o, true);
  const import_plan& p = res.plan;
  if (auto r = clawport::plan::check_integrity(*c.plan_integrity, p.plan_integrity))
    throw clawport::plan::refusal_error(*r, subject, "plan_integrity");
  const timestamp now = o.now ? *o.now : clock_now();
  const std::string provenance = provenance_comment(p, now);
  const zeroclaw::append_plan merged =
      zeroclaw::append_tables(p.config_before, p.additions, provenance, o.config_path);

  auto root = fs.open_root(p.install_root);
  auto bundle_root = fs.open_root(p.bundle);
  detail::applier<Fs> ap{fs,
                         root,
                         digest::short_form(p.plan_integrity),
                         o.umask,
                         o.jobs,
                         fs.stat_at(root, paths::file_name(o.config_path)),
                         o.config_path,
                         {},
                         {},
                         {}};
  // The intent (publish/intent.hpp): recorded before the first tree is published, removed
  // once the config is written or everything was undone; after `ap`, so destroyed first.
  std::optional<publish::staged_dir<Fs>> intent;
  try {
    // Every tree is staged (the long part) before any is published, so a run killed while
    // copying leaves only staging directories, which a re-run of the plan recognises.
    detail::stage_trees(fs, ap, bundle_root, p, o, res.copied);
    if (p.memory && !p.memory->markdown.empty()) detail::stage_markdown_memory(ap, p);
    detail::check_cancelled(o);  // the last point before the install changes
    const std::string memory_agent = p.memory ? memory::new_uuid() : std::string();
    if (!p.placements.empty() || p.memory) {
      intent.emplace(fs, root, publish::import_intent_name(ap.token), fs::modes::private_dir);
      publish::write_intent(fs, intent->handle(),
                            detail::intent_of(fs, ap, o.config_path, provenance, p, memory_agent));
    }
    if (a.sync && (!p.placements.empty() || p.memory)) fs.sync_filesystem(root);
    ap.publish_all();
    if (p.memory && !p.memory->store.empty())
      detail::apply_memory(ap, o, p, memory_agent, format_rfc3339(now));
    res.recovered = ap.recovered;
    res.recovered.insert(res.recovered.end(), resolved.begin(), resolved.end());
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
    // Best effort: a crash or second failure leaves it for `recover`, and with it the
    // intent that tells recover what to undo.
    if (!ap.undo.run().empty() && intent) intent->release();
    throw;
  }
  ap.undo.commit();
  // The secrets left blank, recorded beside the config so that exporting this agent before
  // they are supplied still lists them as required (issue 22 item 20).
  try {
    res.ledger = zeroclaw::record_secret_ledger(fs, p.install_root, paths::file_name(o.config_path),
                                                p.secrets);
  } catch (const error& e) {
    res.ledger_problem = e.what();
  }
  return res;
}

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
