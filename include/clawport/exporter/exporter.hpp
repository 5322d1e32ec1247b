// SPDX-License-Identifier: MIT
// basic_exporter: the whole export in the order of docs/library.md, Exporting. Plan (pure), resolve
// the destination and refuse overlaps before anything is created, open the parent once, admit the
// destination bound to its identity, stage beside it under a lock, copy the workspace then the
// skills, drop an identity document the copy did not carry, validate and write config.toml, record
// skill bundles without content, write the manifest, flush, publish. Any failure before the publish
// commits removes the staging tree; the destination is left as it was.
#pragma once

#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../digest/list.hpp"
#include "../digest/sha256.hpp"
#include "../fs/anchored.hpp"
#include "../fs/copy.hpp"
#include "../fs/policy.hpp"
#include "../fs/posix.hpp"
#include "../names/grammar.hpp"
#include "../publish/admission.hpp"
#include "../publish/names.hpp"
#include "../publish/policy.hpp"
#include "../publish/staged_swap.hpp"
#include "../skills/loader.hpp"
#include "../zeroclaw/closure.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "../zeroclaw/plan.hpp"
#include "../zeroclaw/render.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "destination.hpp"
#include "result.hpp"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

/// What to export and how.
struct export_options {
  std::string alias;        ///< the agent to export
  std::string config_path;  ///< absolute path of the install's config.toml
  std::string out;          ///< --out as the user typed it (used in messages and the report)
  std::string out_path;     ///< `out` made absolute (lexically, `..` kept); empty = `out`
  bool force = false;       ///< replace a non-empty destination directory
  bool sync = true;         ///< flush the staged tree (one syncfs) and fsync the parent
  std::string token;        ///< staging token; empty = random (tests inject one)
  std::optional<timestamp> exported_at;  ///< provenance time; empty = the clock
  /// Test seam: runs once the staged bundle is complete, just before publishing.
  std::function<void()> before_publish;
  /// Called for every workspace entry the copy visits (for a progress line).
  std::function<void(std::uint64_t entries)> on_progress;
};

namespace exporter_detail {

inline copy_counts counts_of(const fs::copy_tally& t) {
  copy_counts c;
  c.files = t.files;
  c.bytes = t.bytes;
  c.symlinks = t.symlinks_skipped;
  c.special = t.others_skipped;
  c.hard_links = t.hard_links_skipped;
  c.replaced = t.replaced_skipped;
  return c;
}

inline std::string join_path(const std::string& base, const std::string& rel) {
  return paths::join(base.empty() ? "/" : base, rel);
}

inline error wrapped(const error& e, const std::string& what, const std::string& subject) {
  return error(e.code(), what + ": " + e.what(), subject, e.sys_errno());
}

/// Reads a whole file through the Fs policy.
template <class Fs>
std::string read_text(Fs& fs, const std::string& dir_path, const std::string& name) {
  const std::string shown = join_path(dir_path, name);
  try {
    auto d = fs.open_root(dir_path);
    auto f = fs.open_file_at(d, name);
    std::string text;
    char buf[16384];
    for (;;) {
      const std::size_t n = fs.read(f, buf, sizeof buf);
      if (n == 0) break;
      text.append(buf, n);
    }
    return text;
  } catch (const error& e) {
    throw wrapped(e, "failed to read the config " + shown, shown);
  }
}

/// Creates `name` in the staging directory with `text` as its content.
template <class Fs>
void write_text(Fs& fs, const typename Fs::dir& d, std::string_view name, const std::string& text) {
  try {
    auto f = fs.create_file_at(d, name, 0644);
    fs.write_all(f, text.data(), text.size());
  } catch (const error& e) {
    throw wrapped(e, "failed to write " + std::string(name) + " in the bundle", std::string(name));
  }
}

/// `is_file` of `workspace/<relative>` inside the staged tree, walked through handles.
template <class Fs>
bool staged_regular_file(Fs& fs, const typename Fs::dir& root, const std::string& relative) {
  std::vector<std::string> parts = components(relative);
  if (parts.empty()) return false;
  std::optional<typename Fs::dir> cur;
  try {
    cur.emplace(fs.open_dir_at(root, "workspace"));
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      const auto st = fs.stat_at(*cur, parts[i]);
      if (!st || st->kind != fs::file_kind::directory) return false;
      cur.emplace(fs.open_dir_at(*cur, parts[i]));
    }
    const auto st = fs.stat_at(*cur, parts.back());
    return st && st->kind == fs::file_kind::regular;
  } catch (const error& e) {
    if (e.code() == errc::not_found || e.sys_errno() == ENOTDIR) return false;
    throw wrapped(e, "failed to inspect workspace/" + relative + " in the bundle",
                  "workspace/" + relative);
  }
}

