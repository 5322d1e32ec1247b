// SPDX-License-Identifier: MIT
// Reading a Claw package as OpenClaw does (docs/openclaw.md):
// package.json, the CLAW.md envelope or the grouped JSON form, the strict manifest, the
// CLAW.md body that becomes SOUL.md, the OpenClaw profile (conventional path or the
// deprecated metadata pointer), the package-root BOOTSTRAP.md, every workspace source, and
// the development-snapshot integrity. The text steps are pure functions (package_text.hpp);
// the file reads go through the Fs policy, one component at a time from the canonical
// package root, refusing symlinks, symlinked parents, hard links and files that change while
// they are read.
#pragma once

#include "../core/text.hpp"
#include "../core/utf8.hpp"
#include "../digest/sha256.hpp"
#include "../formats/yaml.hpp"
#include "../fs/open_path.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "limits.hpp"
#include "package_text.hpp"
#include "schema.hpp"
#include "value.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// `sha256:<lowercase hex>` of some bytes.
inline std::string sha256_digest(std::string_view bytes) { return digest::sha256_prefixed(bytes); }

// ---------------------------------------------------------------------------------------
// The read model
// ---------------------------------------------------------------------------------------

/// `ClawSourceIdentity`.
struct source_identity {
  std::string kind;  ///< "package" or "development"
  std::string name;
  std::string version;
  std::string package_root;   ///< canonical
  std::string manifest_path;  ///< canonical
  std::string integrity_kind = "development-snapshot";
  std::string integrity;  ///< `sha256:<hex>`
  std::uint64_t byte_length = 0;
};

/// One declared workspace source, in plan order (bootstrap names, then files).
struct workspace_source {
  std::string destination;  ///< a bootstrap name or `files[i].path`
  std::string source;       ///< package-relative
  bool bootstrap = false;
  std::string real_path;  ///< package root + source (no links are allowed on the way)
  std::uint64_t byte_length = 0;
  std::string digest;                 ///< `sha256:<hex>` of the content, when read
  std::optional<diagnostic> problem;  ///< why it cannot be read (the action is then blocked)
};

/// What reading a package gives.
struct claw_package {
  claw_manifest model;                      ///< the validated manifest, when the schema passed
  std::optional<std::string> body;          ///< CLAW.md body bytes, when non-blank (→ SOUL.md)
  std::optional<openclaw_profile> profile;  ///< the validated OpenClaw profile
  std::string profile_path;                 ///< package-relative, when a profile was loaded
  std::optional<std::string> bootstrap;     ///< package-root BOOTSTRAP.md bytes, when present
  source_identity source;
  std::vector<workspace_source> sources;
  /// The body and the sources together exceed the 4 MiB aggregate (the sources alone fit,
  /// else the package is invalid): the plan blocks every file action, as upstream's plan.
  bool sources_too_large = false;
  std::uint64_t workspace_total = 0;  ///< the aggregate limit the package was read with
  std::vector<diagnostic> diagnostics;
  bool ok() const { return !has_errors(diagnostics); }
};

/// Options of one read.
struct read_options {
  openclaw::limits limits;
  host_catalog host;
  /// A metadata pointer is read with the warning `deprecated_openclaw_profile_pointer`, as
  /// the released OpenClaw (2026.9.6) does. Off: the pointer era, no warning.
  bool warn_deprecated_pointer = true;
};

