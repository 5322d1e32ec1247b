// SPDX-License-Identifier: MIT
// `clawport convert` as a library call (docs/convert.md): read the source as hostile input
// (a bundle is verified, a Claw package is read by OpenClaw's reader), map it (pure), stage
// the target beside --out, check the staged tree with the target's own reader (openclaw's
// package reader, or verify), and publish it to a new directory with the Publish policy.
// Any failure removes the staging tree; --out is left as it was.
#pragma once

#include "../bundle/layout.hpp"
#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/paths.hpp"
#include "../core/time.hpp"
#include "../digest/sha256.hpp"
#include "../fs/copy.hpp"
#include "../fs/jobs.hpp"
#include "../fs/modes.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "../fs/write_new_file.hpp"
#include "../importer/staged_copy.hpp"
#include "../memory/jsonl.hpp"
#include "../memory/markdown_files.hpp"
#include "../openclaw/migrate.hpp"
#include "../openclaw/package.hpp"
#include "../publish/admission.hpp"
#include "../publish/names.hpp"
#include "../publish/policy.hpp"
#include "../publish/staged_dir.hpp"
#include "../publish/staged_swap.hpp"
#include "../skills/audit.hpp"
#include "../verify/verify.hpp"
#include "claw_to_agent_plugin.hpp"
#include "from_agent_plugin.hpp"
#include "report.hpp"
#include "to_agent_plugin.hpp"
#include "to_claw.hpp"
#include "to_zeroclaw.hpp"

#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace convert {

/// What to convert, where to, and how.
struct options {
  std::string source;          ///< absolute path of the bundle or package directory
  std::string out;             ///< absolute path of the new directory
  std::string source_display;  ///< as the user typed it (messages, report); empty = source
  std::string out_display;     ///< as the user typed it; empty = out
  direction to = direction::to_claw;
  bool dry_run = false;
  bool allow_narrowing = false;
  bool sync = true;
  /// Threads that read, hash and write the files (`--jobs`, fs/jobs.hpp): the bundle's
  /// verify and staged copy, the staged tree's writes and its verify. The output is that of one.
  unsigned jobs = 1;
  /// The report's timestamp and the bundle's `exported_at` (the CLI passes SOURCE_DATE_EPOCH);
  /// empty = the clock.
  std::optional<timestamp> at;
  /// `--from-openclaw-agent`: the installed OpenClaw agent to read instead of `source`, in
  /// the state directory `openclaw_env` names (issue 47 item 7; `--to zeroclaw` only).
  std::optional<std::string> openclaw_agent;
  openclaw::environment openclaw_env;
  /// `--with-memory`: that agent's Markdown memory travels (bundle format 2).
  bool with_memory = false;
  std::string token;  ///< staging token (tests inject one); empty = random
  /// Test seam: runs once the staged tree is complete and checked, just before publishing.
  std::function<void()> before_publish;
};