/// The dry run's stand-in for the copy: walks a source tree exactly as copy_tree would
/// (filter, classification, nofollow open, hard-link and identity checks) without writing.
template <class Fs>
void count_tree(Fs& fs, const typename Fs::dir& src, const std::string& root, std::string rel,
                const fs::entry_filter& filter, fs::copy_tally& t, std::size_t depth) {
  std::vector<std::string> names;
  fs.for_each_entry(src, [&](std::string_view n) { names.emplace_back(n); });
  for (const std::string& name : names) {
    const std::string child = rel.empty() ? name : rel + "/" + name;
    const std::string shown = root + "/" + child;
    if (filter && !filter(child)) continue;
    std::optional<fs::stat_info> info;
    try {
      info = fs.stat_at(src, name);
    } catch (const error& e) {
      throw wrapped(e, "failed to stat " + shown, shown);
    }
    if (!info) continue;
    if (info->kind == fs::file_kind::symlink) {
      ++t.symlinks_skipped;
    } else if (info->kind == fs::file_kind::other) {
      ++t.others_skipped;
    } else if (info->kind == fs::file_kind::directory) {
      if (depth + 1 > CLAWPORT_MAX_TREE_DEPTH) {
        throw error(errc::limit_exceeded, "failed to copy " + shown + ": the tree is too deep",
                    shown);
      }
      std::optional<typename Fs::dir> d;
      try {
        d.emplace(fs.open_dir_at(src, name));
      } catch (const error& e) {
        throw wrapped(e, "failed to open " + shown, shown);
      }
      if (fs.stat(*d).id != info->id) {
        ++t.replaced_skipped;
        continue;
      }
      count_tree(fs, *d, root, child, filter, t, depth + 1);
    } else {
      std::optional<typename Fs::file> f;
      try {
        f.emplace(fs.open_file_at(src, name));
      } catch (const error& e) {
        throw wrapped(e, "failed to open " + shown, shown);
      }
      const fs::stat_info opened = fs.stat(*f);
      if (opened.kind != fs::file_kind::regular) continue;
      if (opened.nlink > 1) {
        ++t.hard_links_skipped;
      } else if (opened.id != info->id) {
        ++t.replaced_skipped;
      } else {
        ++t.files;
        t.bytes += opened.size;
      }
    }
  }
}

/// The name a bundle's include/exclude is matched against: the skill's logical name, read
/// the way `skills list --agent` reads it (skills::skill_name_at), so the export carries
/// exactly the skills the runtime loads from the bundle.
struct logical_skill_name {
  template <class Fs>
  std::string operator()(Fs& fs, const typename Fs::dir& skill, std::string_view dir_name) const {
    return skills::skill_name_at(fs, skill, dir_name);
  }
};

/// Hashes every file the copy writes, on its way (one read of each source byte), and
/// collects the bundle's digest list.
class digest_sink final : public fs::copy_sink {
 public:
  void begin_file(std::string_view bundle_path) override {
    path_.assign(bundle_path.data(), bundle_path.size());
    hash_.reset();
  }
  void bytes(const char* data, std::size_t size) override { hash_.update(data, size); }
  void end_file() override { entries.push_back({path_, digest::to_hex(hash_.finish())}); }
  /// A file the exporter writes from memory (config.toml, the manifest).
  void add_text(std::string_view name, std::string_view text) {
    entries.push_back({std::string(name), digest::sha256_hex(text)});
  }

  std::vector<digest::list_entry> entries;

 private:
  digest::sha256 hash_;
  std::string path_;
};