namespace detail {

enum class read_status {
  ok,
  missing,
  symlink,
  symlink_parent,
  hardlink,
  not_regular,
  too_large,
  changed,
  escape,
  io
};

struct file_read {
  read_status status = read_status::ok;
  std::string bytes;
  std::string detail;
};

/// Reads `rel` under the opened root one component at a time: every component a real
/// directory (no symlink), the file regular, not hard-linked, at most `max` bytes by stat
/// and while read, and the same object and size from classification to the last byte.
template <class Fs>
file_read read_in_root(Fs& fs, const typename Fs::dir& root, const std::string& rel,
                       std::uint64_t max) {
  file_read r;
  if (!fs::relative_components(rel) || rel.empty()) {
    r.status = read_status::escape;
    return r;
  }
  try {
    const fs::path_result<Fs> at = fs::try_open_path(fs, root, paths::parent(rel));
    switch (at.refusal) {
      case fs::path_refusal::none:
        break;
      case fs::path_refusal::symlink:
        r.status = read_status::symlink_parent;
        return r;
      case fs::path_refusal::changed:
        r.status = read_status::changed;
        return r;
      case fs::path_refusal::not_directory:
        r.detail = paths::file_name(at.at) + " is not a directory";
        [[fallthrough]];
      default:
        r.status = read_status::missing;
        return r;
    }
    // The file itself by fs::read_file's rule: regular, one link, at most `max` bytes, the
    // same object and size from classification to the last byte.
    fs::read_result got = fs::try_read_file_at(fs, at.get(root), paths::file_name(rel), max);
    // The status of each refusal, in the order of fs::read_refusal (none: the file read).
    static constexpr read_status status_of[] = {read_status::ok,          read_status::missing,
                                                read_status::symlink,     read_status::hardlink,
                                                read_status::not_regular, read_status::too_large,
                                                read_status::changed};
    static_assert(std::size(status_of) == static_cast<std::size_t>(fs::read_refusal::changed) + 1);
    r.status = status_of[static_cast<std::size_t>(got.refusal)];
    if (got.refusal == fs::read_refusal::none) r.bytes = std::move(got.bytes);
  } catch (const error& e) {
    r.status = e.code() == errc::not_found ? read_status::missing : read_status::io;
    r.detail = e.what();
  }
  return r;
}

/// Stat-only size of `rel` (for the aggregate check before reading); nullopt when it is
/// not a plain regular file reachable without links.
template <class Fs>
std::optional<std::uint64_t> size_in_root(Fs& fs, const typename Fs::dir& root,
                                          const std::string& rel) {
  try {
    if (!fs::relative_components(rel) || rel.empty()) return std::nullopt;
    const fs::path_result<Fs> at = fs::try_open_path(fs, root, paths::parent(rel));
    if (!at.ok()) return std::nullopt;
    const auto st = fs.stat_at(at.get(root), paths::file_name(rel));
    if (!st || st->kind != fs::file_kind::regular) return std::nullopt;
    return st->size;
  } catch (const error&) {
    return std::nullopt;
  }
}

inline std::string read_problem(read_status s, const std::string& what, std::uint64_t max,
                                const std::string& extra) {
  switch (s) {
    case read_status::missing:
      return what + " does not exist" + (extra.empty() ? "" : " (" + extra + ")") + ".";
    case read_status::symlink:
      return what + " is a symbolic link; Claw files must be regular files.";
    case read_status::symlink_parent:
      return what + " is reached through a symlinked directory; Claw files must not be.";
    case read_status::hardlink:
      return what + " has more than one hard link; Claw files must not.";
    case read_status::not_regular:
      return what + " is not a regular file.";
    case read_status::too_large:
      return what + " is larger than " + std::to_string(max) + " bytes.";
    case read_status::changed:
      return what + " changed while it was read" + (extra.empty() ? "" : " (" + extra + ")") + ".";
    case read_status::escape:
      return what + " is not a package-relative path.";
    case read_status::io:
      return "Could not read " + what + (extra.empty() ? "" : ": " + extra) + ".";
    case read_status::ok:
      break;
  }
  return what;
}

/// A snapshot record: `<len(label)>:<label>:<len(bytes)>:` + bytes.
inline void snapshot_record(digest::sha256& h, std::uint64_t& total, const std::string& label,
                            std::string_view bytes) {
  const std::string head =
      std::to_string(label.size()) + ":" + label + ":" + std::to_string(bytes.size()) + ":";
  h.update(head);
  h.update(bytes);
  total += bytes.size();
}

/// One read in progress: the package being built, the opened root and the bytes the
/// development snapshot covers. Each step below returns false when it has refused (its
/// diagnostic is then the last one) and reading stops there.
template <class Fs>
struct package_read {
  Fs& fs;
  const read_options& opt;
  const std::string& source_path;
  claw_package pkg;
  std::string root;          ///< the canonical package root
  std::string manifest_rel;  ///< the manifest, package-relative
  /// The manifest's name as declared (package.json's `openclaw.claw`, or the path given):
  /// it, not a symlink target's, says whether the manifest is a CLAW.md envelope.
  std::string declared_name;
  std::optional<typename Fs::dir> root_dir;
  std::string manifest_bytes;
  bool markdown = false;  ///< the manifest is a CLAW.md envelope
  std::optional<std::string> package_json_bytes;
  std::optional<std::string> profile_bytes;
  std::vector<std::pair<std::string, std::string>> contents;  ///< (source, bytes), snapshot

