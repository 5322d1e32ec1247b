// SPDX-License-Identifier: MIT
// The static skill audit (docs/library.md, Skills): script files and shebangs, symlinks,
// size limits, Markdown links, TOML tool entries. The checks are pure functions on text;
// `audit_skill_directory` walks a skill through the Fs policy and applies them.
//
// Beyond upstream (non-blocking findings, so the loaded set stays upstream's): FIFOs,
// sockets and devices are reported and never opened (upstream would block reading one).
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "../fs/walk.hpp"
#include "locations.hpp"
#include "manifest.hpp"
#include "text.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// Markdown and TOML files larger than this are a finding and are not read.
inline constexpr std::uint64_t audit_max_text_bytes = 524288;

/// Audit switches; `allow_scripts` comes from `[skills] allow_scripts`.
struct audit_options {
  bool allow_scripts = false;
};

/// One audit finding. `file` is relative to the skill root ("" for the root itself),
/// `line` is 1-based where a line is meaningful, `reason` is upstream's text without the
/// file prefix. Non-blocking findings are clawport's additions and never drop a skill.
struct audit_finding {
  std::string file;
  std::optional<std::size_t> line;
  std::string reason;
  bool blocking = true;

  /// Upstream's rendering: `<file>: <reason>` (just the reason for the root).
  std::string message() const { return file.empty() ? reason : file + ": " + reason; }
};

/// Result of auditing one skill directory.
struct audit_report {
  std::size_t files_scanned = 0;  ///< files (and symlinks, special files) seen; not directories
  std::vector<audit_finding> findings;
  bool scripts_blocked = false;

  /// No blocking finding: the loader keeps the skill.
  bool clean() const {
    return std::none_of(findings.begin(), findings.end(),
                        [](const audit_finding& f) { return f.blocking; });
  }
  /// Blocking findings joined with "; " (upstream's `summary()`).
  std::string summary() const {
    std::string out;
    for (const audit_finding& f : findings) {
      if (!f.blocking) continue;
      if (!out.empty()) out += "; ";
      out += f.message();
    }
    return out;
  }
};

inline constexpr std::string_view script_suffixes[] = {".sh",   ".bash", ".zsh", ".ksh",
                                                       ".fish", ".ps1",  ".bat", ".cmd"};

/// True when `path` ends (ASCII case-insensitively) with a blocked script suffix.
inline bool has_script_suffix(std::string_view path) {
  return std::any_of(std::begin(script_suffixes), std::end(script_suffixes),
                     [&](std::string_view s) { return detail::iends_with(path, s); });
}

namespace detail {

inline std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  s = text::trim_start(s);
  while (!s.empty()) {
    std::size_t i = 0;
    while (i < s.size() && text::space_len(s, i) == 0) ++i;
    out.push_back(s.substr(0, i));
    s = text::trim_start(s.substr(i));
  }
  return out;
}

}  // namespace detail

/// The interpreter a shebang names (docs/library.md, Skills), lowercased; nullopt without a `#!`
/// line. `head` is the start of the file (only its first 128 bytes are looked at).
inline std::optional<std::string> shebang_interpreter(std::string_view head) {
  head = head.substr(0, 128);
  std::string_view first = head.substr(0, head.find('\n'));
  if (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  const std::string line = text::to_lower_ascii(text::trim(first));
  if (!detail::starts_with(line, "#!")) return std::nullopt;
  const auto tokens = detail::split_ws(std::string_view(line).substr(2));
  if (tokens.empty()) return std::nullopt;
  std::string interp = paths::file_name(tokens[0]);
  if (interp == "env") {
    std::size_t i = 1;
    while (i < tokens.size() && detail::starts_with(tokens[i], "-")) ++i;
    if (i == tokens.size()) return std::nullopt;
    interp = paths::file_name(tokens[i]);
  }
  return std::string(interp);
}

/// True when the file starts with a shell shebang (sh, bash, zsh, ksh, fish, pwsh,
/// powershell); `#!/usr/bin/env python3` is not one.
inline bool has_shell_shebang(std::string_view head) {
  const auto interp = shebang_interpreter(head);
  if (!interp) return false;
  for (std::string_view s : {"sh", "bash", "zsh", "ksh", "fish", "pwsh", "powershell"}) {
    if (*interp == s) return true;
  }
  return false;
}

/// A Markdown link target as upstream's regex `\[[^\]]*\]\(([^)]+)\)` captures it.
struct markdown_link {
  std::string target;
  std::size_t line = 1;  ///< line of the opening `[`
};

/// Every link of the text, leftmost-first and non-overlapping, like the regex (no code
/// block awareness; a match may span lines; a `)` ends the target). Linear time.
inline std::vector<markdown_link> markdown_links(std::string_view text) {
  std::vector<markdown_link> out;
  std::size_t line = 1;
  std::size_t counted = 0;  // text[0, counted) has been scanned for newlines
  std::size_t i = 0;
  while ((i = text.find('[', i)) != std::string_view::npos) {
    const std::size_t close = text.find(']', i + 1);
    if (close == std::string_view::npos) break;  // no later '[' can match either
    // Every '[' before `close` shares this `]`, so on failure none of them can match.
    if (close + 1 >= text.size() || text[close + 1] != '(') {
      i = close + 1;
      continue;
    }
    const std::size_t end = text.find(')', close + 2);
    if (end == std::string_view::npos) break;
    if (end == close + 2) {
      i = close + 1;
      continue;
    }
    line +=
        static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                                            text.begin() + static_cast<std::ptrdiff_t>(i), '\n'));
    counted = i;
    out.push_back({std::string(text.substr(close + 2, end - close - 2)), line});
    i = end + 1;
  }
  return out;
}