inline void add(fs::copy_tally& into, const fs::copy_tally& t) {
  into.files += t.files;
  into.bytes += t.bytes;
  into.symlinks_skipped += t.symlinks_skipped;
  into.others_skipped += t.others_skipped;
  into.hard_links_skipped += t.hard_links_skipped;
  into.replaced_skipped += t.replaced_skipped;
}

}  // namespace exporter_detail

/// The exporter, parameterised by the four policies of DESIGN.md. Holds a reference to the
/// Fs backend (which carries any state: a memory tree, injected faults).
template <class Fs = fs::posix, class Schema = zeroclaw::schema_v3,
          class Publish = publish::staged_swap, class Names = names::portable>
class basic_exporter {
  static_assert(fs::check_policy<Fs>());
  static_assert(publish::check_policy<Publish, Fs>());

 public:
  using fs_type = Fs;
  using dir = typename Fs::dir;

  explicit basic_exporter(Fs& fs) : fs_(fs) {}

  /// Runs the export (or, with a Publish policy whose `writes` is false, the dry run).
  export_result run(const export_options& o) {
    namespace ed = exporter_detail;
    export_result res;
    res.alias = o.alias;
    res.out = o.out;
    res.dry_run = !Publish::writes;

    // Plan: pure, before any filesystem work (unknown agent, ciphertext refuse here).
    const auto config = ed::split_parent(o.config_path);
    if (o.config_path.empty() || o.config_path.front() != '/' || !config) {
      throw error(errc::invalid_argument,
                  "the config path must be an absolute file path: " + o.config_path, o.config_path);
    }
    const std::string install_root = config->first;
    const std::string text = ed::read_text(fs_, install_root, config->second);
    zeroclaw::plan_options popts;
    popts.install_root = install_root;
    res.plan = zeroclaw::plan_export<Schema, Names>(text, o.alias, popts);
    zeroclaw::export_plan& plan = res.plan;

    // docs/library.md, Exporting: `..` refusals, then overlap (contains before inside, workspace
    // first).
    const std::string out_abs = o.out_path.empty() ? o.out : o.out_path;
    res.destination = ed::resolve_path(fs_, out_abs, o.out);
    // A configured workspace is used as written (relative paths are taken from the install
    // root); the default one is `agents/<alias>/workspace` under it.
    const std::string ws_planned = ed::join_path(install_root, plan.workspace.path);
    std::vector<ed::overlap_source> overlaps;
    overlaps.push_back({true, "", ws_planned, ed::resolve_path(fs_, ws_planned, ws_planned)});
    std::vector<fs::skill_source> skills;
    for (const zeroclaw::skill_source& s : plan.skill_sources) {
      const std::string planned = ed::normalize_lexically(ed::join_path(install_root, s.relative));
      overlaps.push_back({false, s.alias, planned, ed::resolve_path(fs_, planned, planned)});
      const zeroclaw::skill_filter filter = s.filter;
      skills.push_back(fs::skill_source{
          s.alias, planned, s.relative,
          [filter](std::string_view skill) { return filter.admits_skill(skill); }});
    }
    ed::reject_overlap(res.destination, o.out, overlaps);
    const auto place = ed::split_parent(res.destination);
    if (!place) {
      throw error(errc::destination_refused,
                  "destination " + o.out + " has no parent directory to stage the bundle beside",
                  o.out);
    }
    const std::string& parent_path = place->first;
    const std::string& name = place->second;
    const publish::destination_names names{o.out, res.destination};
    const timestamp exported_at =
        o.exported_at ? *o.exported_at : from_time_point(std::chrono::system_clock::now());
    res.exported_at = format_rfc3339(exported_at);

    if constexpr (!Publish::writes) {
      dry_run(o, res, install_root, ws_planned, skills, parent_path, name, names, exported_at);
      return res;
    } else {
      // Steps 3-4: create the parent (before admission, as upstream) and open it once.
      dir parent = open_parent(parent_path, true);
      // Step 5: admission bound to identity; hold the admitted directory locked so two
      // exports never publish over each other.
      publish::admitted<Fs> adm = publish::admit(fs_, parent, name, o.force, names);
      if (adm.handle && !fs_.try_lock(*adm.handle)) {
        throw error(errc::destination_refused,
                    "destination " + o.out +
                        " is being replaced by another export that is still running; nothing "
                        "was written",
                    o.out);
      }
      // Step 6: the staging directory beside the destination, locked for the whole run
      // so `recover` never removes it under us.
      std::string staging;
      fs::file_id stage_id;
      dir stage = make_staging(parent, o.token, staging, stage_id);
      try {
        publish::request req;
        stage_bundle(o, res, install_root, ws_planned, skills, stage, exported_at, req.sources);
        if (o.sync) {
          try {
            fs_.sync_filesystem(stage);
          } catch (const error& e) {
            throw ed::wrapped(e, "failed to flush the staged bundle to disk", staging);
          }
        }
        if (o.before_publish) o.before_publish();
        // The staged name must still be the directory this export filled.
        const auto now = fs_.stat_at(parent, staging);
        if (!now || now->id != stage_id) {
          throw error(errc::identity_changed,
                      "the staging directory " + staging +
                          " was replaced while the export ran; nothing was published",
                      staging);
        }
        req.staging = staging;
        req.destination = name;
        req.names = names;
        req.adm = adm.adm;
        req.sync = o.sync;
        res.publish = Publish::publish(fs_, parent, req);
      } catch (...) {
        remove_staging(parent, staging, stage_id);
        throw;
      }
      return res;
    }
  }