namespace detail {

/// `rel` under `root`, no symlink on the way, read whole by fs::read_file's rule (at most
/// `max` bytes, a regular file only); errors name `what`.
template <class Fs>
std::string read_file_at(Fs& fs, const typename Fs::dir& root, const std::string& rel,
                         const std::string& what, std::uint64_t max) {
  try {
    const fs::path_result<Fs> at = fs::open_path(fs, root, paths::parent(rel));
    return fs::read_file_at(fs, at.get(root), paths::file_name(rel), max,
                            fs::read_kinds::hard_linked, what);
  } catch (const error& e) {
    if (e.subject() == what) throw;
    throw with_context(e, "failed to read " + what, what);
  }
}

/// Writes `files` under `root`: each file's directory made and opened on this thread, in
/// path order (two files never race to make one directory), the file written as one item of
/// the jobs pool (fs/jobs.hpp) on `jobs` threads, a failure thrown in path order: the tree
/// and the first error are those of one thread.
template <class Fs>
void write_tree(Fs& fs, const typename Fs::dir& root,
                const std::map<std::string, std::string>& files, unsigned jobs = 1) {
  const unsigned n = fs::usable_jobs<Fs>(jobs);
  fs::ordered_jobs pool(n, fs::jobs_window(n, 2));  // an item holds its directory and file
  const auto failed = [](const error& e, const std::string& rel) {
    return with_context(e, "failed to write " + rel, rel);
  };
  for (const auto& f : files) {
    std::shared_ptr<const fs::path_result<Fs>> at;
    try {
      at = std::make_shared<const fs::path_result<Fs>>(
          fs::open_path(fs, root, paths::parent(f.first), true));
    } catch (const error& e) {
      pool.finish();  // a file before this one that failed fails first
      throw failed(e, f.first);
    }
    pool.submit(
        [&fs, &root, &f, at](unsigned) {
          fs::write_new_file(fs, at->get(root), paths::file_name(f.first), f.second,
                             fs::modes::file);
        },
        [&f, &failed](std::exception_ptr failure) {
          if (!failure) return;
          try {
            std::rethrow_exception(failure);
          } catch (const error& e) {
            throw failed(e, f.first);
          }
        });
  }
  pool.finish();
}

/// Stages `files` beside `o.out`, runs `check` on the staged tree's absolute path, then
/// publishes it to the new directory `o.out` (vacant, or an empty directory).
template <class Fs, class Check>
publish::outcome publish_new(Fs& fs, const options& o,
                             const std::map<std::string, std::string>& files, Check&& check) {
  const std::string display = o.out_display.empty() ? o.out : o.out_display;
  const std::string out = paths::normalize(o.out);
  const std::string parent_path = paths::parent(out);
  const std::string name = paths::file_name(out);
  if (!paths::is_absolute(out) || name.empty())
    throw error(errc::invalid_argument, "--out must name a new directory: " + display, display);
  typename Fs::dir parent = [&] {
    try {
      return fs.open_root(parent_path);
    } catch (const error& e) {
      throw with_context(e, "the parent directory of --out " + display + " cannot be opened",
                         parent_path);
    }
  }();
  const publish::destination_names names{display, out};
  if (const auto st = fs.stat_at(parent, name)) {
    if (st->kind == fs::file_kind::directory && !fs.is_empty(fs.open_dir_at(parent, name)))
      throw error(errc::destination_refused,
                  "destination " + display +
                      " exists and is not empty; convert writes a new directory and never "
                      "replaces one, nothing was written",
                  display);
  }
  const publish::admitted<Fs> adm = publish::admit(fs, parent, name, false, names);
  const std::string token = o.token.empty() ? publish::random_token() : o.token;
  // Held open and locked until published: `recover` leaves a running convert's tree alone;
  // any failure removes it (a second failure leaves it for `clawport recover`).
  publish::staged_dir<Fs> stage(fs, parent, publish::staging_kind::convert, token, fs::modes::dir);
  write_tree(fs, stage.handle(), files, o.jobs);
  if (o.sync) fs.sync_filesystem(stage.handle());
  check(paths::join(parent_path, stage.name()));
  if (o.before_publish) o.before_publish();
  publish::request req;
  req.staging = stage.name();
  req.destination = name;
  req.names = names;
  req.adm = adm.adm;
  req.sync = o.sync;
  publish::outcome done = publish::staged_swap::publish(fs, parent, req);
  stage.release();  // the Publish policy moved it into place
  return done;
}

inline std::vector<std::string> keys_of(const std::map<std::string, std::string>& files) {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(f.first);
  return out;
}

}  // namespace detail

/// Reads a verified bundle: refuses one that does not verify (errc::bundle_invalid, the first
/// finding), reads every workspace and skill file with import's staged copy
/// (importer::copy_verified: each re-hashed against the verified digest as it is read,
/// errc::identity_changed otherwise) and audits every carried skill.
template <class Fs>
bundle_input read_bundle(Fs& fs, const std::string& path, const map_options& mo = {},
                         unsigned jobs = 1) {
  const verify::report rep = verify::verify_bundle_files(fs, path, {}, jobs);
  if (!rep.ok()) throw rep.first_error();
  bundle_input in;
  in.root_agent = rep.root_agent;
  in.closure = rep.closure;
  in.manifest = rep.manifest;
  for (const verify::bundle_file& f : rep.files) {
    const bool ws = f.path.rfind("workspace/", 0) == 0;
    if (!ws && f.path.rfind("skills/", 0) != 0) continue;
    if (f.size > mo.limits.workspace_source)
      throw error(errc::limit_exceeded,
                  "the file " + f.path + " is " + std::to_string(f.size) +
                      " bytes; OpenClaw takes at most " +
                      std::to_string(mo.limits.workspace_source) +
                      " bytes per workspace file; nothing was written",
                  f.path);
  }
  // The one staged copy of a verified bundle (import's too): every byte re-hashed against
  // the verified digest list as it is read.
  typename Fs::dir root = fs.open_root(path);
  fs::reading_sink<Fs> sink{fs};
  for (const char* tree : {"workspace", "skills"})
    if (rep.has_directory(tree))
      importer::copy_verified(fs, sink, root, tree, {}, rep.files, 0, jobs);
  in.files = std::move(sink.files);
  for (const std::string& d : rep.directories) {
    // Skill bundles (`skills/<alias>/<skill>`) and the workspace's own skills
    // (`workspace/skills/<skill>`): every skill the Claw will carry is audited.
    const bool bundled = d.rfind("skills/", 0) == 0 && std::count(d.begin(), d.end(), '/') == 2;
    const bool local =
        d.rfind("workspace/skills/", 0) == 0 && std::count(d.begin(), d.end(), '/') == 2;
    if (!bundled && !local) continue;
    const skills::audit_report a = skills::audit_skill_directory(fs, paths::join(path, d));
    if (!a.clean()) in.blocked_skills[d] = a.summary();
  }
  return in;
}