/// True for a link upstream treats as a reference to another skill: a `..` component, or
/// a bare `name.md` (one leading `./` allowed).
inline bool is_cross_skill_reference(std::string_view s) {
  std::string_view rest = s;
  while (true) {
    const std::size_t slash = rest.find('/');
    if (rest.substr(0, slash) == "..") return true;
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  std::string_view bare = s;
  if (detail::starts_with(bare, "./")) bare.remove_prefix(2);
  return bare.find('/') == std::string_view::npos && bare.find('\\') == std::string_view::npos &&
         (detail::iends_with(bare, ".md") || detail::iends_with(bare, ".markdown"));
}

/// What the pure part of the link check (docs/library.md, Skills) decides for one target.
struct link_verdict {
  enum kind_t { skip, finding, resolve } kind = skip;
  std::string reason;  ///< for `finding`
  std::string shown;   ///< the cleaned target as shown in messages (`t`)
  std::string path;    ///< for `resolve`: the path part (`s`)
};

/// Classifies one captured link target without touching the filesystem.
inline link_verdict classify_markdown_link(std::string_view raw) {
  link_verdict v;
  std::string_view t = text::trim(raw);
  if (!t.empty() && t.front() == '<') t.remove_prefix(1);
  if (!t.empty() && t.back() == '>') t.remove_suffix(1);
  const auto words = detail::split_ws(t);
  t = words.empty() ? std::string_view{} : words.front();
  if (t.empty() || t.front() == '#') return v;
  v.shown = std::string(t);
  std::string_view scheme;
  std::string_view after;
  if (detail::split_once(t, ':', scheme, after) && !scheme.empty() && !after.empty() &&
      std::all_of(scheme.begin(), scheme.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '+' || c == '.' || c == '-';
      })) {
    if (scheme == "http" || scheme == "https" || scheme == "mailto") return v;
    v.kind = link_verdict::finding;
    v.reason = "unsupported URL scheme in markdown link (" + v.shown + ").";
    return v;
  }
  const std::string_view s = t.substr(0, t.find_first_of("#?"));
  if (s.empty()) return v;
  const bool drive = s.size() >= 3 &&
                     ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')) &&
                     s[1] == ':' && (s[2] == '/' || s[2] == '\\');
  if (s.front() == '/' || drive || detail::starts_with(s, "~/")) {
    v.kind = link_verdict::finding;
    v.reason = "absolute markdown link paths are not allowed (" + v.shown + ").";
    return v;
  }
  if (has_script_suffix(s)) {
    v.kind = link_verdict::finding;
    v.reason = "markdown links to script files are blocked (" + v.shown + ").";
    return v;
  }
  if (!detail::iends_with(s, ".md") && !detail::iends_with(s, ".markdown")) return v;
  v.kind = link_verdict::resolve;
  v.path = std::string(s);
  return v;
}