 private:
  /// mkdir -p of the parent through handles (the resolved path has no symlink below its
  /// nearest existing ancestor), returning the parent's handle.
  dir open_parent(const std::string& path, bool create) {
    namespace ed = exporter_detail;
    const std::vector<std::string> parts = ed::components(path);
    std::size_t existing = parts.size();
    while (existing > 0 && !fs_.canonical(ed::join(parts, existing))) --existing;
    const std::string base = ed::join(parts, existing);
    std::optional<dir> cur;
    try {
      cur.emplace(fs_.open_root(base));
    } catch (const error& e) {
      throw ed::wrapped(e, "failed to open " + base, base);
    }
    if (existing < parts.size() && !create) {
      throw error(errc::not_found, "failed to open " + path, path);
    }
    try {
      for (std::size_t i = existing; i < parts.size(); ++i) {
        try {
          fs_.make_dir_at(*cur, parts[i], 0755);
        } catch (const error& e) {
          if (e.sys_errno() != EEXIST) throw;
        }
        cur.emplace(fs_.open_dir_at(*cur, parts[i]));
      }
    } catch (const error& e) {
      throw ed::wrapped(e, "failed to create destination parent " + path, path);
    }
    return std::move(*cur);
  }

  dir make_staging(const dir& parent, const std::string& injected, std::string& staging,
                   fs::file_id& id) {
    namespace ed = exporter_detail;
    for (int attempt = 0;; ++attempt) {
      staging = publish::staging_name(injected.empty() ? publish::random_token() : injected);
      try {
        fs_.make_dir_at(parent, staging, 0700);
        break;
      } catch (const error& e) {
        if (e.sys_errno() == EEXIST && injected.empty() && attempt < 16) continue;
        throw ed::wrapped(e, "failed to create the staging directory " + staging, staging);
      }
    }
    std::optional<dir> stage;
    try {
      stage.emplace(fs_.open_dir_at(parent, staging));
      id = fs_.stat(*stage).id;
      if (!fs_.try_lock(*stage)) {
        throw error(errc::identity_changed,
                    "the staging directory " + staging + " is locked by another process", staging);
      }
    } catch (const error& e) {
      stage.reset();
      try {
        fs_.remove_dir_at(parent, staging);
      } catch (const error&) {
        // it stays behind as an empty staging directory `recover` removes
      }
      throw ed::wrapped(e, "failed to open the staging directory " + staging, staging);
    }
    return std::move(*stage);
  }

  /// Best-effort removal of this export's staging tree, only if the name still is it.
  /// Swallows everything: a failed cleanup must not mask the error being reported.
  void remove_staging(const dir& parent, const std::string& staging,
                      const fs::file_id& id) noexcept {
    try {
      const auto st = fs_.stat_at(parent, staging);
      if (st && st->id == id) fs_.remove_tree_at(parent, staging);
    } catch (...) {
      // a crash (or a second failure) leaves it for `clawport recover`
    }
  }

