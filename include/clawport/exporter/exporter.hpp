// SPDX-License-Identifier: MIT
// basic_exporter: the whole export in the order of docs/library.md, Exporting. Plan (pure), resolve
// the destination and refuse overlaps before anything is created, open the parent once, admit the
// destination bound to its identity, stage beside it under a lock, copy the workspace then the
// skills, drop an identity document the copy did not carry, validate and write config.toml, record
// skill bundles without content, write the manifest, flush, publish. Any failure before the publish
// commits removes the staging tree; the destination is left as it was.
#pragma once

#include "../bundle/carry.hpp"
#include "../bundle/layout.hpp"
#include "../bundle/private_data.hpp"
#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../digest/list.hpp"
#include "../digest/sha256.hpp"
#include "../fs/anchored.hpp"
#include "../fs/copy.hpp"
#include "../fs/modes.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../fs/posix.hpp"
#include "../fs/read_file.hpp"
#include "../fs/write_new_file.hpp"
#include "../memory/jsonl.hpp"
#include "../memory/markdown.hpp"
#include "../memory/markdown_files.hpp"
#include "../names/grammar.hpp"
#include "../publish/admission.hpp"
#include "../publish/names.hpp"
#include "../publish/policy.hpp"
#include "../publish/rename.hpp"
#include "../publish/staged_dir.hpp"
#include "../publish/staged_swap.hpp"
#include "../skills/loader.hpp"
#include "../zeroclaw/closure.hpp"
#include "../zeroclaw/config_file.hpp"
#include "../zeroclaw/install_layout.hpp"
#include "../zeroclaw/plan.hpp"
#include "../zeroclaw/render.hpp"
#include "../zeroclaw/schema_v3.hpp"
#include "../zeroclaw/secret_ledger.hpp"
#include "destination.hpp"
#include "digest_writer.hpp"
#include "memory_file.hpp"
#include "options.hpp"
#include "result.hpp"
#include "sources.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {

namespace exporter_detail {

inline copy_counts counts_of(const fs::copy_tally& t) {
  copy_counts c;
  c.files = t.files;
  c.bytes = t.bytes;
  c.symlinks = t.symlinks_skipped;
  c.special = t.others_skipped;
  c.hard_links = t.hard_links_skipped;
  c.replaced = t.replaced_skipped;
  c.names = t.names_skipped;
  return c;
}

/// Creates `name` in the staging directory with `text` as its content.
template <class Fs>
void write_text(Fs& fs, const typename Fs::dir& d, std::string_view name, const std::string& text) {
  try {
    fs::write_new_file(fs, d, name, text, fs::modes::file);
  } catch (const error& e) {
    throw with_context(e, "failed to write " + std::string(name) + " in the bundle",
                       std::string(name));
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

/// The files a bundle's own root files take (config.toml, the manifest, the digest list).
inline constexpr std::uint64_t root_files = 3;

/// The spec of one tree the export copies to bundle directory `root`, held to the bundle's
/// limits (the ones verify reads with): its depth below `root`, at most `max_files` files,
/// and an entry whose name a bundle cannot carry (bundle::carries_name, the rule verify's
/// `name_invalid` applies) skipped and recorded in the plan's `dropped`, as a symlink is.
inline fs::copy_spec bundle_tree_spec(std::string root, const bundle::limits& lim,
                                      std::uint64_t max_files, zeroclaw::export_plan& plan) {
  fs::copy_spec spec(std::move(root));
  spec.max_depth = lim.depth_below(spec.root);
  spec.max_files = max_files;
  spec.limit_name = "below " + spec.root + "; a bundle nests at most " +
                    std::to_string(lim.max_depth) + " levels and holds at most " +
                    std::to_string(lim.max_files) +
                    " files, the limits `clawport verify` and `import` read with";
  spec.carries_name = [max = lim.max_name_bytes](std::string_view name) {
    return name.size() <= max && bundle::carries_name(name);
  };
  spec.on_name_skipped = [&plan](const std::string& path) {
    zeroclaw::record_unportable_name(plan, path);
  };
  return spec;
}

}  // namespace exporter_detail

/// The exporter, parameterised by its four policies (Fs, Schema, Publish, Names). Holds a reference
/// to the Fs backend (which carries any state: a memory tree, injected faults).
template <class Fs = fs::posix, class Schema = zeroclaw::schema_v3,
          class Publish = publish::staged_swap, class Names = names::portable>
class basic_exporter {
  static_assert(fs::check_policy<Fs>());
  static_assert(publish::check_policy<Publish, Fs>());

 public:
  using fs_type = Fs;
  using dir = typename Fs::dir;

  explicit basic_exporter(Fs& fs) : fs_(fs) {}

  /// Runs the export (or, with a Publish policy whose `writes` is false, the dry run: the
  /// same walk and every check with a counting sink, nothing created). The steps, in the
  /// order of docs/library.md (Exporting): options, plan, sources guarded, destination,
  /// then the dry run or the staged publish.
  export_result run(const export_options& o) {
    export_result res;
    res.alias = o.alias;
    res.out = o.out;
    res.dry_run = !Publish::writes;
    check_options(o);
    const std::string install_root = zeroclaw::install_root_of(o.config_path);
    res.plan = plan(o, install_root);
    check_cancelled(o);
    const std::string out_abs = o.out_path.empty() ? o.out : o.out_path;
    res.destination = exporter_detail::resolve_destination(fs_, out_abs, o.out);
    const guarded_sources sources = guard_sources(o, res, install_root);
    const auto place = exporter_detail::split_parent(res.destination);
    if (!place) {
      throw error(errc::destination_refused,
                  "destination " + o.out + " has no parent directory to stage the bundle beside",
                  o.out);
    }
    const timestamp exported_at = o.exported_at ? *o.exported_at : clock_now();
    res.exported_at = format_rfc3339_seconds(exported_at);
    const walk_context walk{o,
                            install_root,
                            sources.workspace,
                            sources.workspace_field,
                            sources.skills,
                            sources.install,
                            exported_at};
    publish::request req;
    req.destination = place->second;
    req.names = publish::destination_names{o.out, res.destination};
    req.sync = o.sync;
    if constexpr (!Publish::writes) {
      dry_run(walk, res, place->first, req);
    } else {
      stage_and_publish(walk, res, place->first, req);
    }
    return res;
  }

 private:
  /// What one run's walk needs besides the plan.
  struct walk_context {
    const export_options& o;
    const std::string& install_root;
    const std::string& ws_planned;
    const std::string& ws_field;
    const std::vector<bundle::skill_source>& skills;
    const std::vector<exporter_detail::protected_entry>& install;
    const timestamp& exported_at;
  };

  /// The sources the export copies, each resolved and checked against the destination and
  /// the install (the walk re-checks each name as it goes).
  struct guarded_sources {
    std::string workspace;        ///< the workspace's planned path
    std::string workspace_field;  ///< the setting that names it
    std::vector<bundle::skill_source> skills;
    std::vector<exporter_detail::protected_entry> install;
  };

  /// Refusals of the options alone, before anything is read.
  static void check_options(const export_options& o) {
    if (o.config_path.empty() || o.config_path.front() != '/' ||
        !exporter_detail::split_parent(o.config_path)) {
      throw error(errc::invalid_argument,
                  "the config path must be an absolute file path: " + o.config_path, o.config_path);
    }
    if (o.out.empty() && o.out_path.empty()) {
      throw error(errc::invalid_argument,
                  "the destination is empty; name the bundle directory to publish (an empty "
                  "--out is never taken to mean the current directory)",
                  "--out");
    }
    if (!o.token.empty() && !publish::is_token(o.token)) {
      throw error(errc::invalid_argument,
                  "a staging token is " + std::to_string(publish::token_length) +
                      " characters of [A-Za-z0-9]: " + o.token,
                  o.token);
    }
  }

  /// The plan: pure, before any filesystem work besides reading the config (unknown agent,
  /// ciphertext refuse here). The config is read through a symlink to its file; the install
  /// root is the directory holding the name (install layout).
  zeroclaw::export_plan plan(const export_options& o, const std::string& install_root) {
    const std::string text = zeroclaw::read_install_config(fs_, o.config_path);
    zeroclaw::plan_options popts;
    popts.install_root = install_root;
    popts.config_name = o.config_path;
    popts.blank_required =
        zeroclaw::read_secret_ledger(fs_, install_root, paths::file_name(o.config_path));
    return zeroclaw::plan_export<Schema, Names>(text, o.alias, popts);
  }

  /// The workspace and skill sources, resolved; refuses (docs/library.md, Exporting) `..`,
  /// then overlap with the destination (contains before inside, workspace first), then a
  /// source holding the install root, its config or its key, then a destination that is
  /// a protected path.
  guarded_sources guard_sources(const export_options& o, const export_result& res,
                                const std::string& install_root) {
    namespace ed = exporter_detail;
    const zeroclaw::export_plan& plan = res.plan;
    guarded_sources out;
    // A configured workspace is used as written (relative paths are taken from the install
    // root); the default one is `agents/<alias>/workspace` under it.
    out.workspace = paths::join(install_root, plan.workspace.path);
    out.workspace_field = "agents." + plan.root_alias + ".workspace" +
                          std::string(plan.workspace.configured ? ".path" : "");
    std::vector<ed::overlap_source> overlaps;
    std::vector<ed::guarded_source> guarded;
    overlaps.push_back(
        {true, "", out.workspace, ed::resolve_path(fs_, out.workspace, out.workspace)});
    guarded.push_back({out.workspace_field, out.workspace, overlaps.back().resolved});
    for (const zeroclaw::skill_source& s : plan.skill_sources) {
      const std::string planned = paths::normalize(paths::join(install_root, s.relative));
      overlaps.push_back({false, s.alias, planned, ed::resolve_path(fs_, planned, planned)});
      guarded.push_back(
          {"skill_bundles." + s.alias + ".directory", planned, overlaps.back().resolved});
      const zeroclaw::skill_filter filter = s.filter;
      out.skills.push_back(
          bundle::skill_source{s.alias, planned, s.relative, [filter, &o](std::string_view skill) {
                                 check_cancelled(o);
                                 return filter.admits_skill(skill);
                               }});
    }
    ed::reject_overlap(res.destination, o.out, overlaps);
    // Issue 9 item 9: no copied tree may hold the install root, its config or its key.
    out.install = protected_install(install_root, o.config_path);
    ed::reject_install_inside(guarded, out.install);
    ed::reject_protected(res.destination, o.out, protected_paths(o, install_root));
    return out;
  }

  /// The dry run: admission as the export would (when the parent exists), then the same
  /// walk into a counting sink, and the publish policy's own (empty) outcome.
  void dry_run(const walk_context& walk, export_result& res, const std::string& parent_path,
               publish::request& req) {
    dir parent = open_existing_ancestor(parent_path);
    if (fs_.canonical(parent_path)) {
      dir at = open_parent(parent_path, false);
      const publish::admitted<Fs> adm =
          publish::admit(fs_, at, req.destination, walk.o.force, req.names);
      res.replaced_non_bundle = replaces_non_bundle(adm);
      req.adm = adm.adm;
    }
    fs::counting_sink<Fs> sink{fs_};
    stage_bundle(walk, res, sink, typename fs::counting_sink<Fs>::dir{}, req.sources);
    res.publish = Publish::publish(fs_, parent, req);
  }

  /// Steps 3-9: the parent created and opened once, admission, the locked staging
  /// directory filled and flushed, its identity re-checked, then published. Any failure
  /// removes the staging directory and leaves the destination as it was.
  void stage_and_publish(const walk_context& walk, export_result& res,
                         const std::string& parent_path, publish::request& req) {
    const export_options& o = walk.o;
    // Steps 3-4: create the parent (before admission, as upstream) and open it once.
    dir parent = open_parent(parent_path, true);
    // Step 5: admission bound to identity; hold the admitted directory locked so two
    // exports never publish over each other.
    publish::admitted<Fs> adm = publish::admit(fs_, parent, req.destination, o.force, req.names);
    if (adm.handle && !fs_.try_lock(*adm.handle)) {
      throw error(errc::destination_refused,
                  "destination " + o.out +
                      " is being replaced by another export that is still running; nothing "
                      "was written",
                  o.out);
    }
    res.replaced_non_bundle = replaces_non_bundle(adm);
    check_cancelled(o);
    // Step 6: the staging directory beside the destination, locked for the whole run
    // so `recover` never removes it under us; removed on any failure unless published.
    // (publish::staged_dir's protocol: made as `.zeroclaw-export-new-<token>`, locked,
    // then renamed to `.zeroclaw-export-<token>`.)
    std::optional<publish::staged_dir<Fs>> stage;
    stage.emplace(fs_, parent, publish::staging_kind::export_bundle, o.token);
    const std::string staging = stage->name();
    try {
      fs::copying_sink<Fs> sink{fs_};
      stage_bundle(walk, res, sink, stage->handle(), req.sources);
      check_cancelled(o);
      if (o.sync) {
        try {
          fs_.sync_filesystem(stage->handle());
        } catch (const error& e) {
          throw with_context(e, "failed to flush the staged bundle to disk", staging);
        }
      }
      if (o.before_publish) o.before_publish();
      // The staged name must still be the directory this export filled.
      if (!stage->intact()) {
        throw error(errc::identity_changed,
                    "the staging directory " + staging +
                        " was replaced while the export ran; nothing was published",
                    staging);
      }
      check_cancelled(o);
      req.staging = staging;
      req.adm = adm.adm;
      req.cancelled = o.cancelled;
      req.removing = o.on_removing;
      if (o.on_published)
        req.published = [&res, &o](const publish::outcome& so_far) {
          res.publish = so_far;
          o.on_published(res);
        };
      res.publish = Publish::publish(fs_, parent, req);
      stage->release();  // the Publish policy moved it into place
    } catch (...) {
      // Close the admitted tree first: the cleanup must not need a descriptor the failed
      // walk could not get. Then the staging tree is closed and removed, only if its name
      // still is the directory this export made (a crash leaves it for `clawport recover`).
      adm.handle.reset();
      stage.reset();
      throw;
    }
  }

  /// mkdir -p of the parent through handles (the resolved path has no symlink below its
  /// nearest existing ancestor), returning the parent's handle.
  dir open_parent(const std::string& path, bool create) {
    namespace ed = exporter_detail;
    const std::vector<std::string> parts = paths::components(path);
    std::size_t existing = parts.size();
    while (existing > 0 && !fs_.canonical(paths::join_components(parts, true, existing)))
      --existing;
    const std::string base = paths::join_components(parts, true, existing);
    std::optional<dir> cur;
    try {
      cur.emplace(fs_.open_root(base));
    } catch (const error& e) {
      throw with_context(e, "failed to open " + base, base);
    }
    if (existing < parts.size() && !create) {
      throw error(errc::not_found, "failed to open " + path, path);
    }
    if (existing == parts.size()) return std::move(*cur);
    const std::vector<std::string> rest(parts.begin() + static_cast<std::ptrdiff_t>(existing),
                                        parts.end());
    try {
      return std::move(*fs::open_path(fs_, *cur, paths::join_components(rest, false), true).dir);
    } catch (const error& e) {
      throw with_context(e, "failed to create destination parent " + path, path);
    }
  }

  /// True when --force admitted a non-empty directory holding no zeroclaw-agent.toml.
  bool replaces_non_bundle(const publish::admitted<Fs>& adm) {
    if (adm.adm.kind != publish::admission_kind::forced || !adm.handle) return false;
    const auto manifest = fs_.stat_at(*adm.handle, zeroclaw::manifest_file);
    return !manifest || manifest->kind != fs::file_kind::regular;
  }

  /// Throws errc::cancelled when the caller asked to stop (a signal, in the CLI).
  static void check_cancelled(const export_options& o) {
    if (o.cancelled && o.cancelled()) {
      throw error(errc::cancelled,
                  "the export to " + o.out +
                      " was interrupted; the destination was left as it was and the staging "
                      "directory removed",
                  o.out);
    }
  }

  /// What the destination must never be or contain, besides the sources: the install root
  /// (every agent, `.secret_key`, shared skills), the config file read (through a symlink,
  /// its target) and the user's home directory.
  std::vector<exporter_detail::protected_path> protected_paths(const export_options& o,
                                                               const std::string& install_root) {
    namespace ed = exporter_detail;
    std::vector<ed::protected_path> out;
    out.push_back({"the install root", install_root,
                   ed::resolve_path(fs_, install_root, install_root),
                   "the whole install (every agent's config, .secret_key, other workspaces and "
                   "shared skills)"});
    out.push_back({"the config file", o.config_path,
                   ed::resolve_path(fs_, o.config_path, o.config_path), "the install's config"});
    if (!o.home.empty() && o.home.front() == '/') {
      out.push_back({"your home directory", o.home, ed::resolve_path(fs_, o.home, o.home),
                     "everything in it"});
    }
    return out;
  }

  /// The install's root, config file (through a symlink) and `.secret_key`, resolved and
  /// with their identities where they exist.
  std::vector<exporter_detail::protected_entry> protected_install(const std::string& root,
                                                                  const std::string& config) {
    namespace ed = exporter_detail;
    std::vector<ed::protected_entry> out;
    const auto add = [&](std::string what, const std::string& path) {
      ed::protected_entry p{std::move(what), path, {}, {}};
      const std::optional<std::string> real = fs_.canonical(path);
      if (!real) return;
      p.resolved = *real;
      try {
        const auto where = ed::split_parent(*real);
        if (!where) {
          p.id = fs_.stat(fs_.open_root(*real)).id;
        } else if (const auto st = fs_.stat_at(fs_.open_root(where->first), where->second)) {
          p.id = st->id;
        }
      } catch (const error&) {
        // unreadable: the path check above still applies
      }
      out.push_back(std::move(p));
    };
    add("the install root", root);
    add("the config file", config);
    add("the key file", paths::join(root, std::string(zeroclaw::install_secret_key)));
    return out;
  }

  /// Opens the workspace root as the plan says (anchored, or the configured path).
  fs::root_result<Fs> open_workspace(const std::string& install_root,
                                     const zeroclaw::export_plan& plan,
                                     const std::string& planned) {
    if (plan.workspace.configured) return fs::open_configured_root(fs_, planned, "workspace.path");
    return fs::open_anchored_root(fs_, install_root, plan.workspace.path, "agents");
  }

  /// The nearest existing ancestor of `path` (the dry run's handle for the Publish policy).
  dir open_existing_ancestor(const std::string& path) {
    namespace ed = exporter_detail;
    const std::vector<std::string> parts = paths::components(path);
    std::size_t existing = parts.size();
    while (existing > 0 && !fs_.canonical(paths::join_components(parts, true, existing)))
      --existing;
    const std::string base = paths::join_components(parts, true, existing);
    try {
      return fs_.open_root(base);
    } catch (const error& e) {
      throw with_context(e, "failed to open " + base, base);
    }
  }

  /// The skill walk's spec: the file budget the workspace (`used` files) left, every file
  /// checked not to be one of the install's protected identities, named by its bundle's
  /// `skill_bundles.<alias>.directory` field.
  static fs::copy_spec skill_walk_spec(const walk_context& w, std::uint64_t used,
                                       zeroclaw::export_plan& plan, fs::copy_sink* observer) {
    const bundle::limits& lim = w.o.limits;
    fs::copy_spec spec = exporter_detail::bundle_tree_spec(
        "skills/<alias>/<skill>", lim, lim.max_files > used ? lim.max_files - used : 0, plan);
    spec.check_entry = [&w](const fs::file_id& id, const std::string& path) {
      // `path` is "skills/<alias>[/...]".
      const std::size_t end = path.find('/', 7);
      const std::string alias = path.substr(7, end == std::string::npos ? end : end - 7);
      exporter_detail::reject_protected_identity(w.install, "skill_bundles." + alias + ".directory",
                                                 path, id);
    };
    spec.sink = observer;
    spec.jobs = w.o.jobs;
    return spec;
  }

  /// Steps 7-10 through `sink` (the copy, or the dry run's count): the workspace walk, the
  /// skill walk, the identity document check, config.toml, skill bookkeeping, manifest.
  /// Both modes run exactly this, so they share every rule, count and refusal text.
  template <class Sink>
  void stage_bundle(const walk_context& w, export_result& res, Sink& sink,
                    const typename Sink::dir& stage, std::vector<fs::file_id>& sources) {
    namespace ed = exporter_detail;
    zeroclaw::export_plan& plan = res.plan;
    const bundle::limits& lim = w.o.limits;
    fs::copy_tally ws_tally;
    bool identity_carried = false;
    bool workspace_skills = false;  // issue 22 item 10: `workspace/skills/` carried a file
    ed::digest_sink digests;        // the copy's observer; the dry run writes no digest list
    fs::copy_sink* observer = Sink::writes ? &digests : nullptr;
    {
      fs::root_result<Fs> root = open_workspace(w.install_root, plan, w.ws_planned);
      if (root.status == fs::root_status::symlinked || root.status == fs::root_status::escaped) {
        throw bundle::workspace_root_refusal(root, w.ws_planned);
      }
      if (root.opened()) {
        ed::reject_protected_identity(w.install, w.ws_field, w.ws_planned, root.id);
        sources.push_back(root.id);
        std::optional<typename Sink::dir> ws;
        try {
          sink.make_dir(stage, zeroclaw::workspace_dir);
          ws.emplace(sink.open_dir(stage, zeroclaw::workspace_dir));
        } catch (const error& e) {
          throw with_context(e, "failed to create workspace in the bundle", "workspace");
        }
        std::uint64_t entries = 0;
        const std::uint64_t budget =
            lim.max_files > ed::root_files ? lim.max_files - ed::root_files : 0;
        fs::copy_spec spec =
            ed::bundle_tree_spec(std::string(zeroclaw::workspace_dir), lim, budget, plan);
        spec.filter = [&entries, &w, &plan, &res](std::string_view rel) {
          check_cancelled(w.o);
          if (w.o.on_progress) w.o.on_progress(++entries);
          if (const auto k = bundle::private_workspace_entry(rel)) {
            res.had_memory_store |= *k == bundle::private_kind::memory_store;
            res.had_memory_snapshot |= *k == bundle::private_kind::memory_snapshot;
          }
          return zeroclaw::filter_workspace_entry(plan, rel);
        };
        spec.check_entry = [&w](const fs::file_id& id, const std::string&) {
          exporter_detail::reject_protected_identity(w.install, w.ws_field, w.ws_planned, id);
        };
        const std::string wanted = plan.identity_document.value_or(std::string());
        spec.on_carried = [&identity_carried, &workspace_skills, wanted](std::string_view rel) {
          if (!wanted.empty() && rel == wanted) identity_carried = true;
          if (zeroclaw::is_workspace_skill_path(rel)) workspace_skills = true;
        };
        spec.sink = observer;
        spec.sorted = true;  // path order: the digest lines are spilled as they come
        if constexpr (Sink::writes) digests.spill = ed::spill_to(fs_, stage);
        spec.jobs = w.o.jobs;
        fs::walk_tree(fs_, sink, *root.handle, *ws, spec, ws_tally);
        if constexpr (Sink::writes) digests.end_spill();
      }
    }
    res.workspace = ed::counts_of(ws_tally);
    if (workspace_skills) plan.risk_flags.push_back(zeroclaw::workspace_skills_flag());
    const fs::copy_spec skill_spec =
        skill_walk_spec(w, ws_tally.files + ed::root_files, plan, observer);
    const bundle::skill_copy_result carried = bundle::walk_skill_bundles(
        fs_, sink, w.install_root, w.skills, stage, ed::logical_skill_name{}, skill_spec);
    sources.insert(sources.end(), carried.sources.begin(), carried.sources.end());
    res.skills = ed::counts_of(carried.tally);
    res.skill_bundles = carried.bundles;

    // Step 8: an identity document the walk did not carry is dropped (row 17).
    if (plan.identity_document && !identity_carried) {
      zeroclaw::record_missing_identity_document(plan);
    }
    // Step 9: validate and write config.toml (after the identity drop is folded in).
    const std::string config = zeroclaw::render_config_toml<Schema>(plan);
    bundle::check_file_limit(lim, zeroclaw::config_file, config.size());
    if constexpr (Sink::writes) {
      ed::write_text(fs_, stage, zeroclaw::config_file, config);
      digests.add_text(zeroclaw::config_file, config);
    }
    // Step 10: skill bundles that carried nothing are not advertised; then the memory
    // (`--with-memory`), the manifest, the digest list and the signature.
    zeroclaw::record_missing_skill_content(plan, carried.without_content);
    finish_bundle<Sink>(w, res, stage, digests, config.size());
  }

  /// Step 10 after the skill bookkeeping: the memory (format 2 only), the manifest, the digest
  /// list, the signature, and the totals of the whole bundle.
  template <class Sink>
  void finish_bundle(const walk_context& w, export_result& res, const typename Sink::dir& stage,
                     exporter_detail::digest_sink& digests, std::uint64_t config_bytes) {
    namespace ed = exporter_detail;
    const zeroclaw::export_plan& plan = res.plan;
    const bundle::limits& lim = w.o.limits;
    std::uint64_t files = res.workspace.files + res.skills.files + ed::root_files;
    std::uint64_t bytes = res.workspace.bytes + res.skills.bytes + config_bytes;
    std::optional<zeroclaw::value> memory_table;
    if (w.o.memory) {
      const typename Fs::dir* staged = nullptr;
      if constexpr (Sink::writes) staged = &stage;
      ed::memory_file<Fs, Sink::writes> file(fs_, staged);
      bytes += read_memory(w, res, [&file](const std::string& l) { file.line(l); });
      digests.entries.push_back({std::string(bundle::memory_entries_file), file.finish()});
      memory_table = memory::manifest_table(*res.memory);
      files += 1;
    }
    const std::string manifest =
        memory_table ? zeroclaw::render_manifest_with_memory(plan, w.exported_at, *memory_table)
                     : zeroclaw::render_manifest(plan, w.exported_at);
    bundle::check_file_limit(lim, zeroclaw::manifest_file, manifest.size());
    bytes += manifest.size();
    if constexpr (Sink::writes) {
      ed::write_text(fs_, stage, zeroclaw::manifest_file, manifest);
      digests.add_text(zeroclaw::manifest_file, manifest);
      // clawport's addition: the sha256sum -c list of every other file (docs/format.md),
      // held whole only for a signature.
      std::string list;
      bytes +=
          ed::write_digest_list(fs_, stage, zeroclaw::digest_list_file, std::move(digests.entries),
                                digests.spilled, lim, w.o.sign ? &list : nullptr);
      // Step 11 (issue 29): the signature over the list's bytes, staged like the rest.
      if (w.o.sign) {
        const std::string signature = w.o.sign(list);
        bundle::check_file_limit(lim, bundle::signature_file, signature.size());
        bytes += signature.size();
        ed::write_text(fs_, stage, bundle::signature_file, signature);
        res.signed_bundle = true;
      }
    }
    bundle::check_totals(lim, files + (res.signed_bundle ? 1 : 0), bytes);
  }

  /// The agent's memory as `memory/entries.jsonl` (issue 47): its rows read through the
  /// memory source in one read transaction (SQLite), or its Markdown files mapped as
  /// `zeroclaw migrate openclaw` maps them (read_markdown_memory); each accepted line given to
  /// `out`, what stays home counted in `res.memory`; the file's size.
  std::uint64_t read_memory(const walk_context& w, export_result& res,
                            memory::jsonl_writer::line_sink out) {
    const zeroclaw::export_plan& plan = res.plan;
    const std::string& backend = plan.memory_backend_name;
    const bool markdown = backend == "markdown";
    if (!markdown && !backend.empty() && backend != "sqlite" && backend.rfind("sqlite.", 0) != 0)
      throw error(errc::unsupported,
                  "--with-memory reads ZeroClaw's SQLite memory store and the Markdown backend's "
                  "files only; agent " +
                      plan.root_alias + " uses the " + backend +
                      " memory backend. Export without --with-memory (its memory stays home)",
                  "memory.backend");
    memory::jsonl_writer writer(memory::redacted_categories(plan.memory_redact_categories),
                                std::move(out), w.o.limits.max_memory_bytes);
    const memory::entry_visitor visit = [&](const memory::entry& e) {
      check_cancelled(w.o);
      writer.add(e);
    };
    const memory::store_facts facts =
        markdown ? read_markdown_memory(w, visit)
                 : w.o.memory(zeroclaw::memory_store_path(w.install_root), plan.root_alias, visit);
    writer.facts().backend = facts.backend;
    writer.facts().embedding_model = facts.embedding_model;
    res.memory = writer.facts();
    return writer.bytes();
  }

  /// The Markdown backend's memory of the workspace (issue 47 items 2 and 6), read by the
  /// one reader convert shares (memory::read_markdown_files).
  memory::store_facts read_markdown_memory(const walk_context& w,
                                           const memory::entry_visitor& visit) {
    return memory::read_markdown_files(fs_, fs_.open_root(w.ws_planned),
                                       format_rfc3339(w.exported_at), w.o.limits.max_memory_bytes,
                                       visit);
  }

  Fs& fs_;
};

/// The default exporter: fs::posix, schema v3, staged_swap, the portable name grammar.
using exporter = basic_exporter<>;

}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