/// The TOML part of the audit (docs/library.md, Skills) on one file's text: parse errors and
/// `[[tools]]` entries without a (non-blank, for shell/script) `command`. `file` prefixes nothing;
/// it is copied into the findings.
inline std::vector<audit_finding> audit_toml_text(std::string_view text, const std::string& file) {
  std::vector<audit_finding> out;
  toml::table root;
  try {
    root = detail::parse_toml(text, file);
  } catch (const error& e) {
    std::string msg = e.what();
    // Keep the parser's own words; our prefix repeats the file name.
    if (detail::starts_with(msg, file + ":")) msg.erase(0, file.size() + 1);
    std::optional<std::size_t> line;
    const std::size_t colon = msg.find(':');
    if (colon != std::string::npos) {
      const auto n = detail::parse_rust_u32(msg.substr(0, colon));
      if (n) line = *n;
    }
    out.push_back({file, line, "invalid TOML manifest (" + msg + ").", true});
    return out;
  }
  const toml::node* tools = root.get("tools");
  if (!tools || !tools->is_array()) return out;
  std::size_t i = 0;
  for (const toml::node& t : *tools->as_array()) {
    const std::size_t line = t.source().begin.line;
    const std::optional<std::size_t> at = line ? std::optional<std::size_t>(line) : std::nullopt;
    const toml::table* tt = t.as_table();
    const toml::node* cmd = tt ? tt->get("command") : nullptr;
    const std::string idx = "tools[" + std::to_string(i++) + "]";
    if (!cmd || !cmd->is_string()) {
      out.push_back({file, at, idx + " is missing a command field.", true});
      continue;
    }
    std::string kind = "unknown";
    if (const toml::node* k = tt->get("kind"); k && k->is_string()) kind = k->as_string()->get();
    if ((text::iequals_ascii(kind, "script") || text::iequals_ascii(kind, "shell")) &&
        detail::is_blank(cmd->as_string()->get())) {
      out.push_back({file, at, idx + " has an empty " + kind + " command.", true});
    }
  }
  return out;
}

namespace detail {

/// Reads up to `cap` bytes of an open file: a prefix (a shebang); whole files are read by
/// fs::read_file.
template <class Fs>
std::string read_up_to(Fs& fs, typename Fs::file& f, std::uint64_t cap) {
  std::string out;
  char buf[8192];
  while (out.size() < cap) {
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buf, cap - out.size()));
    const std::size_t got = fs.read(f, buf, want);
    if (got == 0) break;
    out.append(buf, got);
  }
  return out;
}

/// What a path outside the walked tree is, following symlinks; nullopt when missing.
template <class Fs>
std::optional<fs::file_kind> probe_outside(Fs& fs, const std::string& abs) {
  const std::string norm = paths::normalize(abs);
  const std::string dir = paths::parent(norm);
  const std::string name = paths::file_name(norm);
  if (dir.empty() || name.empty()) return fs::file_kind::directory;
  try {
    auto parent = fs.open_root(dir);
    const auto st = fs.stat_at(parent, name);
    if (!st) return std::nullopt;
    if (st->kind != fs::file_kind::symlink) return st->kind;
  } catch (const error&) {
    return std::nullopt;
  }
  try {
    (void)fs.open_root(norm);
    return fs::file_kind::directory;
  } catch (const error& e) {
    if (e.sys_errno() == ENOTDIR) return fs::file_kind::regular;
    return std::nullopt;
  }
}

struct walked_entry {
  std::string rel;
  fs::file_kind kind;
  std::vector<audit_finding> findings;
  std::vector<markdown_link> links;  ///< for Markdown files, checked after the walk
};

/// What the audit does with what the one walk (fs/walk.hpp) meets: every entry becomes a
/// `walked_entry` (directories before what they hold), each file is read and checked.
template <class Fs>
class audit_visitor : public fs::walk_visitor {
 public:
  using dir = typename Fs::dir;

  audit_visitor(Fs& fs, const audit_options& opt, audit_report& report,
                std::vector<walked_entry>& entries)
      : fs_(fs), opt_(opt), report_(report), entries_(entries) {}

  error too_deep(const std::string& rel, std::size_t max_depth) const {
    return error(errc::limit_exceeded,
                 "skill tree is nested deeper than " + std::to_string(max_depth) + " directories",
                 rel);
  }

  bool visit(const dir& d, std::string_view name, const std::string& rel, const fs::stat_info& st) {
    if (st.kind == fs::file_kind::directory) return true;
    ++report_.files_scanned;
    walked_entry e{rel, st.kind, {}, {}};
    if (st.kind == fs::file_kind::symlink) {
      add(e, "symlinks are not allowed in installed skills.");
    } else if (st.kind == fs::file_kind::other) {
      if (!opt_.allow_scripts && has_script_suffix(name)) {
        report_.scripts_blocked = true;
        add(e, "script-like files are blocked by skill security policy.");
      }
      add(e, "special file (FIFO, socket or device) was not audited; it cannot travel in a bundle.",
          std::nullopt, false);
    } else {
      file(d, name, st, e);
    }
    entries_.push_back(std::move(e));
    return false;
  }

  std::optional<dir> enter(const dir& d, std::string_view name, const std::string& rel,
                           const fs::stat_info&) {
    entries_.push_back({rel, fs::file_kind::directory, {}, {}});
    return fs_.open_dir_at(d, name);
  }