/// Whether the directory `path` holds a bundle manifest (an agent bundle given where a
/// Claw package was expected); false when it cannot be read.
template <class Fs>
bool holds_bundle_manifest(Fs& fs, const std::string& path) {
  try {
    return fs.stat_at(fs.open_root(path), bundle::manifest_file).has_value();
  } catch (const error&) {
    return false;
  }
}

/// Whether the directory `path` is a Claw package (holds CLAW.md and no bundle manifest).
template <class Fs>
bool holds_claw_manifest(Fs& fs, const std::string& path) {
  try {
    typename Fs::dir root = fs.open_root(path);
    return fs.stat_at(root, "CLAW.md").has_value() && !fs.stat_at(root, bundle::manifest_file);
  } catch (const error&) {
    return false;
  }
}

/// Reads a Claw package with OpenClaw's reader: refuses an invalid one (errc::config_invalid
/// with its diagnostics) and reads every declared workspace source, re-hashed against the
/// digest the reader took.
template <class Fs>
claw_input read_claw(Fs& fs, const std::string& path) {
  const openclaw::claw_package pkg = openclaw::read_package(fs, path);
  std::string problems;
  for (const openclaw::diagnostic& d : pkg.diagnostics)
    if (d.level == openclaw::level::error)
      problems += (problems.empty() ? "" : "; ") + std::string(to_string(d.code)) + " " + d.path +
                  ": " + d.message;
  for (const openclaw::workspace_source& s : pkg.sources)
    if (s.problem)
      problems +=
          (problems.empty() ? "" : "; ") + std::string(to_string(s.problem->code)) + " " + s.source;
  if (!pkg.ok() && holds_bundle_manifest(fs, path))
    throw error(errc::invalid_argument,
                path + " is a ZeroClaw agent bundle (it holds " +
                    std::string(bundle::manifest_file) +
                    "), not a Claw package: convert it with --to claw",
                path);
  if (!pkg.ok() || !problems.empty())
    throw error(
        errc::config_invalid,
        "the Claw package " + path + " is invalid (run `clawport claw inspect`): " + problems,
        path);
  claw_input in;
  in.profile = pkg.profile;
  in.body = pkg.body;
  in.bootstrap = pkg.bootstrap;
  in.package = pkg.source.name + "@" + pkg.source.version;
  in.model = pkg.model;
  typename Fs::dir root = fs.open_root(pkg.source.package_root);
  for (const openclaw::workspace_source& s : pkg.sources) {
    std::string bytes = detail::read_file_at(fs, root, openclaw::forward_slashes(s.source),
                                             s.source, openclaw::limits{}.workspace_source);
    if (digest::sha256_prefixed(bytes) != s.digest)
      throw error(errc::identity_changed,
                  "the package's " + s.source + " changed while it was read; nothing was written",
                  s.source);
    in.workspace[s.destination] = std::move(bytes);
  }
  return in;
}