  package_read(Fs& f, const read_options& o, const std::string& path)
      : fs(f), opt(o), source_path(path) {}

  bool fail(errc code, std::string path, std::string msg) {
    pkg.diagnostics.push_back(error_at(code, phase::parse, std::move(path), std::move(msg)));
    return false;
  }
};

/// The source: canonical path, a package directory or a development manifest file, and
/// its root opened.
template <class Fs>
bool locate_source(package_read<Fs>& r) {
  Fs& fs = r.fs;
  const std::string& source_path = r.source_path;
  const std::optional<std::string> canonical = fs.canonical(source_path);
  if (!canonical) return r.fail(errc::read_failed, "$", "Could not read " + source_path + ".");
  // Classify the canonical source through its parent.
  const std::string& src = *canonical;
  std::optional<fs::stat_info> st;
  if (src == "/") {
    st = fs.stat(fs.open_root("/"));
  } else {
    try {
      auto parent = fs.open_root(paths::parent(src));
      st = fs.stat_at(parent, paths::file_name(src));
    } catch (const error&) {
      return r.fail(errc::read_failed, "$", "Could not read " + source_path + ".");
    }
  }
  if (!st) return r.fail(errc::read_failed, "$", "Could not read " + source_path + ".");
  source_identity& id = r.pkg.source;
  if (st->kind == fs::file_kind::directory) {
    r.root = src;
    id.kind = "package";
  } else if (st->kind == fs::file_kind::regular) {
    r.root = paths::parent(src);
    r.manifest_rel = paths::file_name(src);
    r.declared_name = paths::file_name(source_path);
    id.kind = "development";
    std::string base = r.manifest_rel;
    if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0)
      base.resize(base.size() - 5);
    id.name = "local:" + base;
    id.version = "0.0.0-development";
  } else {
    return r.fail(errc::unsupported_source, "$",
                  source_path + " is neither a Claw package directory nor a manifest file.");
  }
  id.package_root = r.root;
  try {
    r.root_dir.emplace(fs.open_root(r.root));
  } catch (const error& e) {
    return r.fail(errc::read_failed, "$", "Could not open " + r.root + ": " + e.what());
  }
  return true;
}

/// A package directory's package.json: its identity, and the manifest it names, which must
/// resolve inside the package.
template <class Fs>
bool read_package_json(package_read<Fs>& r) {
  const limits& lim = r.opt.limits;
  file_read pj = read_in_root(r.fs, *r.root_dir, "package.json", lim.package_json);
  if (pj.status == read_status::too_large) {
    return r.fail(errc::package_read_failed_too_large, "$",
                  "package.json is larger than " + std::to_string(lim.package_json) + " bytes.");
  }
  if (pj.status != read_status::ok) {
    return r.fail(errc::package_read_failed, "$",
                  read_problem(pj.status, "package.json", lim.package_json, pj.detail));
  }
  const auto meta = parse_package_json(pj.bytes, r.pkg.diagnostics);
  if (!meta) return false;
  r.pkg.source.name = meta->name;
  r.pkg.source.version = meta->version;
  r.package_json_bytes = std::move(pj.bytes);
  const std::string declared = paths::join(r.root, forward_slashes(meta->claw));
  const std::optional<std::string> real = r.fs.canonical(declared);
  const std::string prefix = r.root == "/" ? "/" : r.root + "/";
  // As upstream (resolvePackageSource): a manifest that does not resolve, or resolves
  // outside the package root, escapes it.
  if (!real || real->size() <= prefix.size() || real->compare(0, prefix.size(), prefix) != 0) {
    return r.fail(errc::manifest_escapes_package, "$",
                  "The declared Claw manifest must resolve inside its package root.");
  }
  r.manifest_rel = real->substr(prefix.size());
  r.declared_name = paths::file_name(forward_slashes(meta->claw));
  return true;
}

