// SPDX-License-Identifier: MIT
// The loss report of a conversion (docs/convert.md): what did not survive, what was made
// stricter and what changed shape, rendered as CONVERSION.md, as terminal text and as the
// `--json` document. Pure: no I/O.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/time.hpp"
#include "../core/version.hpp"
#include "../formats/json.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace convert {

/// The direction of a conversion.
enum class direction {
  to_claw,          ///< ZeroClaw agent bundle -> OpenClaw Claw package
  to_zeroclaw,      ///< OpenClaw Claw package -> ZeroClaw agent bundle
  to_agent_plugin,  ///< ZeroClaw agent bundle -> one Agent Plugins 1.0.0 plugin
};

inline const char* to_string(direction d) noexcept {
  return d == direction::to_claw       ? "claw"
         : d == direction::to_zeroclaw ? "zeroclaw"
                                       : "agent-plugin";
}

/// Wire values of `loss::kind`.
namespace loss_kind {
/// No counterpart on the target: it is not carried at all.
inline constexpr const char* dropped = "dropped";
/// Carried stricter than the source (needs --allow-narrowing).
inline constexpr const char* narrowed = "narrowed";
/// Carried, but under another name or shape (a renamed id, a moved file).
inline constexpr const char* changed = "changed";
}  // namespace loss_kind

/// One entry of the loss report. `path` is the source's (a config path, a manifest path
/// in OpenClaw's `$.` syntax, or a file path).
struct loss {
  std::string path;
  std::string kind;
  std::string detail;
};

/// What one conversion did (or, dry, would do).
struct conversion {
  convert::direction dir = direction::to_claw;
  std::string source;  ///< as the user named it
  std::string out;     ///< as the user named it
  std::string agent;   ///< the target's agent id (claw) or alias (zeroclaw)
  std::string source_agent;
  /// "agent-plugin" or "claw" when the direction does not say what the source was.
  std::string source_kind;
  bool dry_run = false;
  std::vector<std::string> files;  ///< written (or to be written), target-relative, sorted
  std::vector<loss> losses;        ///< in mapping order
  std::string guarantee;           ///< the publish guarantee ("none" for a dry run)
  std::string converted_at;        ///< RFC 3339 (SOURCE_DATE_EPOCH when set)
  /// A dry run that the real run would refuse (a narrowing without --allow-narrowing): the
  /// refusal, the report whole beside it.
  std::optional<error> refusal;

  std::size_t count(const char* kind) const {
    std::size_t n = 0;
    for (const loss& l : losses) n += l.kind == kind ? 1 : 0;
    return n;
  }
};

namespace detail {
inline std::string md_code(const std::string& s) {
  std::string out = "`";
  for (const char c : s) out += c == '`' ? '\'' : c;
  return out + "`";
}
inline std::string one_line(const std::string& s) {
  std::string out;
  for (const char c : s) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}
inline std::string source_noun(const conversion& c) {
  if (c.source_kind == "agent-plugin") return "the Agent Plugin `" + c.source_agent + "`";
  if (c.source_kind == "claw") return "the Claw package of agent `" + c.source_agent + "`";
  if (c.source_kind == "openclaw-agent")
    return "the installed OpenClaw agent `" + c.source_agent + "`";
  return c.dir != direction::to_zeroclaw ? "the ZeroClaw agent bundle of `" + c.source_agent + "`"
                                         : "the Claw package of agent `" + c.source_agent + "`";
}
inline std::string target_noun(const conversion& c) {
  if (c.dir == direction::to_agent_plugin)
    return "an Agent Plugins 1.0.0 plugin (name `" + c.agent + "`)";
  return c.dir == direction::to_claw ? "an OpenClaw Claw package (agent id `" + c.agent + "`)"
                                     : "a ZeroClaw agent bundle (agent `" + c.agent + "`)";
}
}  // namespace detail

/// CONVERSION.md: deterministic for the same input and timestamp (no host paths).
inline std::string render_markdown(const conversion& c) {
  std::string s = "# Conversion report\n\n";
  s += "Converted by clawport " + std::string(version_string) + " from " + detail::source_noun(c) +
       " to " + detail::target_noun(c) + " at " + c.converted_at + ".\n\n";
  s += "Dropped: " + std::to_string(c.count(loss_kind::dropped)) +
       ", narrowed: " + std::to_string(c.count(loss_kind::narrowed)) +
       ", changed: " + std::to_string(c.count(loss_kind::changed)) + ".\n\n";
  s += "## What did not survive as it was\n\n";
  if (c.losses.empty()) s += "Nothing: every setting and file has a counterpart.\n";
  for (const loss& l : c.losses) {
    s += "- " + detail::md_code(l.path) + " — **" + l.kind + "**: " + detail::one_line(l.detail) +
         "\n";
  }
  s += "\n## Files\n\n";
  for (const std::string& f : c.files) s += "- " + detail::md_code(f) + "\n";
  return s;
}

/// The terminal report.
inline std::string render_text(const conversion& c) {
  const char* verb = c.refusal   ? "Would refuse to convert "
                     : c.dry_run ? "Would convert "
                                 : "Converted ";
  std::string s = verb + detail::source_noun(c) + " to " + detail::target_noun(c) + " at " + c.out +
                  (c.refusal ? " without --allow-narrowing" : "") +
                  (c.dry_run ? " (dry run, nothing written)" : "") + "\n";
  s += "  files:    " + std::to_string(c.files.size()) + "\n";
  s += "  losses:   " + std::to_string(c.count(loss_kind::dropped)) + " dropped, " +
       std::to_string(c.count(loss_kind::narrowed)) + " narrowed, " +
       std::to_string(c.count(loss_kind::changed)) + " changed\n";
  for (const loss& l : c.losses)
    s += "    " + l.kind + "  " + l.path + ": " + detail::one_line(l.detail) + "\n";
  if (!c.dry_run && c.dir == direction::to_claw) s += "  report:   CONVERSION.md\n";
  return s;
}

/// The `--json` document.
inline nlohmann::ordered_json to_json(const conversion& c) {
  using t = conversion;
  nlohmann::ordered_json j = json::object_of<nlohmann::ordered_json>(
      c, json::field("direction", [](const t& x) { return to_string(x.dir); }),
      json::field("source", &t::source), json::field("out", &t::out),
      json::field("source_agent", &t::source_agent), json::field("agent", &t::agent),
      json::field("dry_run", &t::dry_run), json::field("converted_at", &t::converted_at));
  if (!c.source_kind.empty()) j["source_kind"] = c.source_kind;
  j["publish"] = {{"guarantee", c.guarantee}};
  j["files"] = c.files;
  nlohmann::ordered_json losses = nlohmann::ordered_json::array();
  for (const loss& l : c.losses)
    losses.push_back({{"path", l.path}, {"kind", l.kind}, {"detail", l.detail}});
  j["losses"] = std::move(losses);
  j["counts"] = {{"dropped", c.count(loss_kind::dropped)},
                 {"narrowed", c.count(loss_kind::narrowed)},
                 {"changed", c.count(loss_kind::changed)}};
  return j;
}

}  // namespace convert
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