/// An installed OpenClaw agent (issue 47 item 7): the Claw package `claw migrate` would make
/// of it (openclaw::plan_migration, which reads and writes nothing else), refused with its
/// first blocker; with `with_memory`, its workspace's `MEMORY.md` and `memory/*.md`, read only
/// inside that workspace (memory::read_markdown_files: no link followed).
template <class Fs>
claw_input read_openclaw_agent(Fs& fs, const openclaw::environment& env, const std::string& id,
                               bool with_memory, const timestamp& at) {
  openclaw::destination_request req;
  static_cast<openclaw::environment&>(req) = env;
  const openclaw::migration_plan plan = openclaw::plan_migration(fs, req, id);
  if (plan.blocked()) {
    const openclaw::diagnostic& d = plan.blockers.front();
    throw error(d.code,
                "the OpenClaw agent " + id + " cannot be read as a Claw: " + d.message +
                    " Nothing was written.",
                d.path);
  }
  const openclaw::claw_package pkg = openclaw::detail::planned_package(plan);
  for (const openclaw::diagnostic& d : pkg.diagnostics)
    if (d.level == openclaw::level::error)
      throw error(d.code, "the Claw generated for " + id + " is invalid: " + d.message, d.path);
  claw_input in;
  in.profile = pkg.profile;
  in.body = pkg.body;
  in.package = pkg.source.name + "@" + pkg.source.version;
  in.model = pkg.model;
  for (const openclaw::workspace_source& s : pkg.sources)
    for (const auto& f : plan.tree)
      if (f.first == s.source) in.workspace[s.destination] = f.second;
  if (!with_memory) return in;
  const bundle::limits lim;
  memory::jsonl_writer writer({}, {}, lim.max_memory_bytes);
  const memory::store_facts facts = memory::read_markdown_files(
      fs, openclaw::detail::open_dir_path(fs, plan.workspace), format_rfc3339(at),
      lim.max_memory_bytes, [&writer](const memory::entry& e) { writer.add(e); });
  writer.facts().backend = facts.backend;
  in.memory = carried_memory{writer.text(), writer.facts()};
  return in;
}

/// Reads an Agent Plugin directory (no link followed) and checks it with verify's rules;
/// audits every skill that loads, as a bundle's skills are.
template <class Fs>
plugin_input read_plugin(Fs& fs, const std::string& path, const std::string& display) {
  plugin_input in;
  in.tree = verify::read_plugin_tree(fs, path);
  in.report = verify::check_plugin(in.tree);
  in.report.plugin = display;
  for (const std::string& d : in.report.skills) {
    const skills::audit_report a =
        skills::audit_skill_directory(fs, paths::join(path, "skills/" + d));
    if (!a.clean()) in.blocked_skills["skills/" + d] = a.summary();
  }
  return in;
}

namespace detail {

/// What was staged, read back, must still be a plugin of the rules it was mapped to; a
/// Claw's skills (not audited on the way in, as a bundle's are) are audited as staged, and
/// nothing the audit blocks is published (errc::audit_blocked).
template <class Fs>
void check_staged_plugin(Fs& fs, const std::string& staged,
                         const std::map<std::string, std::string>& files, bool audit) {
  typename Fs::dir root = fs.open_root(staged);
  std::map<std::string, std::string> back;
  for (const auto& f : files)
    back[f.first] = read_file_at(fs, root, f.first, f.first, f.second.size());
  check_agent_plugin(back);
  if (!audit) return;
  for (const auto& f : files) {
    const std::vector<std::string> parts = paths::components(f.first);
    if (parts.size() != 3 || parts[0] != "skills" || parts[2] != "SKILL.md") continue;
    const skills::audit_report a =
        skills::audit_skill_directory(fs, paths::join(staged, "skills/" + parts[1]));
    if (!a.clean())
      throw error(errc::audit_blocked,
                  "the skill skills/" + parts[1] + " of the Claw is blocked by the skill audit (" +
                      a.summary() + "); nothing was published",
                  "skills/" + parts[1]);
  }
}

}  // namespace detail

namespace detail {

/// `--from-openclaw-agent` reads an installed agent for `--to zeroclaw`; `--with-memory` only
/// with it.
inline void check_source_options(const options& o) {
  if ((o.openclaw_agent || o.with_memory) && (o.to != direction::to_zeroclaw || !o.openclaw_agent))
    throw error(errc::invalid_argument,
                "--from-openclaw-agent converts an installed OpenClaw agent --to zeroclaw, and "
                "--with-memory is only for it: give --to zeroclaw and --from-openclaw-agent",
                "--from-openclaw-agent");
}

/// The Claw to convert `--to zeroclaw`: the package directory, or the installed agent.
template <class Fs>
claw_input read_claw_source(Fs& fs, const options& o, const timestamp& at) {
  if (!o.openclaw_agent) return read_claw(fs, o.source);
  return read_openclaw_agent(fs, o.openclaw_env, *o.openclaw_agent, o.with_memory, at);
}

}  // namespace detail