/// The manifest's bytes to JSON data: the CLAW.md envelope's YAML frontmatter (its body
/// kept in `body`) or the grouped JSON form.
template <class Fs>
std::optional<value> parse_manifest_bytes(package_read<Fs>& r, std::string& body) {
  const std::string& rel = r.manifest_rel;
  if (!r.markdown) {
    value raw = value::parse(r.manifest_bytes.begin(), r.manifest_bytes.end(), nullptr, false);
    if (raw.is_discarded()) {
      r.fail(errc::invalid_json, "$", rel + " is not valid JSON.");
      return std::nullopt;
    }
    return raw;
  }
  envelope env = split_envelope(r.manifest_bytes);
  if (!env.found) {
    r.fail(errc::missing_claw_frontmatter, "$",
           rel + " must start with YAML frontmatter between --- lines.");
    return std::nullopt;
  }
  if (!clawport::detail::valid_utf8(env.frontmatter) || !clawport::detail::valid_utf8(env.body)) {
    // Upstream's words (openclaw 2026.9.6 refuses such a file; tests/oracle/cases/peers.sh).
    r.fail(errc::invalid_claw_markdown_utf8, "$",
           paths::join(r.root, r.manifest_rel) + " must contain valid UTF-8.");
    return std::nullopt;
  }
  const yaml_document doc{rel + " frontmatter", errc::invalid_claw_frontmatter,
                          errc::unsupported_claw_yaml_feature, "", 1};
  auto parsed = yaml_to_json(env.frontmatter, doc, r.opt.limits.manifest, r.opt.limits.yaml_depth,
                             r.pkg.diagnostics);
  if (parsed) body = std::move(env.body);
  return parsed;
}

/// Whether a workspace declaration (bootstrap file or `files[].path`) names SOUL.md, which
/// the CLAW.md body becomes.
inline bool declares_soul(const claw_manifest& m) {
  bool clash = false;
  for (const auto& b : m.bootstrap_files)
    clash = clash || keys_conflict(portable_key(b.path), "soul.md");
  for (const auto& f : m.files) clash = clash || keys_conflict(portable_key(f.path), "soul.md");
  return clash;
}

/// The manifest: read, parsed, validated by the strict schema; the CLAW.md body kept when
/// it is not blank and does not clash with a declared SOUL.md.
template <class Fs>
bool read_manifest(package_read<Fs>& r) {
  const limits& lim = r.opt.limits;
  claw_package& pkg = r.pkg;
  pkg.source.manifest_path = paths::join(r.root, r.manifest_rel);
  file_read mf = read_in_root(r.fs, *r.root_dir, r.manifest_rel, lim.manifest);
  if (mf.status == read_status::too_large) {
    return r.fail(errc::read_failed_too_large, "$",
                  r.manifest_rel + " is larger than " + std::to_string(lim.manifest) + " bytes.");
  }
  if (mf.status != read_status::ok) {
    return r.fail(errc::read_failed, "$",
                  read_problem(mf.status, r.manifest_rel, lim.manifest, mf.detail));
  }
  r.manifest_bytes = std::move(mf.bytes);
  r.markdown = text::iequals_ascii(
      r.declared_name.empty() ? paths::file_name(r.manifest_rel) : r.declared_name, "CLAW.md");
  std::string body;
  std::optional<value> raw = parse_manifest_bytes(r, body);
  if (!raw) return false;
  manifest_result mr = validate_manifest(*raw);
  for (auto& d : mr.diagnostics) pkg.diagnostics.push_back(std::move(d));
  if (!mr.ok()) return false;
  pkg.model = std::move(mr.model);
  if (r.markdown && !text::js_trim(body).empty()) pkg.body = body;
  if (pkg.body && declares_soul(pkg.model)) {
    return r.fail(errc::claw_body_soul_conflict, "$.workspace",
                  "The CLAW.md body becomes SOUL.md; remove the workspace declaration of SOUL.md "
                  "or the body.");
  }
  return true;
}