  /// Opens the workspace root as the plan says (anchored, or the configured path).
  fs::root_result<Fs> open_workspace(const std::string& install_root,
                                     const zeroclaw::export_plan& plan,
                                     const std::string& planned) {
    if (plan.workspace.configured) return fs::open_configured_root(fs_, planned);
    return fs::open_anchored_root(fs_, install_root, plan.workspace.path, "agents");
  }

  fs::copy_spec workspace_spec(const export_options& o, std::uint64_t& entries) {
    fs::copy_spec spec{std::string(zeroclaw::workspace_dir), zeroclaw::workspace_entry_included};
    if (o.on_progress) {
      fs::entry_filter base = spec.filter;
      spec.filter = [base, &entries, &o](std::string_view rel) {
        o.on_progress(++entries);
        return base(rel);
      };
    }
    return spec;
  }

  /// Steps 7-10: copy, identity check, config.toml, skill bookkeeping, manifest.
  void stage_bundle(const export_options& o, export_result& res, const std::string& install_root,
                    const std::string& ws_planned, const std::vector<fs::skill_source>& skills,
                    const dir& stage, const timestamp& exported_at,
                    std::vector<fs::file_id>& sources) {
    namespace ed = exporter_detail;
    zeroclaw::export_plan& plan = res.plan;
    fs::copy_tally ws_tally;
    ed::digest_sink digests;
    {
      fs::root_result<Fs> root = open_workspace(install_root, plan, ws_planned);
      if (root.status == fs::root_status::symlinked || root.status == fs::root_status::escaped) {
        throw fs::workspace_root_refusal(root, ws_planned);
      }
      if (root.opened()) {
        sources.push_back(root.id);
        std::optional<dir> ws;
        try {
          fs_.make_dir_at(stage, zeroclaw::workspace_dir, 0777);
          ws.emplace(fs_.open_dir_at(stage, zeroclaw::workspace_dir));
        } catch (const error& e) {
          throw ed::wrapped(e, "failed to create workspace in the bundle", "workspace");
        }
        std::uint64_t entries = 0;
        fs::copy_spec spec = workspace_spec(o, entries);
        spec.sink = &digests;
        fs::copy_tree(fs_, *root.handle, *ws, spec, ws_tally);
      }
    }
    res.workspace = ed::counts_of(ws_tally);
    const fs::skill_copy_result carried = fs::copy_skill_bundles(
        fs_, install_root, skills, stage, ed::logical_skill_name{}, &digests);
    sources.insert(sources.end(), carried.sources.begin(), carried.sources.end());
    res.skills = ed::counts_of(carried.tally);
    res.skill_bundles = carried.bundles;

    // Step 8: an identity document the copy did not carry is dropped (row 17).
    if (plan.identity_document && !ed::staged_regular_file(fs_, stage, *plan.identity_document)) {
      zeroclaw::record_missing_identity_document(plan);
    }
    // Step 9: validate and write config.toml (after the identity drop is folded in).
    const std::string config_text = zeroclaw::render_config_toml<Schema>(plan);
    ed::write_text(fs_, stage, zeroclaw::config_file, config_text);
    digests.add_text(zeroclaw::config_file, config_text);
    // Step 10: skill bundles that carried nothing are not advertised; then the manifest.
    zeroclaw::record_missing_skill_content(plan, carried.without_content);
    const std::string manifest_text = zeroclaw::render_manifest(plan, exported_at);
    ed::write_text(fs_, stage, zeroclaw::manifest_file, manifest_text);
    digests.add_text(zeroclaw::manifest_file, manifest_text);
    // clawport's addition: the sha256sum -c list of every other file (docs/format.md).
    ed::write_text(fs_, stage, zeroclaw::digest_list_file, digest::render_list(digests.entries));
  }