/// Runs one conversion. The dry run reads, verifies and maps exactly as the real one and
/// writes nothing; where the real one would refuse a narrowing, the dry run's report is
/// whole and `refusal` holds that refusal.
template <class Fs>
conversion run(Fs& fs, const options& o) {
  static_assert(fs::check_policy<Fs>());
  conversion c;
  c.dir = o.to;
  c.source = o.source_display.empty() ? o.source : o.source_display;
  c.out = o.out_display.empty() ? o.out : o.out_display;
  c.dry_run = o.dry_run;
  const timestamp at = o.at ? *o.at : clock_now();
  c.converted_at = format_rfc3339(at);
  map_options mo;
  // A dry run maps every narrowing, so its report is whole, then refuses as the real run
  // would (at the first one) without --allow-narrowing.
  mo.allow_narrowing = o.allow_narrowing || o.dry_run;
  mo.target = o.to == direction::to_claw ? "OpenClaw" : "ZeroClaw";
  mapped m;
  detail::check_source_options(o);
  if (!o.openclaw_agent && o.to != direction::to_agent_plugin &&
      verify::is_plugin_dir(fs, o.source)) {
    const plugin_input in = read_plugin(fs, o.source, c.source);
    c.source_kind = "agent-plugin";
    c.source_agent = in.report.name;
    m = o.to == direction::to_claw ? map_plugin_to_claw(in, mo, at)
                                   : map_plugin_to_zeroclaw(in, at);
    c.agent = m.agent;
    c.losses = m.losses;
    if (o.to == direction::to_claw) m.files["CONVERSION.md"] = "";
    c.files = detail::keys_of(m.files);
    if (o.to == direction::to_claw) m.files["CONVERSION.md"] = render_markdown(c);
  } else if (o.to == direction::to_agent_plugin && holds_claw_manifest(fs, o.source)) {
    const claw_input in = read_claw(fs, o.source);
    c.source_kind = "claw";
    c.source_agent = in.model.agent.id;
    m = map_claw_to_agent_plugin(in);
    check_agent_plugin(m.files);
    c.agent = m.agent;
    c.losses = m.losses;
    c.files = detail::keys_of(m.files);
  } else if (o.to == direction::to_agent_plugin) {
    map_options plugin_mo = mo;  // no OpenClaw per-file limit: verify bounded the bundle
    plugin_mo.limits.workspace_source = UINT64_MAX;
    const bundle_input in = read_bundle(fs, o.source, plugin_mo, o.jobs);
    c.source_agent = in.root_agent;
    m = map_to_agent_plugin(in);
    check_agent_plugin(m.files);
    c.agent = m.agent;
    c.losses = m.losses;
    c.files = detail::keys_of(m.files);
  } else if (o.to == direction::to_claw) {
    const bundle_input in = read_bundle(fs, o.source, mo, o.jobs);
    c.source_agent = in.root_agent;
    m = map_to_claw(in, mo);
    c.agent = m.agent;
    c.losses = m.losses;
    m.files["CONVERSION.md"] = "";
    c.files = detail::keys_of(m.files);
    m.files["CONVERSION.md"] = render_markdown(c);
  } else {
    const claw_input in = detail::read_claw_source(fs, o, at);
    if (o.openclaw_agent) c.source_kind = "openclaw-agent";
    c.source_agent = in.model.agent.id;
    m = map_to_zeroclaw(in, mo, at);
    c.agent = m.agent;
    c.losses = m.losses;
    c.files = detail::keys_of(m.files);
  }
  if (o.dry_run) {
    c.guarantee = std::string(publish::guarantee::none);
    for (const loss& l : c.losses)
      if (!o.allow_narrowing && !c.refusal && l.kind == loss_kind::narrowed)
        c.refusal = detail::narrowing_refused(mo.target, l);
    return c;
  }
  const direction to = o.to;
  const publish::outcome out = detail::publish_new(fs, o, m.files, [&](const std::string& staged) {
    if (to == direction::to_agent_plugin) {
      detail::check_staged_plugin(fs, staged, m.files, c.source_kind == "claw");
    } else if (to == direction::to_claw) {
      // The staged package must read clean through OpenClaw's own reader.
      const openclaw::claw_package pkg = openclaw::read_package(fs, staged);
      bool sources_ok = true;
      for (const openclaw::workspace_source& s : pkg.sources) sources_ok = sources_ok && !s.problem;
      if (!pkg.ok() || !sources_ok)
        throw error(errc::config_invalid,
                    "the converted package does not read as a valid Claw (a clawport mapping "
                    "bug); nothing was published",
                    c.out);
    } else {
      const verify::report rep = verify::verify_bundle(fs, staged, {}, o.jobs);
      if (!rep.ok()) {
        const error e = rep.first_error();
        throw error(errc::bundle_invalid,
                    std::string("the converted bundle does not verify (a clawport mapping bug): ") +
                        e.what() + "; nothing was published",
                    c.out);
      }
    }
  });
  c.guarantee = out.guarantee;
  return c;
}

}  // namespace convert
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