/// Where the profile is: the deprecated metadata pointer (checked, and refused when it
/// disagrees with the conventional file) or `profiles/openclaw.yml` when present. Sets
/// `rel` and the diagnostic root `at`; both stay empty when there is no profile.
template <class Fs>
bool locate_profile(package_read<Fs>& r, std::string& rel, std::string& at) {
  const std::string conventional = "profiles/openclaw.yml";
  const std::string* declared = r.pkg.model.metadata_value("openclaw.config");
  if (declared == nullptr) {
    file_read probe = read_in_root(r.fs, *r.root_dir, conventional, 0);
    if (probe.status != read_status::missing) {
      rel = conventional;
      at = "$.profiles.openclaw";
    }
    return true;
  }
  const std::string& pointer = *declared;
  if (!valid_profile_pointer(pointer)) {
    return r.fail(errc::invalid_openclaw_profile_path, "$.metadata.openclaw.config",
                  "metadata[\"openclaw.config\"] must reference a forward-slash package-relative "
                  ".yml or .yaml file.");
  }
  const bool conventional_exists = r.fs.stat_at(*r.root_dir, "profiles").has_value() &&
                                   size_in_root(r.fs, *r.root_dir, conventional).has_value();
  if (conventional_exists && pointer != conventional) {
    return r.fail(errc::conflicting_openclaw_profile_pointer, "$.metadata.openclaw.config",
                  "metadata[\"openclaw.config\"] names " + pointer + " but the package also has " +
                      conventional + "; remove the deprecated pointer.");
  }
  if (r.opt.warn_deprecated_pointer) {
    r.pkg.diagnostics.push_back(warning_at(
        errc::deprecated_openclaw_profile_pointer, phase::parse, "$.metadata.openclaw.config",
        "metadata.openclaw.config is deprecated; move the profile to " + conventional +
            " and remove the metadata entry."));
  }
  rel = pointer;
  at = "$.metadata.openclaw.config";
  return true;
}

/// The OpenClaw profile, when the package has one: read without links, UTF-8 YAML that
/// maps to JSON, valid by the strict profile schema.
template <class Fs>
bool read_profile(package_read<Fs>& r) {
  std::string rel;
  std::string at;
  if (!locate_profile(r, rel, at)) return false;
  if (rel.empty()) return true;
  const limits& lim = r.opt.limits;
  file_read pr = read_in_root(r.fs, *r.root_dir, rel, lim.profile);
  switch (pr.status) {
    case read_status::ok:
      break;
    case read_status::too_large:
      return r.fail(errc::openclaw_profile_too_large, at,
                    rel + " is larger than " + std::to_string(lim.profile) + " bytes.");
    case read_status::symlink:
    case read_status::symlink_parent:
    case read_status::hardlink:
    case read_status::changed:
      return r.fail(errc::openclaw_profile_unsafe, at,
                    read_problem(pr.status, rel, lim.profile, pr.detail));
    default:
      return r.fail(errc::openclaw_profile_read_failed, at,
                    read_problem(pr.status, rel, lim.profile, pr.detail));
  }
  std::vector<diagnostic>& ds = r.pkg.diagnostics;
  std::string_view text = pr.bytes;
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.remove_prefix(3);
  if (!clawport::detail::valid_utf8(text))
    return r.fail(errc::invalid_openclaw_profile, at, rel + " is not valid UTF-8.");
  // Upstream reports a profile that is not JSON-compatible YAML at `$`, naming the file in
  // the message; only schema problems are placed under the profile's root.
  const yaml_document doc{rel, errc::invalid_openclaw_profile,
                          errc::unsupported_openclaw_profile_yaml_feature, "OpenClaw profile YAML",
                          0};
  auto parsed = yaml_to_json(text, doc, lim.profile, lim.yaml_depth, ds);
  if (!parsed) return false;
  profile_result prr = validate_profile(*parsed, at, r.opt.host, rel);
  for (auto& d : prr.diagnostics) ds.push_back(std::move(d));
  if (!prr.ok()) return false;
  r.pkg.profile = std::move(prr.profile);
  r.pkg.profile_path = rel;
  r.profile_bytes = std::move(pr.bytes);
  return true;
}

