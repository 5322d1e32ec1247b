// SPDX-License-Identifier: MIT
// The strict Claw manifest schema v1 and its cross-field rules (docs/openclaw.md),
// the OpenClaw profile schema, MCP server declarations with the blocked environment
// keys of Appendix B, and cron jobs. Pure functions on JSON data: every problem becomes a
// diagnostic with OpenClaw's code, phase and path, and all of them are reported.
#pragma once

#include "../core/config.hpp"

#include "../formats/tables/timezones.hpp"
#include "diagnostics.hpp"
#include "grammar.hpp"
#include "tools.hpp"
#include "value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

/// The five named bootstrap files, in plan order.
inline constexpr const char* bootstrap_file_names[] = {"AGENTS.md", "SOUL.md", "IDENTITY.md",
                                                       "TOOLS.md", "HEARTBEAT.md"};

/// Host facts the profile rules consult: the built-in tool profiles the running OpenClaw
/// registers.
struct host_catalog {
  /// The built-in tool profiles (default: the generated catalogue, tool_catalog.hpp).
  std::vector<std::string> tool_profiles = tool_profile_ids();
  /// Profiles whose resolution contains `bundle-mcp` and therefore need a bounded `allow`.
  std::vector<std::string> bundle_mcp_profiles = tool_profile_ids(true);
};

/// The agent's identity as the manifest declares it; absent members stay absent.
struct agent_identity {
  std::optional<std::string> name;
  std::optional<std::string> theme;
  std::optional<std::string> emoji;
  std::optional<std::string> avatar;
};

/// `agent`: the id and the optional display members.
struct manifest_agent {
  std::string id;
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::optional<agent_identity> identity;
};

/// One workspace declaration: a named bootstrap file (`path` is its name) or a `files`
/// entry, both package-relative with forward slashes.
struct workspace_decl {
  std::string source;
  std::string path;
};

/// One `packages` entry: a ClawHub skill or plugin at an exact version.
struct package_decl {
  std::string kind;
  std::string source;
  std::string ref;
  std::string version;
};

/// A validated, normalised manifest: the model the package side works on. MCP servers and
/// cron jobs are carried as the JSON data they are (they pass to the host unchanged).
struct claw_manifest {
  manifest_agent agent;
  std::vector<std::pair<std::string, std::string>> metadata;  ///< in declaration order
  std::vector<workspace_decl> bootstrap_files;                ///< in `bootstrap_file_names` order
  std::vector<workspace_decl> files;
  std::vector<package_decl> packages;
  value mcp_servers = value::object();
  value cron_jobs = value::array();

  /// The metadata value under `key`, when declared.
  const std::string* metadata_value(std::string_view key) const {
    for (const auto& kv : metadata)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
};

/// The manifest's agent as JSON, in schema key order.
inline value to_json(const manifest_agent& a) {
  value agent = value::object();
  agent["id"] = a.id;
  if (a.name) agent["name"] = *a.name;
  if (a.description) agent["description"] = *a.description;
  if (a.identity) {
    const agent_identity& i = *a.identity;
    value id = value::object();
    if (i.name) id["name"] = *i.name;
    if (i.theme) id["theme"] = *i.theme;
    if (i.emoji) id["emoji"] = *i.emoji;
    if (i.avatar) id["avatar"] = *i.avatar;
    agent["identity"] = std::move(id);
  }
  return agent;
}

/// One `packages` entry as JSON (the ClawHub resolver's input), in schema key order.
inline value to_json(const package_decl& p) {
  return value::object(
      {{"kind", p.kind}, {"source", p.source}, {"ref", p.ref}, {"version", p.version}});
}

/// The manifest as JSON: schema key order, every default present (the normalised form
/// plans, digests and documents carry).
inline value to_json(const claw_manifest& m) {
  value out = value::object();
  out["schemaVersion"] = 1;
  out["agent"] = to_json(m.agent);
  value md = value::object();
  for (const auto& kv : m.metadata) md[kv.first] = kv.second;
  out["metadata"] = std::move(md);
  value ws = value::object();
  ws["bootstrapFiles"] = value::object();
  for (const auto& b : m.bootstrap_files)
    ws["bootstrapFiles"][b.path] = value::object({{"source", b.source}});
  ws["files"] = value::array();
  for (const auto& f : m.files)
    ws["files"].push_back(value::object({{"source", f.source}, {"path", f.path}}));
  out["workspace"] = std::move(ws);
  out["packages"] = value::array();
  for (const auto& p : m.packages) out["packages"].push_back(to_json(p));
  out["mcpServers"] = m.mcp_servers;
  out["cronJobs"] = m.cron_jobs;
  return out;
}

namespace detail {

/// The `env` keys an MCP server may not set (OpenClaw's list; any key starting `DYLD_`,
/// `LD_` or `BASH_FUNC_` is refused as well).
inline constexpr const char* blocked_env_keys[] = {"NODE_OPTIONS",
                                                   "NODE_PATH",
                                                   "NODE_REDIRECT_WARNINGS",
                                                   "NODE_REPL_EXTERNAL_MODULE",
                                                   "NODE_REPL_HISTORY",
                                                   "NODE_V8_COVERAGE",
                                                   "PYTHONHOME",
                                                   "PYTHONPATH",
                                                   "PERL5LIB",
                                                   "PERL5OPT",
                                                   "RUBYLIB",
                                                   "RUBYOPT",
                                                   "BASHOPTS",
                                                   "BASH_ENV",
                                                   "ENV",
                                                   "KSH_ENV",
                                                   "BROWSER",
                                                   "GIT_ALLOW_PROTOCOL",
                                                   "GIT_EDITOR",
                                                   "GIT_EXTERNAL_DIFF",
                                                   "GIT_DIR",
                                                   "GIT_WORK_TREE",
                                                   "GIT_COMMON_DIR",
                                                   "GIT_EXEC_PATH",
                                                   "GIT_INDEX_FILE",
                                                   "GIT_OBJECT_DIRECTORY",
                                                   "GIT_ALTERNATE_OBJECT_DIRECTORIES",
                                                   "GIT_NAMESPACE",
                                                   "GIT_PROTOCOL_FROM_USER",
                                                   "GIT_SEQUENCE_EDITOR",
                                                   "GIT_TEMPLATE_DIR",
                                                   "GIT_SSL_NO_VERIFY",
                                                   "GIT_SSL_CAINFO",
                                                   "GIT_SSL_CAPATH",
                                                   "CC",
                                                   "CPP",
                                                   "CXX",
                                                   "CARGO_BUILD_RUSTC",
                                                   "CARGO_BUILD_RUSTC_WRAPPER",
                                                   "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER",
                                                   "CARGO_BUILD_RUSTDOC",
                                                   "RUSTC",
                                                   "RUSTC_WRAPPER",
                                                   "RUSTC_WORKSPACE_WRAPPER",
                                                   "RUSTDOC",
                                                   "CMAKE_C_COMPILER",
                                                   "CMAKE_CXX_COMPILER",
                                                   "SHELL",
                                                   "SHELLOPTS",
                                                   "PS4",
                                                   "GCONV_PATH",
                                                   "IFS",
                                                   "SSLKEYLOGFILE",
                                                   "JAVA_OPTS",
                                                   "JAVA_TOOL_OPTIONS",
                                                   "_JAVA_OPTIONS",
                                                   "JDK_JAVA_OPTIONS",
                                                   "PYTHONBREAKPOINT",
                                                   "DOTNET_STARTUP_HOOKS",
                                                   "DOTNET_ADDITIONAL_DEPS",
                                                   "FPATH",
                                                   "GLIBC_TUNABLES",
                                                   "MAVEN_OPTS",
                                                   "MAKE",
                                                   "MAKEFLAGS",
                                                   "MFLAGS",
                                                   "SBT_OPTS",
                                                   "GRADLE_OPTS",
                                                   "ANT_OPTS",
                                                   "HGRCPATH",
                                                   "HGEDITOR",
                                                   "HGMERGE",
                                                   "EXINIT",
                                                   "VIMINIT",
                                                   "MYVIMRC",
                                                   "GVIMINIT",
                                                   "LUA_INIT",
                                                   "LUA_INIT_5_1",
                                                   "LUA_INIT_5_2",
                                                   "LUA_INIT_5_3",
                                                   "LUA_INIT_5_4",
                                                   "EMACSLOADPATH",
                                                   "RUBYSHELL",
                                                   "GIT_HOOK_PATH",
                                                   "SVN_EDITOR",
                                                   "SVN_SSH",
                                                   "BZR_EDITOR",
                                                   "BZR_SSH",
                                                   "BZR_PLUGIN_PATH",
                                                   "SUDO_ASKPASS",
                                                   "JULIA_EDITOR",
                                                   "CONFIG_SITE",
                                                   "CONFIG_SHELL",
                                                   "CMAKE_TOOLCHAIN_FILE",
                                                   "CATALINA_OPTS",
                                                   "CORECLR_PROFILER",
                                                   "HELM_PLUGINS",
                                                   "PACKER_PLUGIN_PATH",
                                                   "VAGRANT_VAGRANTFILE",
                                                   "ERL_AFLAGS",
                                                   "ERL_FLAGS",
                                                   "ERL_ZFLAGS",
                                                   "ELIXIR_ERL_OPTIONS",
                                                   "R_ENVIRON",
                                                   "R_PROFILE",
                                                   "R_ENVIRON_USER",
                                                   "R_PROFILE_USER",
                                                   "TCLLIBPATH",
                                                   "HOSTALIASES"};

inline bool is_blocked_env_key(std::string_view key) {
  std::string up(key);
  for (char& c : up)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  if (up.rfind("DYLD_", 0) == 0 || up.rfind("LD_", 0) == 0 || up.rfind("BASH_FUNC_", 0) == 0) {
    return true;
  }
  for (const char* b : blocked_env_keys)
    if (up == b) return true;
  return false;
}

inline bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (text::ascii_lower(a[k]) != text::ascii_lower(b[k])) return false;
  }
  return true;
}

}  // namespace detail