 private:
  static void add(walked_entry& e, std::string reason,
                  std::optional<std::size_t> line = std::nullopt, bool blocking = true) {
    e.findings.push_back({e.rel, line, std::move(reason), blocking});
  }

  void file(const dir& d, std::string_view name, const fs::stat_info& st, walked_entry& e) {
    const bool is_md = iends_with(name, ".md") || iends_with(name, ".markdown");
    const bool is_toml = iends_with(name, ".toml");
    const bool too_large = (is_md || is_toml) && st.size > audit_max_text_bytes;
    auto f = fs_.open_file_at(d, name);
    if (fs_.stat(f).kind != fs::file_kind::regular) {
      throw error(errc::identity_changed, "skill file changed while it was audited: " + e.rel,
                  e.rel);
    }
    const bool read_all = (is_md || is_toml) && !too_large;
    // A text the audit parses is read whole by fs::read_file's rule; any other file only
    // for its first 128 bytes (a shebang).
    fs::read_result whole;
    if (read_all) {
      whole = fs::try_read_file_at(fs_, d, name, audit_max_text_bytes, fs::read_kinds::hard_linked);
      if (whole.refusal != fs::read_refusal::none && whole.refusal != fs::read_refusal::too_large)
        throw error(errc::identity_changed, "skill file changed while it was audited: " + e.rel,
                    e.rel);
    }
    const std::string data = read_all ? std::move(whole.bytes) : read_up_to(fs_, f, 128);
    if (!opt_.allow_scripts && (has_script_suffix(name) || has_shell_shebang(data))) {
      report_.scripts_blocked = true;
      add(e, "script-like files are blocked by skill security policy.",
          has_script_suffix(name) ? std::nullopt : std::optional<std::size_t>(1));
    }
    if (too_large || (read_all && whole.refusal == fs::read_refusal::too_large)) {
      add(e, "file is too large for static audit (>" + std::to_string(audit_max_text_bytes) +
                 " bytes).");
    } else if (is_md) {
      if (!utf8::valid(data)) {
        throw error(errc::skill_invalid, "failed to read markdown file " + e.rel, e.rel);
      }
      e.links = markdown_links(data);
    } else if (is_toml) {
      if (!utf8::valid(data)) {
        throw error(errc::skill_invalid, "failed to read TOML manifest " + e.rel, e.rel);
      }
      for (audit_finding& tf : audit_toml_text(data, e.rel)) e.findings.push_back(std::move(tf));
    }
  }

  Fs& fs_;
  const audit_options& opt_;
  audit_report& report_;
  std::vector<walked_entry>& entries_;
};

/// Kind of a walked path, or of the symlink on the way to it; nullopt if not walked.
inline std::optional<fs::file_kind> lookup_walked(const std::map<std::string, fs::file_kind>& kinds,
                                                  const std::vector<std::string>& parts) {
  std::string path;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    path = paths::join(path, parts[i]);
    const auto it = kinds.find(path);
    if (it == kinds.end()) return std::nullopt;
    if (it->second == fs::file_kind::symlink) return fs::file_kind::symlink;
    if (i + 1 == parts.size()) return it->second;
  }
  return fs::file_kind::directory;  // the root itself
}

/// Opens the skill's root, with upstream's wording for a missing or non-directory source.
template <class Fs>
typename Fs::dir open_skill_root(Fs& fs, const std::string& dir, const std::string& root_path) {
  try {
    return fs.open_root(root_path);
  } catch (const error& e) {
    if (e.code() == errc::not_found || e.sys_errno() == ENOENT) {
      throw error(errc::not_found, "Skill source does not exist: " + dir, dir, e.sys_errno());
    }
    if (e.sys_errno() == ENOTDIR) {
      throw error(errc::invalid_argument, "Skill source must be a directory: " + dir, dir,
                  e.sys_errno());
    }
    throw;
  }
}

/// The nearest ancestor of `root_path` (itself included) named `skills`: it bounds
/// cross-skill references.
inline std::optional<std::string> nearest_skills_root(const std::string& root_path) {
  for (std::string p = root_path; !p.empty() && p != "/" && p != ".";) {
    if (paths::file_name(p) == "skills") return p;
    p = paths::parent(p);
  }
  return std::nullopt;
}

/// What one skill's audit knows while it checks the Markdown links of its files.
struct link_context {
  const std::string& root_path;
  const std::map<std::string, fs::file_kind>& kinds;  ///< every walked entry
  const std::optional<std::string>& skills_root;
};

