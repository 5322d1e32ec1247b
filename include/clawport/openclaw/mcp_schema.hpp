// SPDX-License-Identifier: MIT
// MCP server declarations as the manifest schema checks them: the stdio and remote shapes,
// the blocked environment keys of Appendix B, remote URLs and pinned package managers.
#pragma once

#include "../core/config.hpp"
#include "../core/text.hpp"
#include "checker.hpp"
#include "grammar.hpp"
#include "value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace openclaw {

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
  const std::string low = text::to_lower_ascii(key);
  if (low.rfind("dyld_", 0) == 0 || low.rfind("ld_", 0) == 0 || low.rfind("bash_func_", 0) == 0)
    return true;
  for (const char* b : blocked_env_keys)
    if (text::iequals_ascii(key, b)) return true;
  return false;
}

}  // namespace detail

namespace detail {

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

}  // namespace detail

}  // namespace openclaw
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