/// True for an IANA zone (or link) name of the embedded tz list, compared
/// case-insensitively as Intl.DateTimeFormat does.
inline bool is_timezone(std::string_view tz) {
  for (const char* z : timezone_data::names)
    if (detail::ieq(tz, z)) return true;
  return false;
}

namespace detail {

struct cron_field {
  int lo, hi;
  const char* const* names;  // lower-case names for lo.. (nullptr if none)
  int names_base;
};

inline bool parse_cron_number(std::string_view t, const cron_field& f, int& out) {
  if (t.empty()) return false;
  if (f.names != nullptr && t.size() == 3) {
    for (int k = 0; f.names[k] != nullptr; ++k) {
      if (ieq(t, f.names[k])) {
        out = f.names_base + k;
        return true;
      }
    }
  }
  int v = 0;
  for (const char c : t) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
    if (v > 1000) return false;
  }
  if (v < f.lo || v > f.hi) return false;
  out = v;
  return true;
}

/// Expands one cron field into the set of values it allows; false when malformed.
inline bool expand_cron_field(std::string_view text, const cron_field& f, std::vector<bool>& set) {
  set.assign(static_cast<std::size_t>(f.hi + 1), false);
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = text.find(',', from);
    std::string_view item =
        text.substr(from, comma == std::string_view::npos ? text.npos : comma - from);
    int step = 1;
    const std::size_t slash = item.find('/');
    if (slash != std::string_view::npos) {
      const std::string_view st = item.substr(slash + 1);
      if (st.empty()) return false;
      step = 0;
      for (const char c : st) {
        if (c < '0' || c > '9') return false;
        step = step * 10 + (c - '0');
        if (step > 1000) return false;
      }
      if (step == 0) return false;
      item = item.substr(0, slash);
    }
    int a = f.lo;
    int b = f.hi;
    if (item == "*" || item == "?") {
      // whole range
    } else {
      const std::size_t dash = item.find('-');
      if (dash != std::string_view::npos) {
        if (!parse_cron_number(item.substr(0, dash), f, a) ||
            !parse_cron_number(item.substr(dash + 1), f, b) || a > b) {
          return false;
        }
      } else {
        if (!parse_cron_number(item, f, a)) return false;
        b = slash != std::string_view::npos ? f.hi : a;
      }
    }
    for (int v = a; v <= b; v += step) set[static_cast<std::size_t>(v)] = true;
    if (comma == std::string_view::npos) break;
    from = comma + 1;
  }
  return true;
}

}  // namespace detail