/// The package-root BOOTSTRAP.md, when present: non-blank UTF-8 within its limit.
template <class Fs>
bool read_package_bootstrap(package_read<Fs>& r) {
  const std::uint64_t max = r.opt.limits.bootstrap;
  file_read bs = read_in_root(r.fs, *r.root_dir, "BOOTSTRAP.md", max);
  if (bs.status == read_status::too_large) {
    return r.fail(errc::package_bootstrap_too_large, "$.bootstrap",
                  "Package-root BOOTSTRAP.md exceeds " + std::to_string(max) + " bytes.");
  }
  // Upstream's words (reader.ts); its TextDecoder's message for bytes that are not UTF-8.
  const std::string invalid = "Package-root BOOTSTRAP.md must be a safe UTF-8 regular file: ";
  if (bs.status == read_status::ok) {
    if (!clawport::detail::valid_utf8(bs.bytes))
      return r.fail(errc::package_bootstrap_invalid, "$.bootstrap",
                    invalid + "The encoded data was not valid for encoding utf-8");
    if (text::js_trim(bs.bytes).empty())
      return r.fail(errc::package_bootstrap_empty, "$.bootstrap",
                    "Package-root BOOTSTRAP.md must contain first-run instructions.");
    r.pkg.bootstrap = std::move(bs.bytes);
  } else if (bs.status != read_status::missing) {
    return r.fail(errc::package_bootstrap_invalid, "$.bootstrap",
                  invalid + read_problem(bs.status, "BOOTSTRAP.md", max, bs.detail));
  }
  return true;
}

/// The declared workspace sources in plan order: the bootstrap names, then `files`.
inline std::vector<workspace_source> declared_sources(const claw_manifest& m) {
  std::vector<workspace_source> out;
  for (const auto& b : m.bootstrap_files) {
    workspace_source s;
    s.destination = b.path;
    s.source = b.source;
    s.bootstrap = true;
    out.push_back(std::move(s));
  }
  for (const auto& f : m.files) {
    workspace_source s;
    s.destination = f.path;
    s.source = f.source;
    out.push_back(std::move(s));
  }
  return out;
}

/// The code for a workspace source that cannot be read, or nullopt when it was read.
inline std::optional<errc> source_problem_code(read_status s) {
  switch (s) {
    case read_status::ok:
      return std::nullopt;
    case read_status::too_large:
      return errc::workspace_source_too_large;
    case read_status::symlink:
    case read_status::symlink_parent:
    case read_status::hardlink:
    case read_status::changed:
      return errc::workspace_source_unsafe;
    default:
      return errc::workspace_source_invalid;
  }
}

/// Upstream's diagnostic for a workspace source that cannot be used (reader.ts,
/// workspaceSourceDiagnostic): at `$.workspace`, naming the source.
inline diagnostic source_diagnostic(errc code, const std::string& source, std::uint64_t max) {
  const std::string name = js_string(source);
  const std::string message =
      code == errc::workspace_source_too_large
          ? "Workspace source " + name + " exceeds " + std::to_string(max) + " bytes."
      : code == errc::workspace_source_unsafe
          ? "Workspace source " + name + " must be a regular, non-symlinked, non-hardlinked file."
          : "Workspace source " + name + " must resolve inside the Claw source.";
  return error_at(code, phase::parse, "$.workspace", message);
}