  /// `--dry-run`: every check and refusal of a real export, every count, nothing written.
  void dry_run(const export_options& o, export_result& res, const std::string& install_root,
               const std::string& ws_planned, const std::vector<fs::skill_source>& skills,
               const std::string& parent_path, const std::string& name,
               const publish::destination_names& names, const timestamp& exported_at) {
    namespace ed = exporter_detail;
    zeroclaw::export_plan& plan = res.plan;
    if (fs_.canonical(parent_path)) {
      dir parent = open_parent(parent_path, false);
      publish::admit(fs_, parent, name, o.force, names);
    }
    fs::copy_tally ws_tally;
    bool identity_present = false;
    {
      fs::root_result<Fs> root = open_workspace(install_root, plan, ws_planned);
      if (root.status == fs::root_status::symlinked || root.status == fs::root_status::escaped) {
        throw fs::workspace_root_refusal(root, ws_planned);
      }
      if (root.opened()) {
        std::uint64_t entries = 0;
        const fs::copy_spec spec = workspace_spec(o, entries);
        ed::count_tree(fs_, *root.handle, "workspace", "", spec.filter, ws_tally, 0);
        if (plan.identity_document) {
          // Walk the source the way the staged check walks the copy.
          const std::vector<std::string> parts = ed::components(*plan.identity_document);
          std::optional<dir> cur;
          bool ok = !parts.empty() && zeroclaw::workspace_entry_included(*plan.identity_document);
          for (std::size_t i = 0; ok && i < parts.size(); ++i) {
            const dir& at = cur ? *cur : *root.handle;
            const auto st = fs_.stat_at(at, parts[i]);
            const bool last = i + 1 == parts.size();
            if (!st) {
              ok = false;
            } else if (last) {
              ok = st->kind == fs::file_kind::regular && st->nlink == 1;
            } else if (st->kind != fs::file_kind::directory) {
              ok = false;
            } else {
              cur.emplace(fs_.open_dir_at(at, parts[i]));
            }
          }
          identity_present = ok;
        }
      }
    }
    res.workspace = ed::counts_of(ws_tally);
    fs::copy_tally sk_tally;
    std::vector<std::string> without;
    for (const fs::skill_source& s : skills) {
      fs::root_result<Fs> root = fs::open_anchored_root(fs_, install_root, s.relative, "shared");
      if (root.status == fs::root_status::nothing) {
        without.push_back(s.alias);
        continue;
      }
      if (!root.opened()) throw fs::skill_root_refusal(root, s.alias, s.source);
      std::vector<std::string> entries;
      fs_.for_each_entry(*root.handle, [&](std::string_view n) { entries.emplace_back(n); });
      std::size_t carried = 0;
      for (const std::string& skill : entries) {
        if (!fs::detail::valid_utf8(skill)) continue;
        const auto st = fs_.stat_at(*root.handle, skill);
        if (!st) continue;
        if (st->kind == fs::file_kind::symlink) {
          ++sk_tally.symlinks_skipped;
          continue;
        }
        if (st->kind != fs::file_kind::directory) continue;
        dir d = fs_.open_dir_at(*root.handle, skill);
        if (fs_.stat(d).id != st->id) {
          ++sk_tally.replaced_skipped;
          continue;
        }
        if (s.admits_skill && !s.admits_skill(ed::logical_skill_name{}(fs_, d, skill))) continue;
        fs::copy_tally one;
        ed::count_tree(fs_, d, "skills/" + s.alias + "/" + skill, "", {}, one, 0);
        if (one.files > 0) ++carried;
        ed::add(sk_tally, one);
      }
      if (carried == 0) {
        without.push_back(s.alias);
      } else {
        ++res.skill_bundles;
      }
    }
    res.skills = ed::counts_of(sk_tally);
    if (plan.identity_document && !identity_present)
      zeroclaw::record_missing_identity_document(plan);
    (void)zeroclaw::render_config_toml<Schema>(plan);  // validates, as the real export would
    zeroclaw::record_missing_skill_content(plan, without);
    (void)zeroclaw::render_manifest(plan, exported_at);
    res.publish.strategy = std::string(Publish::name);
    res.publish.requested = std::string(Publish::name);
    res.publish.guarantee = std::string(publish::guarantee::none);
  }

  Fs& fs_;
};

/// The default exporter: fs::posix, schema v3, staged_swap, the portable name grammar.
using exporter = basic_exporter<>;

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