/// A five-field cron expression that names a time that can occur (minute hour
/// day-of-month month day-of-week; `*`, `?`, lists, ranges, steps, month and weekday
/// names; 7 is Sunday; day-of-month and day-of-week OR-ed when both are restricted), with
/// a known time zone.
inline bool is_valid_cron(std::string_view expr, std::string_view tz) {
  if (!is_timezone(tz)) return false;
  std::vector<std::string_view> fields;
  std::size_t k = 0;
  while (k < expr.size()) {
    while (k < expr.size() && (expr[k] == ' ' || expr[k] == '\t')) ++k;
    if (k >= expr.size()) break;
    const std::size_t from = k;
    while (k < expr.size() && expr[k] != ' ' && expr[k] != '\t') ++k;
    fields.push_back(expr.substr(from, k - from));
  }
  if (fields.size() != 5) return false;
  static const char* const months[] = {"jan", "feb", "mar", "apr", "may", "jun",  "jul",
                                       "aug", "sep", "oct", "nov", "dec", nullptr};
  static const char* const days[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat", nullptr};
  const detail::cron_field spec[5] = {{0, 59, nullptr, 0},
                                      {0, 23, nullptr, 0},
                                      {1, 31, nullptr, 0},
                                      {1, 12, months, 1},
                                      {0, 7, days, 0}};
  std::vector<bool> sets[5];
  for (int f = 0; f < 5; ++f)
    if (!detail::expand_cron_field(fields[static_cast<std::size_t>(f)], spec[f], sets[f]))
      return false;
  const bool dom_star = fields[2] == "*" || fields[2] == "?";
  const bool dow_star = fields[4] == "*" || fields[4] == "?";
  bool any_dow = false;
  for (int d = 0; d <= 7; ++d) any_dow = any_dow || sets[4][static_cast<std::size_t>(d)];
  if (!dow_star && !dom_star && any_dow) return true;  // OR-ed: a weekday always recurs
  if (dom_star) return any_dow || dow_star;
  static const int max_day[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  for (int m = 1; m <= 12; ++m) {
    if (!sets[3][static_cast<std::size_t>(m)]) continue;
    for (int d = 1; d <= max_day[m]; ++d)
      if (sets[2][static_cast<std::size_t>(d)]) return true;
  }
  return false;
}

/// OpenClaw's heartbeat duration: `\d+(\.\d+)?` with unit ms|s|m|h|d (bare = minutes), or
/// a composite like `1h30m`; the result must be a safe integer of milliseconds.
inline bool parse_duration_ms(std::string_view s, double& ms) {
  if (s.empty()) return false;
  double total = 0;
  std::size_t k = 0;
  int parts = 0;
  bool bare = false;
  while (k < s.size()) {
    const std::size_t from = k;
    while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
    if (k == from) return false;
    if (k < s.size() && s[k] == '.') {
      ++k;
      const std::size_t f2 = k;
      while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
      if (k == f2) return false;
    }
    const double n = std::strtod(std::string(s.substr(from, k - from)).c_str(), nullptr);
    double unit = 0;
    if (s.compare(k, 2, "ms") == 0) {
      unit = 1, k += 2;
    } else if (k < s.size() && s[k] == 's') {
      unit = 1000, ++k;
    } else if (k < s.size() && s[k] == 'm') {
      unit = 60000, ++k;
    } else if (k < s.size() && s[k] == 'h') {
      unit = 3600000, ++k;
    } else if (k < s.size() && s[k] == 'd') {
      unit = 86400000, ++k;
    } else if (k == s.size() && parts == 0) {
      unit = 60000, bare = true;
    } else {
      return false;
    }
    total += n * unit;
    ++parts;
  }
  (void)bare;
  if (!std::isfinite(total) || total != std::floor(total) || total > 9007199254740991.0) {
    return false;
  }
  ms = total;
  return true;
}

namespace detail {

/// The type zod names in its messages, in the order of nlohmann's `value_t` (binary does
/// not occur in a parsed document; a discarded value is JavaScript's undefined).
inline constexpr const char* type_names[] = {"null",   "object", "array",  "string", "boolean",
                                             "number", "number", "number", "number", "undefined"};

inline std::string type_name(const value& v) {
  return wire_name<value::value_t::discarded>(v.type(), type_names, "number");
}

/// A zod-like strict validator that records every issue as a diagnostic.
class checker {
 public:
  checker(std::vector<diagnostic>& out, errc code) : out_(out), code_(code) {}

  void issue(const std::string& path, const std::string& message) {
    out_.push_back(error_at(code_, phase::schema, path, message));
  }
  /// An issue zod 4 aborts on (a wrong type or shape, an enum or literal miss): the outer
  /// refinements (the manifest's cross-field rules) do not run after one. A failed check or
  /// refinement (`issue`) lets them run.
  void fatal(const std::string& path, const std::string& message) {
    aborted_ = true;
    hard_ = true;
    issue(path, message);
  }
  bool aborted() const { return aborted_; }
  /// A wrong type, enum or literal was recorded: a union branch that fails so is no match
  /// (unknown keys and refinements leave a branch one).
  bool hard() const { return hard_; }
  errc code() const { return code_; }
  /// Takes over the issues (`found`) and the abort of a checker run on one union branch.
  void adopt(const checker& branch, const std::vector<diagnostic>& found) {
    for (const diagnostic& d : found) out_.push_back(d);
    aborted_ = aborted_ || branch.aborted_;
  }
  std::size_t count() const { return out_.size(); }

  /// `ok` (whether `v` has the `expected` type), saying so at `path` when not: the one
  /// wording of a wrong type.
  bool typed(bool ok, const value& v, const std::string& path, const char* expected) {
    if (!ok)
      fatal(path,
            std::string("Invalid input: expected ") + expected + ", received " + type_name(v));
    return ok;
  }
  bool object(const value& v, const std::string& path) {
    return typed(v.is_object(), v, path, "object");
  }
  bool array(const value& v, const std::string& path) {
    return typed(v.is_array(), v, path, "array");
  }
  bool nonempty_array(const value& v, const std::string& path) {
    if (!array(v, path)) return false;
    if (!v.empty()) return true;
    issue(path, "Too small: expected array to have >=1 items");
    return false;
  }
  /// Unknown keys → one issue at the containing object.
  void strict(const value& obj, const std::string& path, std::initializer_list<const char*> keys) {
    std::string unknown;
    std::size_t n = 0;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool known = false;
      for (const char* k : keys) known = known || it.key() == k;
      if (!known) {
        if (n++) unknown += ", ";
        unknown += "\"" + it.key() + "\"";
      }
    }
    if (n == 0) return;
    aborted_ = true;
    issue(path, std::string(n == 1 ? "Unrecognized key: " : "Unrecognized keys: ") + unknown);
  }
  /// A member a schema requires: when absent, JavaScript's undefined, which the member's own
  /// check then names in zod 4's words ("expected string, received undefined", an enum's
  /// options, a literal's value), as upstream reports a missing member.
  static const value& field(const value& obj, const char* key) {
    static const value undefined(value::value_t::discarded);
    const auto it = obj.find(key);
    return it == obj.end() ? undefined : *it;
  }
  bool string(const value& v, const std::string& path) {
    if (!typed(v.is_string(), v, path, "string")) return false;
    if (!is_canonical(v.get_ref<const std::string&>())) {
      issue(path, "Must be a non-empty string without leading or trailing whitespace.");
      return false;
    }
    return true;
  }
  bool any_string(const value& v, const std::string& path) {
    return typed(v.is_string(), v, path, "string");
  }
  bool boolean(const value& v, const std::string& path) {
    return typed(v.is_boolean(), v, path, "boolean");
  }
  bool one_of(const value& v, const std::string& path, std::initializer_list<const char*> opts) {
    std::string list;
    for (const char* o : opts) {
      if (v.is_string() && v.get_ref<const std::string&>() == o) return true;
      list += (list.empty() ? "\"" : "|\"") + std::string(o) + "\"";
    }
    // zod 4's words: one value is `Invalid input: expected "x"`.
    fatal(path, opts.size() == 1 ? "Invalid input: expected " + list
                                 : "Invalid option: expected one of " + list);
    return false;
  }
  bool positive_number(const value& v, const std::string& path) {
    if (!typed(v.is_number(), v, path, "number")) return false;
    if (!(v.get<double>() > 0) || !std::isfinite(v.get<double>())) {
      issue(path, "Too small: expected number to be >0");
      return false;
    }
    return true;
  }
  bool integer(const value& v, const std::string& path, std::int64_t min) {
    if (!typed(v.is_number(), v, path, "number")) return false;
    const double d = v.get<double>();
    if (d != std::floor(d) || !std::isfinite(d)) {
      fatal(path, "Invalid input: expected int, received number");
      return false;
    }
    if (d < static_cast<double>(min)) {
      // zod 4 names the bound as the schema wrote it: `.positive()` (>0) or `.min(n)` (>=n).
      issue(path, min == 1 ? std::string("Too small: expected number to be >0")
                           : "Too small: expected number to be >=" + std::to_string(min));
      return false;
    }
    return true;
  }
  bool literal_one(const value& v, const std::string& path) {
    if (v.is_number() && v.get<double>() == 1.0) return true;
    fatal(path, "Invalid input: expected 1");
    return false;
  }
  bool safe_path(const value& v, const std::string& path) {
    if (!string(v, path)) return false;
    if (is_safe_relative_path(v.get_ref<const std::string&>())) return true;
    issue(path, "Path must be package-relative and must not contain traversal segments.");
    return false;
  }
  bool string_array(const value& v, const std::string& path, bool nonempty) {
    if (!(nonempty ? nonempty_array(v, path) : array(v, path))) return false;
    bool ok = true;
    for (std::size_t k = 0; k < v.size(); ++k) ok = string(v[k], index(path, k)) && ok;
    return ok;
  }

 private:
  std::vector<diagnostic>& out_;
  errc code_;
  bool aborted_ = false;
  bool hard_ = false;
};

inline const value* get(const value& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

inline std::string str(const value& v) {
  return v.is_string() ? v.get<std::string>() : std::string();
}

/// A remote MCP URL: https (or http on exactly localhost/127.0.0.1/[::1]), a host, no
/// userinfo, no fragment. Returns the problem, empty when fine.
inline std::string remote_url_problem(const std::string& url) {
  const std::size_t colon = url.find(':');
  if (colon == std::string::npos || url.compare(colon, 3, "://") != 0) return "Invalid url.";
  const std::string scheme = text::to_lower_ascii(url.substr(0, colon));
  for (const char c : url)
    if (static_cast<unsigned char>(c) <= 0x20) return "Invalid url.";
  const std::size_t auth_from = colon + 3;
  std::size_t auth_to = url.find_first_of("/?#", auth_from);
  if (auth_to == std::string::npos) auth_to = url.size();
  const std::string authority = url.substr(auth_from, auth_to - auth_from);
  if (authority.empty()) return "Invalid url.";
  // Upstream's one message for user information and fragments.
  if (authority.find('@') != std::string::npos || url.find('#') != std::string::npos) {
    return "Remote MCP URLs must not contain user information or fragments.";
  }
  std::string host = authority;
  if (!host.empty() && host[0] == '[') {
    const std::size_t close = host.find(']');
    if (close == std::string::npos) return "Invalid url.";
    host = host.substr(0, close + 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  host = text::to_lower_ascii(host);
  if (host.empty()) return "Invalid url.";
  if (scheme == "https") return "";
  if (scheme == "http" && (host == "localhost" || host == "127.0.0.1" || host == "[::1]")) {
    return "";
  }
  return "Remote MCP URLs must use HTTPS, except HTTP on an exact loopback host.";
}

/// The pinned-package-manager rule for stdio MCP commands.
inline bool package_manager_pinned(const std::string& command, const value& args) {
  std::string exe = text::to_lower_ascii(command.substr(
      command.find_last_of("/\\") == std::string::npos ? 0 : command.find_last_of("/\\") + 1));
  for (const char* ext : {".cmd", ".exe"}) {
    if (exe.size() > 4 && exe.compare(exe.size() - 4, 4, ext) == 0) exe.resize(exe.size() - 4);
  }
  std::vector<std::string> a;
  if (args.is_array())
    for (const auto& e : args) a.push_back(e.is_string() ? e.get<std::string>() : std::string());
  std::size_t k = 0;
  if (exe == "pnpm" || exe == "yarn") {
    if (a.empty() || a[0] != "dlx") return true;
    k = 1;
  } else if (exe != "npx" && exe != "pnpx" && exe != "bunx") {
    return true;
  }
  std::vector<std::string> selected;
  std::optional<std::string> positional;
  for (; k < a.size(); ++k) {
    const std::string& s = a[k];
    if (s.empty()) continue;
    if (s == "--") {
      if (k + 1 < a.size()) positional = a[k + 1];
      break;
    }
    if (s == "-p" || s == "--package") {
      if (k + 1 < a.size()) selected.push_back(a[++k]);
      continue;
    }
    if (s.rfind("--package=", 0) == 0) {
      selected.push_back(s.substr(10));
      continue;
    }
    if (s[0] != '-' && selected.empty()) {
      positional = s;
      break;
    }
  }
  if (selected.empty()) selected.push_back(positional.value_or(""));
  for (const std::string& art : selected) {
    const std::size_t at = art.rfind('@');
    if (at == std::string::npos || at == 0) return false;
    if (art[0] == '@') {
      const std::size_t slash = art.find('/');
      if (slash == std::string::npos || at < slash) return false;
    }
    if (!is_semver(art.substr(at + 1))) return false;
  }
  return true;
}

inline void check_tool_filter(checker& c, const value& tf, const std::string& path) {
  if (!c.object(tf, path)) return;
  for (const char* key : {"include", "exclude"}) {
    const value* list = get(tf, key);
    if (list == nullptr) continue;
    const std::string p = member(path, key);
    if (!c.string_array(*list, p, true)) continue;
    std::set<std::string> seen;
    for (std::size_t k = 0; k < list->size(); ++k) {
      const std::string s = (*list)[k].get<std::string>();
      if (s.find_first_of("?[]") != std::string::npos) {
        c.issue(index(p, k), "Tool filters accept exact tool names and * globs only.");
      }
      if (!seen.insert(s).second) c.issue(index(p, k), "Tool filter entries must be unique.");
    }
  }
  c.strict(tf, path, {"include", "exclude"});  // zod 4: unknown keys after the members
}

/// The members both MCP shapes have: the tool filter and the timeouts.
inline void check_mcp_common(checker& c, const value& s, const std::string& path) {
  if (const value* tf = get(s, "toolFilter")) check_tool_filter(c, *tf, member(path, "toolFilter"));
  for (const char* key : {"timeout", "connectTimeout"})
    if (const value* t = get(s, key)) c.positive_number(*t, member(path, key));
}

/// A stdio MCP server (the union's first branch): its members, unknown keys, then the
/// pinned-package refinement.
inline void check_mcp_stdio(checker& c, const value& s, const std::string& path) {
  const bool cmd_ok = c.string(s["command"], member(path, "command"));
  if (const value* t = get(s, "transport")) c.one_of(*t, member(path, "transport"), {"stdio"});
  bool args_ok = true;
  if (const value* a = get(s, "args")) args_ok = c.string_array(*a, member(path, "args"), false);
  if (const value* env = get(s, "env")) {
    const std::string ep = member(path, "env");
    if (c.object(*env, ep)) {
      for (auto it = env->begin(); it != env->end(); ++it) {
        const std::string kp = member(ep, it.key());
        if (!is_env_key(it.key())) {
          c.issue(kp, "Invalid environment variable name.");
        } else if (is_blocked_env_key(it.key())) {
          c.issue(kp, "Environment variable " + it.key() +
                          " is blocked by the host environment policy for spawned MCP servers.");
        } else if (!c.any_string(it.value(), kp)) {
          // a wrong type: the branch is no match (check_mcp_server)
        } else if (!is_env_reference(it.value().get_ref<const std::string&>())) {
          c.issue(kp, "MCP environment values must be unresolved ${ENV_VAR} references.");
        }
      }
    }
  }
  check_mcp_common(c, s, path);
  c.strict(s, path,
           {"command", "transport", "args", "env", "toolFilter", "timeout", "connectTimeout"});
  // Upstream reports a resolved secret before an unpinned package argument.
  if (cmd_ok && args_ok &&
      !package_manager_pinned(s["command"].get<std::string>(),
                              s.contains("args") ? s["args"] : value::array())) {
    c.issue(member(path, "args"),
            "Package-manager MCP commands must select one exact immutable package version.");
  }
}

/// A remote MCP server (the union's second branch): its members, unknown keys, then the
/// URL's scheme and userinfo refinement.
inline void check_mcp_remote(checker& c, const value& s, const std::string& path) {
  std::string problem;  // z.url() is the member's check; the scheme and userinfo rules refine
  if (c.string(c.field(s, "url"), member(path, "url"))) {
    problem = remote_url_problem(s["url"].get<std::string>());
    if (problem == "Invalid url.") c.issue(member(path, "url"), problem);
  }
  c.one_of(c.field(s, "transport"), member(path, "transport"), {"sse", "streamable-http"});
  if (const value* a = get(s, "auth")) c.one_of(*a, member(path, "auth"), {"oauth"});
  check_mcp_common(c, s, path);
  c.strict(s, path, {"url", "transport", "auth", "toolFilter", "timeout", "connectTimeout"});
  if (!problem.empty() && problem != "Invalid url.") c.issue(member(path, "url"), problem);
}

/// One MCP server: upstream's union of the stdio and remote shapes. zod 4 reports the issues
/// of the one branch that did not fail on a type (the other always does: its `command` or
/// `url` is missing, or its transport is the other's; unknown keys do not count); when that
/// branch fails on one too, no shape matches and the union's one issue is `Invalid input`
/// at the server (oracle: zod_messages.sh).
inline void check_mcp_server(checker& c, const value& s, const std::string& path) {
  if (!c.object(s, path)) return;
  // A server with both `command` and `url` is the remote shape when its transport is a
  // remote one (its `command`, `args`, `env` then unknown keys), else stdio.
  const value* transport = get(s, "transport");
  const bool remote_transport =
      transport && (*transport == "sse" || *transport == "streamable-http");
  const bool stdio = s.contains("command") && !(s.contains("url") && remote_transport);
  const bool remote = !stdio && s.contains("url");
  if (!stdio && !remote) {
    c.fatal(path, "Invalid input");  // neither shape: zod 4's union issue, as upstream
    return;
  }
  std::vector<diagnostic> found;
  checker branch(found, c.code());
  if (stdio) {
    check_mcp_stdio(branch, s, path);
  } else {
    check_mcp_remote(branch, s, path);
  }
  if (branch.hard()) {
    c.fatal(path, "Invalid input");
    return;
  }
  c.adopt(branch, found);
}

inline void check_cron_job(checker& c, const value& j, const std::string& path) {
  if (!c.object(j, path)) return;
  if (c.string(c.field(j, "id"), member(path, "id")) && !is_agent_id(j["id"].get<std::string>())) {
    c.issue(member(path, "id"), "Invalid cron job id.");
  }
  if (const value* n = get(j, "name")) c.string(*n, member(path, "name"));
  {
    const std::string sp = member(path, "schedule");
    const value& s = c.field(j, "schedule");
    if (c.object(s, sp)) {
      const bool a = c.string(c.field(s, "cron"), member(sp, "cron"));
      const bool b = c.string(c.field(s, "timezone"), member(sp, "timezone"));
      c.strict(s, sp, {"cron", "timezone"});  // zod 4: unknown keys after the members
      if (a && b &&
          !is_valid_cron(s["cron"].get<std::string>(), s["timezone"].get<std::string>())) {
        c.issue(member(sp, "cron"), "Invalid cron expression or timezone.");
      }
    }
  }
  c.one_of(c.field(j, "session"), member(path, "session"), {"main", "isolated"});
  c.string(c.field(j, "message"), member(path, "message"));
  if (const value* d = get(j, "delivery")) {
    const std::string dp = member(path, "delivery");
    if (c.object(*d, dp)) {
      bool ok = c.one_of(c.field(*d, "mode"), member(dp, "mode"), {"none", "announce"});
      if (const value* ch = get(*d, "channel"))
        ok = c.one_of(*ch, member(dp, "channel"), {"last"}) && ok;
      c.strict(*d, dp, {"mode", "channel"});
      if (ok) {
        const bool none = (*d)["mode"] == "none";
        if (none == d->contains("channel")) {
          c.issue(
              dp,
              "Cron delivery must be {mode: \"none\"} or {mode: \"announce\", channel: \"last\"}.");
        }
      }
    }
  }
  c.strict(j, path, {"id", "name", "schedule", "session", "message", "delivery"});
}

/// An image data URL avatar. Empty string when valid, else the problem.
inline std::string data_url_problem(const std::string& s) {
  if (s.size() > 2796230) return "Avatar data URLs are limited to 2,796,230 characters.";
  const std::size_t comma = s.find(',');
  const std::string meta = s.substr(0, comma);
  const std::string payload = s.substr(comma + 1);
  if (payload.empty()) return "Avatar data URLs need a non-empty payload.";
  const std::string low = text::to_lower_ascii(meta);
  if (low.find(";base64") == std::string::npos) {
    return payload.size() <= 2 * 1024 * 1024 ? "" : "Avatar images are limited to 2 MiB.";
  }
  auto b64 = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/';
  };
  if (payload.size() % 4 != 0) return "Avatar data URL payloads must be strict base64.";
  std::size_t pad = 0;
  for (std::size_t k = 0; k < payload.size(); ++k) {
    const char c = payload[k];
    if (c == '=') {
      if (k + 2 < payload.size()) return "Avatar data URL payloads must be strict base64.";
      ++pad;
    } else if (pad || !b64(c)) {
      return "Avatar data URL payloads must be strict base64.";
    }
  }
  const std::size_t decoded = payload.size() / 4 * 3 - pad;
  if (decoded < 1 || decoded > 2 * 1024 * 1024)
    return "Avatar images must decode to 1 byte to 2 MiB.";
  return "";
}

inline bool has_image_extension(const std::string& p) {
  const std::string low = text::to_lower_ascii(p);
  for (const char* ext : {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"}) {
    const std::size_t n = std::char_traits<char>::length(ext);
    if (low.size() > n && low.compare(low.size() - n, n, ext) == 0) return true;
  }
  return false;
}

/// `$.agent`: the id (the agent-id grammar), name, description and identity strings.
inline void check_manifest_agent(checker& c, const value& a) {
  if (c.string(c.field(a, "id"), "$.agent.id") && !is_agent_id(a["id"].get<std::string>())) {
    c.issue("$.agent.id",
            "Agent id must start with a lowercase letter and contain only lowercase letters, "
            "digits, underscores, or hyphens.");
  }
  for (const char* k : {"name", "description"})
    if (const value* v = get(a, k)) c.string(*v, member("$.agent", k));
  if (const value* id = get(a, "identity")) {
    if (c.object(*id, "$.agent.identity")) {
      for (const char* k : {"name", "theme", "emoji", "avatar"})
        if (const value* v = get(*id, k)) c.string(*v, member("$.agent.identity", k));
      c.strict(*id, "$.agent.identity", {"name", "theme", "emoji", "avatar"});
    }
  }
  c.strict(a, "$.agent", {"id", "name", "description", "identity"});
}

/// `$.metadata`: canonical keys, string values.
inline void check_manifest_metadata(checker& c, const value& md) {
  if (!c.object(md, "$.metadata")) return;
  for (auto it = md.begin(); it != md.end(); ++it) {
    const std::string p = member("$.metadata", it.key());
    if (!is_canonical(it.key())) c.issue(p, "Metadata keys must be canonical non-empty strings.");
    c.any_string(it.value(), p);
  }
}

/// `$.workspace`: the bootstrap files by name and the `files` list, every path safe.
inline void check_manifest_workspace(checker& c, const value& ws) {
  if (!c.object(ws, "$.workspace")) return;
  if (const value* bf = get(ws, "bootstrapFiles")) {
    const std::string bp = "$.workspace.bootstrapFiles";
    if (c.object(*bf, bp)) {
      for (auto it = bf->begin(); it != bf->end(); ++it) {
        const std::string p = member(bp, it.key());
        if (!c.object(it.value(), p)) continue;
        c.safe_path(c.field(it.value(), "source"), member(p, "source"));
        c.strict(it.value(), p, {"source"});
      }
      c.strict(*bf, bp, {"AGENTS.md", "SOUL.md", "IDENTITY.md", "TOOLS.md", "HEARTBEAT.md"});
    }
  }
  if (const value* files = get(ws, "files")) {
    if (c.array(*files, "$.workspace.files")) {
      for (std::size_t k = 0; k < files->size(); ++k) {
        const std::string p = index("$.workspace.files", k);
        const value& f = (*files)[k];
        if (!c.object(f, p)) continue;
        c.safe_path(c.field(f, "source"), member(p, "source"));
        c.safe_path(c.field(f, "path"), member(p, "path"));
        c.strict(f, p, {"source", "path"});
      }
    }
  }
  c.strict(ws, "$.workspace", {"bootstrapFiles", "files"});  // zod 4: unknown keys last
}

/// `$.packages`: ClawHub skills and plugins pinned to exact versions.
inline void check_manifest_packages(checker& c, const value& pk) {
  if (!c.array(pk, "$.packages")) return;
  for (std::size_t k = 0; k < pk.size(); ++k) {
    const std::string p = index("$.packages", k);
    const value& e = pk[k];
    if (!c.object(e, p)) continue;
    c.one_of(c.field(e, "kind"), member(p, "kind"), {"skill", "plugin"});
    c.one_of(c.field(e, "source"), member(p, "source"), {"clawhub"});
    if (c.string(c.field(e, "ref"), member(p, "ref")) &&
        !is_package_name(e["ref"].get<std::string>())) {
      c.issue(member(p, "ref"),
              "ClawHub package references must use their canonical lowercase name.");
    }
    if (c.string(c.field(e, "version"), member(p, "version")) &&
        !is_semver(e["version"].get<std::string>())) {
      c.issue(member(p, "version"), "Package version must be an exact semantic version.");
    }
    c.strict(e, p, {"kind", "source", "ref", "version"});  // zod 4: unknown keys last
  }
}

/// The strict structure of every top-level member, in schema order.
inline void check_manifest_structure(checker& c, const value& m) {
  c.literal_one(c.field(m, "schemaVersion"), "$.schemaVersion");
  if (c.object(c.field(m, "agent"), "$.agent")) check_manifest_agent(c, m["agent"]);
  if (const value* md = get(m, "metadata")) check_manifest_metadata(c, *md);
  if (const value* ws = get(m, "workspace")) check_manifest_workspace(c, *ws);
  if (const value* pk = get(m, "packages")) check_manifest_packages(c, *pk);
  if (const value* mcp = get(m, "mcpServers")) {
    if (c.object(*mcp, "$.mcpServers")) {
      for (auto it = mcp->begin(); it != mcp->end(); ++it) {
        const std::string p = member("$.mcpServers", it.key());
        if (!is_agent_id(it.key())) {
          c.issue(p, "Invalid MCP server name.");
          continue;
        }
        check_mcp_server(c, it.value(), p);
      }
    }
  }
  if (const value* cj = get(m, "cronJobs")) {
    if (c.array(*cj, "$.cronJobs")) {
      for (std::size_t k = 0; k < cj->size(); ++k)
        check_cron_job(c, (*cj)[k], index("$.cronJobs", k));
    }
  }
  // zod 4 reports an object's unknown keys after its members' issues.
  c.strict(
      m, "$",
      {"schemaVersion", "agent", "metadata", "workspace", "packages", "mcpServers", "cronJobs"});
}

/// `agent` of a structurally valid manifest.
inline manifest_agent normalised_agent(const value& a) {
  const auto opt = [](const value& o, const char* k) -> std::optional<std::string> {
    if (!o.contains(k)) return std::nullopt;
    return o[k].get<std::string>();
  };
  manifest_agent out;
  out.id = a["id"].get<std::string>();
  out.name = opt(a, "name");
  out.description = opt(a, "description");
  if (a.contains("identity")) {
    const value& i = a["identity"];
    out.identity =
        agent_identity{opt(i, "name"), opt(i, "theme"), opt(i, "emoji"), opt(i, "avatar")};
  }
  return out;
}

/// The model of a structurally valid `m`: bootstrap files in name order, then `files`,
/// `\` → `/` in paths, absent lists empty.
inline claw_manifest normalised_manifest(const value& m) {
  claw_manifest out;
  out.agent = normalised_agent(m["agent"]);
  if (m.contains("metadata")) {
    for (auto it = m["metadata"].begin(); it != m["metadata"].end(); ++it)
      out.metadata.emplace_back(it.key(), it.value().get<std::string>());
  }
  const value* w = get(m, "workspace");
  if (w != nullptr && w->contains("bootstrapFiles")) {
    for (const char* name : bootstrap_file_names) {
      if (!(*w)["bootstrapFiles"].contains(name)) continue;
      out.bootstrap_files.push_back(workspace_decl{
          forward_slashes((*w)["bootstrapFiles"][name]["source"].get<std::string>()), name});
    }
  }
  if (w != nullptr && w->contains("files")) {
    for (const auto& f : (*w)["files"]) {
      out.files.push_back(workspace_decl{forward_slashes(f["source"].get<std::string>()),
                                         forward_slashes(f["path"].get<std::string>())});
    }
  }
  if (m.contains("packages")) {
    for (const auto& p : m["packages"]) {
      out.packages.push_back(
          package_decl{p["kind"].get<std::string>(), p["source"].get<std::string>(),
                       p["ref"].get<std::string>(), p["version"].get<std::string>()});
    }
  }
  if (m.contains("mcpServers")) out.mcp_servers = m["mcpServers"];
  if (m.contains("cronJobs")) out.cron_jobs = m["cronJobs"];
  return out;
}

/// Workspace destinations: each declared once (portable keys) and none the reserved
/// BOOTSTRAP.md.
inline void check_workspace_destinations(checker& c, const claw_manifest& m) {
  std::vector<std::string> keys;
  for (const auto& b : m.bootstrap_files) keys.push_back(portable_key(b.path));
  for (std::size_t k = 0; k < m.files.size(); ++k) {
    const std::string& dest = m.files[k].path;
    const std::string key = portable_key(dest);
    const std::string p = index("$.workspace.files", k) + ".path";
    bool clash = false;
    for (const auto& other : keys) clash = clash || keys_conflict(key, other);
    // Both can hold for one file, reserved first (upstream's order).
    if (keys_conflict(key, "bootstrap.md")) {
      c.issue(p,
              "Package-root BOOTSTRAP.md uses the native seed-once lifecycle and cannot be a "
              "managed workspace destination.");
    }
    if (clash)
      c.issue(p, "Workspace destination " + value(dest).dump() + " is declared more than once.");
    keys.push_back(key);
  }
}

/// Packages (kind, source, case-folded ref) and cron job ids each declared once.
inline void check_unique_declarations(checker& c, const claw_manifest& m) {
  std::set<std::string> packages;
  for (std::size_t k = 0; k < m.packages.size(); ++k) {
    const package_decl& p = m.packages[k];
    const std::string key = p.kind + ":" + p.source + ":" + unicode::to_lower(p.ref);
    if (!packages.insert(key).second) {
      c.issue(index("$.packages", k),
              "Package " + value(p.ref).dump() + " is declared more than once for " + p.kind + ".");
    }
  }
  std::set<std::string> crons;
  for (std::size_t k = 0; k < m.cron_jobs.size(); ++k) {
    const std::string id = m.cron_jobs[k]["id"].get<std::string>();
    if (!crons.insert(id).second) {
      c.issue(index("$.cronJobs", k) + ".id",
              "Cron job id " + value(id).dump() + " is declared more than once.");
    }
  }
}

/// The avatar: an image data URL, or a safe image path that is a managed workspace file.
inline void check_avatar(checker& c, const claw_manifest& m) {
  if (!m.agent.identity || !m.agent.identity->avatar) return;
  const std::string& av = *m.agent.identity->avatar;
  const std::string p = "$.agent.identity.avatar";
  const std::string low = text::to_lower_ascii(av.substr(0, 11));
  if (low == "data:image/" && av.find(',') != std::string::npos) {
    const std::string problem = data_url_problem(av);
    if (!problem.empty()) c.issue(p, problem);
  } else if (!is_safe_relative_path(av) || !has_image_extension(av)) {
    c.issue(p,
            "Avatars must be an image data URL or a safe workspace-relative image path "
            "(.png, .jpg, .jpeg, .gif, .webp, .svg); remote URLs are not portable.");
  } else {
    const std::string key = portable_key(av);
    bool declared = false;
    for (const auto& f : m.files) declared = declared || portable_key(f.path) == key;
    if (!declared)
      c.issue(p, "Local avatar " + av + " must be a managed workspace.files destination.");
  }
}

}  // namespace detail

/// What validating a manifest gives: the model and its JSON rendering (when valid: the
/// manifest with defaults filled in, in schema key order), and every diagnostic.
struct manifest_result {
  claw_manifest model;
  value manifest;  ///< `to_json(model)`, the form plans, digests and documents carry
  std::vector<diagnostic> diagnostics;
  bool ok() const { return !has_errors(diagnostics); }
};

/// Strict manifest schema v1, then the cross-field rules when the structure
/// is sound. Code `invalid_manifest`, phase `schema`.
inline manifest_result validate_manifest(const value& m) {
  manifest_result r;
  detail::checker c(r.diagnostics, errc::invalid_manifest);
  if (!c.object(m, "$")) return r;
  detail::check_manifest_structure(c, m);
  if (c.aborted()) return r;
  r.model = detail::normalised_manifest(m);
  detail::check_workspace_destinations(c, r.model);
  detail::check_unique_declarations(c, r.model);
  detail::check_avatar(c, r.model);
  r.manifest = to_json(r.model);
  return r;
}

namespace detail {

/// `tools.allow` / `alsoAllow` / `deny`: non-empty string lists; the grants bounded (no
/// globs, no `group:plugins` or `bundle-mcp`).
inline void check_tool_grants(checker& c, const value& t, const std::string& tp) {
  for (const char* k : {"allow", "alsoAllow", "deny"}) {
    const value* v = get(t, k);
    if (v == nullptr || !c.string_array(*v, member(tp, k), true)) continue;
    if (std::string(k) == "deny") continue;
    for (std::size_t i = 0; i < v->size(); ++i) {
      // Upstream's isBoundedClawToolGrant: no globs, no open-ended set, no unknown group.
      const std::string g = detail::normalize_tool((*v)[i].get<std::string>());
      const bool bounded = g.find_first_of("*?[]{}") == std::string::npos && g != "group:plugins" &&
                           g != "bundle-mcp" &&
                           (g.rfind("group:", 0) != 0 || expand_tool_groups({g}).front() != g);
      if (!bounded) c.issue(index(member(tp, k), i), "Tool grants must be bounded.");
    }
  }
}

/// The cross-field rules of `agent.tools` over the tool catalogue (upstream's superRefine,
/// in its order), once the fields themselves are sound.
inline void check_tool_rules(checker& c, const value& t, const std::string& tp,
                             const std::string& profile) {
  const std::optional<tool_policy> policy =
      profile.empty() ? std::nullopt : tool_profile_policy(profile);
  if (profile == "full" && !t.contains("allow"))
    c.issue(member(tp, "profile"), "The full tool profile requires a bounded explicit allowlist.");
  if (policy && profile != "full" && t.contains("allow")) {
    const std::vector<std::string> profile_allow = expand_tool_groups(policy->allow);
    const bool bundle =
        std::find(profile_allow.begin(), profile_allow.end(), "bundle-mcp") != profile_allow.end();
    for (const auto& g : strings_of(t, "allow")) {
      const bool overlaps =
          std::any_of(profile_allow.begin(), profile_allow.end(),
                      [&](const std::string& tool) { return tool_allowed(tool, {g}); });
      if (!overlaps && !(bundle && concrete_bundle_mcp_tool(g))) {
        c.issue(member(tp, "allow"),
                "Every agent tools allow grant must overlap the selected profile.");
        break;
      }
    }
  }
  if (policy) {
    const std::vector<std::string> snapshot = profile_snapshot_allow(t, *policy);
    if (std::find(snapshot.begin(), snapshot.end(), "bundle-mcp") != snapshot.end())
      c.issue(member(tp, "allow"),
              "Profiles containing bundle-mcp require a bounded allowlist of concrete tool names.");
  }
  if (t.contains("alsoAllow") && !t.contains("profile"))
    c.issue(member(tp, "alsoAllow"),
            "Agent tools can set alsoAllow only when a bounded profile is selected.");
  if (t.contains("allow") && t.contains("alsoAllow"))
    c.issue(member(tp, "alsoAllow"),
            "Agent tools cannot set both allow and alsoAllow; use allow alone or profile with "
            "alsoAllow.");
}

/// `agent.tools`: a registered profile, bounded grants, the catalogue's cross-field rules
/// (check_tool_rules), `fs.workspaceOnly` only ever true.
inline void check_profile_tools(checker& c, const value& t, const std::string& tp,
                                const host_catalog& host) {
  if (!c.object(t, tp)) return;
  const std::size_t before = c.count();
  std::string profile;
  if (const value* v = get(t, "profile")) {
    if (c.string(*v, member(tp, "profile"))) {
      profile = v->get<std::string>();
      if (std::find(host.tool_profiles.begin(), host.tool_profiles.end(), profile) ==
          host.tool_profiles.end()) {
        c.issue(member(tp, "profile"),
                "Tool profile must name a registered OpenClaw built-in profile.");
        profile.clear();
      }
    }
  }
  check_tool_grants(c, t, tp);
  if (const value* fsv = get(t, "fs")) {
    const std::string fp = member(tp, "fs");
    if (c.object(*fsv, fp)) {
      // z.literal(true): a Claw cannot weaken host filesystem confinement.
      if (const value* wo = get(*fsv, "workspaceOnly")) {
        if (!(wo->is_boolean() && wo->get<bool>()))
          c.fatal(member(fp, "workspaceOnly"), "Invalid input: expected true");
      }
      c.strict(*fsv, fp, {"workspaceOnly"});
    }
  }
  const bool members_ok = c.count() == before;
  // zod 4: the object's unknown keys after its members, its refinement (the rules) last.
  c.strict(t, tp, {"profile", "allow", "alsoAllow", "deny", "fs"});
  if (members_ok) check_tool_rules(c, t, tp, profile);
}

/// `agent.memory.search`: its members, unknown keys, then the sessions rule (sessions as a
/// source only when remembering across conversations).
inline void check_memory_search(checker& c, const value& search, const std::string& sp) {
  const value* s = &search;
  if (!c.object(*s, sp)) return;
  if (const value* v = get(*s, "enabled")) c.boolean(*v, member(sp, "enabled"));
  bool rac = false;
  if (const value* v = get(*s, "rememberAcrossConversations")) {
    if (c.boolean(*v, member(sp, "rememberAcrossConversations"))) rac = v->get<bool>();
  }
  bool sessions = false;
  if (const value* v = get(*s, "sources")) {
    const std::string srcp = member(sp, "sources");
    if (c.nonempty_array(*v, srcp)) {
      for (std::size_t i = 0; i < v->size(); ++i) {
        if (c.one_of((*v)[i], index(srcp, i), {"memory", "sessions"}) && (*v)[i] == "sessions")
          sessions = true;
      }
    }
  }
  c.strict(*s, sp, {"enabled", "rememberAcrossConversations", "sources"});
  if (sessions && !rac) {
    c.issue(member(sp, "rememberAcrossConversations"),
            "The sessions source requires rememberAcrossConversations: true in the OpenClaw "
            "profile.");  // upstream's words
  }
}

/// `agent.memory`: its `search`, then unknown keys.
inline void check_profile_memory(checker& c, const value& mem, const std::string& mp) {
  if (!c.object(mem, mp)) return;
  if (const value* s = get(mem, "search")) check_memory_search(c, *s, member(mp, "search"));
  c.strict(mem, mp, {"search"});  // zod 4: unknown keys after the members
}

/// `heartbeat.activeHours`: HH:MM start and end (24:00 allowed at the end), an IANA zone.
inline void check_active_hours(checker& c, const value& ah, const std::string& ahp) {
  if (!c.object(ah, ahp)) return;
  auto hhmm = [](const std::string& s, bool allow24) {
    if (allow24 && s == "24:00") return true;
    return s.size() == 5 && s[2] == ':' && s[0] >= '0' && s[0] <= '2' && s[1] >= '0' &&
           s[1] <= '9' && (s[0] < '2' || s[1] <= '3') && s[3] >= '0' && s[3] <= '5' &&
           s[4] >= '0' && s[4] <= '9';
  };
  if (const value* v = get(ah, "start")) {
    if (c.string(*v, member(ahp, "start")) && !hhmm(v->get<std::string>(), false)) {
      c.issue(member(ahp, "start"), "activeHours.start must be HH:MM between 00:00 and 23:59.");
    }
  }
  if (const value* v = get(ah, "end")) {
    if (c.string(*v, member(ahp, "end")) && !hhmm(v->get<std::string>(), true)) {
      c.issue(member(ahp, "end"),
              "activeHours.end must be HH:MM between 00:00 and 23:59, or 24:00.");
    }
  }
  if (const value* v = get(ah, "timezone")) {
    if (c.string(*v, member(ahp, "timezone")) && !is_timezone(v->get<std::string>())) {
      c.issue(member(ahp, "timezone"), "activeHours.timezone must be a valid IANA time zone.");
    }
  }
  c.strict(ah, ahp, {"start", "end", "timezone"});  // zod 4: unknown keys after the members
}

/// `agent.heartbeat`: the retired skipWhenBusy first, then unknown keys, the duration,
/// the active hours, the flags and the timeout.
inline void check_profile_heartbeat(checker& c, const value& h, const std::string& hp,
                                    std::vector<diagnostic>& out) {
  if (!c.object(h, hp)) return;
  if (h.contains("skipWhenBusy")) {
    c.issue(hp, "heartbeat.skipWhenBusy is retired; remove it.");  // at the heartbeat, as upstream
  }
  if (const value* v = get(h, "every")) {
    double ms = 0;
    if (c.string(*v, member(hp, "every")) && !parse_duration_ms(v->get<std::string>(), ms)) {
      c.issue(member(hp, "every"), "Invalid heartbeat duration.");
    }
  }
  if (const value* ah = get(h, "activeHours"))
    check_active_hours(c, *ah, member(hp, "activeHours"));
  for (const char* k : {"lightContext", "isolatedSession"})
    if (const value* v = get(h, k)) c.boolean(*v, member(hp, k));
  if (const value* v = get(h, "timeoutSeconds")) c.integer(*v, member(hp, "timeoutSeconds"), 1);
  // zod 4: unknown keys after the members (not aborting the outer refinements).
  std::vector<diagnostic> unk;
  checker u(unk, errc::invalid_manifest);
  u.strict(h, hp,
           {"every", "activeHours", "lightContext", "isolatedSession", "timeoutSeconds",
            "skipWhenBusy"});
  for (auto& d : unk) out.push_back(d);
}

/// The profile's `agent`: the legacy model/subagents refusal (naming the fields and `file`,
/// the profile's package path), unknown keys, then each setting group in schema order.
inline void check_profile_agent(checker& c, const value& a, const std::string& ap,
                                const host_catalog& host, const std::string& file,
                                std::vector<diagnostic>& out) {
  std::vector<std::string> legacy;
  for (const char* k : {"model", "subagents"}) {
    if (!a.contains(k)) continue;
    if (a[k].is_object()) {
      legacy.push_back(std::string("agent.") + k);
    } else {  // upstream's schema (2026.9.6) has both as objects: its type error, in its words
      c.issue(member(ap, k), "Invalid input: expected object, received " + type_name(a[k]));
    }
  }
  if (!legacy.empty()) {
    const std::string fields = legacy.size() == 1 ? legacy[0] : legacy[0] + " and " + legacy[1];
    out.push_back(error_at(errc::legacy_openclaw_profile_requires_conversion, phase::schema, ap,
                           "Released-v1 OpenClaw profile contains " + fields +
                               ". Copy the package and remove these fields from " + file +
                               "; configure model and delegation on the host, then run claws "
                               "add --dry-run for a fresh consent plan."));
  }
  std::vector<diagnostic> unknown;
  {
    checker u(unknown, errc::invalid_manifest);
    u.strict(a, ap,
             {"model", "subagents", "groupChat", "sandbox", "tools", "memory", "heartbeat",
              "humanDelay"});
  }
  for (auto& d : unknown) out.push_back(d);
  if (const value* g = get(a, "groupChat")) {
    const std::string gp = member(ap, "groupChat");
    if (c.object(*g, gp)) {
      if (const value* mp = get(*g, "mentionPatterns"))
        c.string_array(*mp, member(gp, "mentionPatterns"), true);
      c.strict(*g, gp, {"mentionPatterns"});
    }
  }
  if (const value* s = get(a, "sandbox")) {
    const std::string sp = member(ap, "sandbox");
    if (c.object(*s, sp)) {
      if (const value* v = get(*s, "mode"))
        c.one_of(*v, member(sp, "mode"), {"off", "non-main", "all"});
      if (const value* v = get(*s, "scope"))
        c.one_of(*v, member(sp, "scope"), {"session", "agent", "shared"});
      if (const value* v = get(*s, "workspaceAccess"))
        c.one_of(*v, member(sp, "workspaceAccess"), {"none", "ro", "rw"});
      c.strict(*s, sp, {"mode", "scope", "workspaceAccess"});
    }
  }
  if (const value* t = get(a, "tools")) check_profile_tools(c, *t, member(ap, "tools"), host);
  if (const value* mem = get(a, "memory")) check_profile_memory(c, *mem, member(ap, "memory"));
  if (const value* h = get(a, "heartbeat"))
    check_profile_heartbeat(c, *h, member(ap, "heartbeat"), out);
  if (const value* hd = get(a, "humanDelay")) {
    const std::string hp = member(ap, "humanDelay");
    if (c.object(*hd, hp)) {
      if (const value* v = get(*hd, "mode"))
        c.one_of(*v, member(hp, "mode"), {"off", "natural", "custom"});
      for (const char* k : {"minMs", "maxMs"})
        if (const value* v = get(*hd, k)) c.integer(*v, member(hp, k), 0);
      c.strict(*hd, hp, {"mode", "minMs", "maxMs"});
    }
  }
}

/// One `extensions[k]` entry; `ids` and `refs` collect what earlier entries declared.
inline void check_profile_extension(checker& c, const value& e, const std::string& xp,
                                    std::set<std::string>& ids, std::set<std::string>& refs) {
  if (!c.object(e, xp)) return;
  if (c.string(c.field(e, "id"), member(xp, "id"))) {
    if (!is_agent_id(e["id"].get<std::string>()))
      c.issue(member(xp, "id"), "Invalid extension id.");
    if (!ids.insert(e["id"].get<std::string>()).second)
      c.issue(member(xp, "id"), "Extension ids must be unique.");
  }
  c.one_of(c.field(e, "kind"), member(xp, "kind"), {"plugin"});
  c.one_of(c.field(e, "format"), member(xp, "format"), {"openclaw", "claude", "codex", "cursor"});
  c.one_of(c.field(e, "source"), member(xp, "source"), {"clawhub"});
  if (c.string(c.field(e, "ref"), member(xp, "ref"))) {
    if (!is_package_name(e["ref"].get<std::string>())) {
      c.issue(member(xp, "ref"), "Extension refs must be canonical ClawHub package names.");
    }
    if (!refs.insert(unicode::to_lower(e["ref"].get<std::string>())).second) {
      c.issue(member(xp, "ref"), "Extension refs must be unique.");
    }
  }
  if (c.string(c.field(e, "version"), member(xp, "version")) &&
      !is_semver(e["version"].get<std::string>())) {
    c.issue(member(xp, "version"), "Extension versions must be exact SemVer versions.");
  }
  c.strict(e, xp, {"id", "kind", "format", "source", "ref", "version"});  // zod 4: last
}

}  // namespace detail

/// What validating a profile gives: the profile (defaults filled in) and its diagnostics.
/// `agent.sandbox` of a valid profile, with OpenClaw's defaults for what it leaves out.
struct profile_sandbox {
  std::string mode = "off";             ///< off | non-main | all
  std::string scope = "agent";          ///< session | agent | shared
  std::string workspace_access = "rw";  ///< none | ro | rw
};

/// `agent.tools` of a valid profile.
struct profile_tools {
  std::optional<std::string> profile;  ///< a registered built-in tool profile
  std::vector<std::string> allow;
  bool also_allow = false;  ///< `alsoAllow` is set (it extends `profile`)
  std::vector<std::string> deny;
  bool workspace_only = false;  ///< `fs.workspaceOnly` (it may only be true)
};

/// A valid OpenClaw profile. `agent` keeps the settings as written, since `claw add` merges
/// them into the agent's entry of openclaw.json; what clawport itself decides on is typed.
struct openclaw_profile {
  value agent = value::object();
  std::optional<profile_tools> tools;
  std::optional<profile_sandbox> sandbox;
  value extensions = value::array();  ///< the plugin entries as written (the add plan shows them)

  /// Whether `agent` sets `setting` (groupChat, memory, heartbeat, humanDelay, ...).
  bool sets(const std::string& setting) const { return agent.contains(setting); }
};

/// The profile document `{schemaVersion: 1, agent, extensions}` (`claw inspect` shows it).
inline value to_json(const openclaw_profile& p) {
  value out = value::object();
  out["schemaVersion"] = 1;
  out["agent"] = p.agent;
  out["extensions"] = p.extensions;
  return out;
}

struct profile_result {
  openclaw_profile profile;
  std::vector<diagnostic> diagnostics;
  bool ok() const { return !has_errors(diagnostics); }
};

namespace detail {

inline std::vector<std::string> profile_strings(const value& list) {
  std::vector<std::string> out;
  for (const auto& s : list) out.push_back(s.get<std::string>());
  return out;
}

/// The typed profile of `p`, which validate_profile found valid.
inline openclaw_profile typed_profile(const value& p) {
  openclaw_profile out;
  out.agent = p.at("agent");
  if (const value* ex = get(p, "extensions")) out.extensions = *ex;
  if (const value* t = get(out.agent, "tools")) {
    profile_tools tools;
    if (const value* v = get(*t, "profile")) tools.profile = v->get<std::string>();
    if (const value* v = get(*t, "allow")) tools.allow = profile_strings(*v);
    if (const value* v = get(*t, "deny")) tools.deny = profile_strings(*v);
    tools.also_allow = t->contains("alsoAllow");
    tools.workspace_only = t->contains("fs") && t->at("fs").contains("workspaceOnly");
    out.tools = std::move(tools);
  }
  if (const value* s = get(out.agent, "sandbox")) {
    profile_sandbox sandbox;
    if (const value* v = get(*s, "mode")) sandbox.mode = v->get<std::string>();
    if (const value* v = get(*s, "scope")) sandbox.scope = v->get<std::string>();
    if (const value* v = get(*s, "workspaceAccess"))
      sandbox.workspace_access = v->get<std::string>();
    out.sandbox = std::move(sandbox);
  }
  return out;
}

}  // namespace detail

/// The strict OpenClaw profile schema. `root` is where diagnostics are rooted
/// (`$.profiles.openclaw` or `$.metadata.openclaw.config`); `file` is the profile's package
/// path, named in messages. Code `invalid_manifest`, as upstream's schema errors of a profile.
inline profile_result validate_profile(const value& p, const std::string& root,
                                       const host_catalog& host = {},
                                       const std::string& file = "profiles/openclaw.yml") {
  profile_result r;
  detail::checker c(r.diagnostics, errc::invalid_manifest);
  if (!c.object(p, root)) return r;
  c.literal_one(c.field(p, "schemaVersion"), member(root, "schemaVersion"));
  const std::string ap = member(root, "agent");
  if (c.object(c.field(p, "agent"), ap))
    detail::check_profile_agent(c, p["agent"], ap, host, file, r.diagnostics);
  if (const value* ex = detail::get(p, "extensions")) {
    const std::string ep = member(root, "extensions");
    if (c.array(*ex, ep)) {
      std::set<std::string> ids;
      std::set<std::string> refs;
      for (std::size_t k = 0; k < ex->size(); ++k)
        detail::check_profile_extension(c, (*ex)[k], index(ep, k), ids, refs);
    }
  }
  c.strict(p, root, {"schemaVersion", "agent", "extensions"});  // zod 4: unknown keys last
  if (!r.diagnostics.empty()) return r;
  r.profile = detail::typed_profile(p);
  return r;
}

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