/// Every workspace source, as upstream's reader: in byte order of the source paths, each
/// checked without reading it (the first that cannot be used is the one diagnostic), then
/// the aggregate of their stat sizes (`workspace_sources_too_large`), then each read and
/// digested. Body and sources over the aggregate together only block the plan.
template <class Fs>
void read_workspace_sources(package_read<Fs>& r) {
  claw_package& pkg = r.pkg;
  const limits& lim = r.opt.limits;
  pkg.sources = declared_sources(pkg.model);
  pkg.workspace_total = lim.workspace_total;
  std::vector<std::size_t> order(pkg.sources.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return pkg.sources[a].source < pkg.sources[b].source;
  });
  const auto refuse = [&](workspace_source& s, errc code) {
    s.problem = source_diagnostic(code, s.source, lim.workspace_source);
    pkg.diagnostics.push_back(*s.problem);
  };
  std::uint64_t aggregate = 0;
  for (const std::size_t k : order) {
    workspace_source& s = pkg.sources[k];
    s.real_path = paths::join(r.root, s.source);
    // A probe that reads nothing: every refusal but size, by stat.
    const file_read probe = read_in_root(r.fs, *r.root_dir, s.source, 0);
    const auto code = source_problem_code(probe.status);
    if (code && *code != errc::workspace_source_too_large) return refuse(s, *code);
    const std::uint64_t size = size_in_root(r.fs, *r.root_dir, s.source).value_or(0);
    if (size > lim.workspace_source) return refuse(s, errc::workspace_source_too_large);
    aggregate += size;
  }
  const diagnostic too_large = error_at(
      errc::workspace_sources_too_large, phase::parse, "$.workspace",
      "Workspace sources exceed " + std::to_string(lim.workspace_total) + " aggregate bytes.");
  if (aggregate > lim.workspace_total) return pkg.diagnostics.push_back(too_large);
  std::uint64_t read_total = 0;
  for (const std::size_t k : order) {
    workspace_source& s = pkg.sources[k];
    file_read fr = read_in_root(r.fs, *r.root_dir, s.source, lim.workspace_source);
    if (const auto code = source_problem_code(fr.status)) return refuse(s, *code);
    read_total += fr.bytes.size();
    if (read_total > lim.workspace_total) return pkg.diagnostics.push_back(too_large);
    s.byte_length = fr.bytes.size();
    s.digest = sha256_digest(fr.bytes);
    r.contents.emplace_back(s.source, std::move(fr.bytes));
  }
  if (read_total + (pkg.body ? pkg.body->size() : 0) > lim.workspace_total)
    pkg.sources_too_large = true;
}

/// The development snapshot: every byte the package's meaning depends on, labelled.
template <class Fs>
void seal_snapshot(package_read<Fs>& r) {
  claw_package& pkg = r.pkg;
  digest::sha256 h;
  std::uint64_t total = 0;
  snapshot_record(h, total, "canonical-source", pkg.source.manifest_path);
  snapshot_record(h, total, "manifest", r.manifest_bytes);
  if (r.profile_bytes) snapshot_record(h, total, "profile:" + pkg.profile_path, *r.profile_bytes);
  if (r.package_json_bytes) snapshot_record(h, total, "package.json", *r.package_json_bytes);
  if (pkg.bootstrap) snapshot_record(h, total, "bootstrap:BOOTSTRAP.md", *pkg.bootstrap);
  std::stable_sort(r.contents.begin(), r.contents.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& c : r.contents) snapshot_record(h, total, "workspace:" + c.first, c.second);
  pkg.source.integrity = digest::prefixed(digest::to_hex(h.finish()));
  pkg.source.byte_length = total;
}

}  // namespace detail

/// Reads the package or development source at the absolute path `source_path`.
/// Never throws for a bad package: every problem is a diagnostic. Throws clawport::error
/// only when the Fs itself fails in a way that is not about the package.
template <class Fs>
claw_package read_package(Fs& fs, const std::string& source_path, const read_options& opt = {}) {
  static_assert(fs::check_policy<Fs>());
  detail::package_read<Fs> r(fs, opt, source_path);
  if (!detail::locate_source(r)) return std::move(r.pkg);
  if (r.pkg.source.kind == "package" && !detail::read_package_json(r)) return std::move(r.pkg);
  if (!detail::read_manifest(r) || !detail::read_profile(r) || !detail::read_package_bootstrap(r))
    return std::move(r.pkg);
  detail::read_workspace_sources(r);
  detail::seal_snapshot(r);
  return std::move(r.pkg);
}

// ---------------------------------------------------------------------------------------
// JSON shapes
// ---------------------------------------------------------------------------------------

/// `ClawSourceIdentity` as JSON.
inline value to_json(const source_identity& s) {
  using t = source_identity;
  return json::object_of<value>(
      s, json::field("kind", &t::kind), json::field("name", &t::name),
      json::field("version", &t::version), json::field("packageRoot", &t::package_root),
      json::field("manifestPath", &t::manifest_path),
      json::field("integrityKind", &t::integrity_kind), json::field("integrity", &t::integrity),
      json::field("byteLength", &t::byte_length));
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