/// Checks one Markdown link of `e`, adding at most one finding to it. A relative target is
/// resolved lexically against the file's directory: inside the root against the walked
/// entries; outside it through the Fs policy (a link into a sibling skill is allowed,
/// anything else outside the skills root is an escape).
template <class Fs>
void check_markdown_link(Fs& fs, walked_entry& e, const markdown_link& link,
                         const link_context& ctx) {
  const link_verdict v = classify_markdown_link(link.target);
  const auto add = [&](std::string reason) {
    e.findings.push_back({e.rel, link.line, std::move(reason), true});
  };
  const auto must_be_file = [&](const std::optional<fs::file_kind>& kind) {
    if (kind && *kind != fs::file_kind::regular && *kind != fs::file_kind::symlink) {
      add("markdown link must point to a file (" + v.shown + ").");
    }
  };
  if (v.kind == link_verdict::finding) return add(v.reason);
  if (v.kind != link_verdict::resolve) return;
  // "a/../../b" normalizes to "../b": the leading `..` are the escapes from the root.
  std::vector<std::string> parts =
      paths::components(paths::normalize(paths::join(paths::parent(e.rel), v.path)));
  const std::size_t escapes = static_cast<std::size_t>(
      std::find_if(parts.begin(), parts.end(), [](const auto& c) { return c != ".."; }) -
      parts.begin());
  parts.erase(parts.begin(), parts.begin() + static_cast<std::ptrdiff_t>(escapes));
  if (escapes == 0) {
    const auto kind = lookup_walked(ctx.kinds, parts);
    if (!kind) {
      if (!is_cross_skill_reference(v.path)) {
        add("markdown link points to a missing file (" + v.shown + ").");
      }
      return;
    }
    return must_be_file(kind);
  }
  std::string abs = ctx.root_path;
  for (std::size_t k = 0; k < escapes; ++k) abs = paths::join(abs, "..");
  for (const auto& p : parts) abs = paths::join(abs, p);
  abs = paths::normalize(abs);
  if (paths::starts_with(abs, ctx.root_path)) {
    // Left the root and came back in by name (e.g. `../this-skill/x.md`).
    const auto inner = paths::components(
        std::string_view(abs).substr(std::min(abs.size(), ctx.root_path.size() + 1)));
    return must_be_file(lookup_walked(ctx.kinds, inner));
  }
  const auto kind = probe_outside(fs, abs);
  if (!kind) return;  // missing, and a `..` path is a cross-skill reference
  if (!ctx.skills_root || !paths::starts_with(abs, *ctx.skills_root)) {
    return add("markdown link escapes skill root (" + v.shown + ").");
  }
  if (*kind != fs::file_kind::regular) add("markdown link must point to a file (" + v.shown + ").");
}

}  // namespace detail

/// Audits one skill directory (`dir`, absolute) through the Fs policy (docs/library.md, Skills).
/// Throws when the skill is unauditable (missing, not a directory, unreadable, a Markdown or TOML
/// file that is not UTF-8, deeper than CLAWPORT_MAX_TREE_DEPTH); the loader then drops it.
template <class Fs>
audit_report audit_skill_directory(Fs& fs, const std::string& dir, const audit_options& opt = {}) {
  static_assert(fs::check_policy<Fs>());
  const std::string root_path = paths::normalize(dir);
  typename Fs::dir root = detail::open_skill_root(fs, dir, root_path);
  audit_report report;
  bool has_manifest = false;
  for (std::string_view m : {"SKILL.md", "SKILL.toml", "manifest.toml"}) {
    const auto st = fs.stat_at(root, m);
    has_manifest = has_manifest || (st && st->kind == fs::file_kind::regular);
  }
  if (!has_manifest) {
    report.findings.push_back(
        {"", std::nullopt,
         "Skill root must include SKILL.md (canonical) or one of [\"SKILL.toml\", "
         "\"manifest.toml\"] (deprecated) for deterministic auditing.",
         true});
  }
  std::vector<detail::walked_entry> entries;
  detail::audit_visitor<Fs> visitor(fs, opt, report, entries);
  fs::walk(fs, root, visitor);

  std::map<std::string, fs::file_kind> kinds;
  for (const auto& e : entries) kinds.emplace(e.rel, e.kind);
  const std::optional<std::string> skills_root = detail::nearest_skills_root(root_path);
  const detail::link_context ctx{root_path, kinds, skills_root};
  for (auto& e : entries) {
    for (const markdown_link& link : e.links) detail::check_markdown_link(fs, e, link, ctx);
  }
  for (auto& e : entries) {
    for (auto& f : e.findings) report.findings.push_back(std::move(f));
  }
  return report;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
