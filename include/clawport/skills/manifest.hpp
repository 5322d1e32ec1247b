// SPDX-License-Identifier: MIT
// The skill model and the manifests it is read from: SKILL.toml and manifest.toml (one
// strict schema) and SKILL.md (the loader's lenient reading plus its fallbacks). Pure.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "../core/error.hpp"
#include "../formats/toml.hpp"
#include "frontmatter.hpp"
#include "text.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// A `[[tools]]` entry. Kinds other than shell/script/http/builtin/mcp are kept here and
/// skipped by the runtime when it registers tools.
struct skill_tool {
  std::string name;
  std::string description;
  std::string kind;
  std::string command;  ///< "" when absent (the audit still demands the key)
  std::map<std::string, std::string> args;
  std::optional<std::string> target;
  std::map<std::string, std::string> locked_args;  ///< also spelled `default_args`
  std::uint64_t timeout_secs = 60;
};

/// Which file a skill was read from, in the loader's order of preference.
enum class manifest_kind { skill_toml, manifest_toml, skill_md };

/// File name of a manifest kind.
inline constexpr std::string_view manifest_file_names[] = {"SKILL.toml", "manifest.toml",
                                                           "SKILL.md"};
constexpr std::string_view manifest_file(manifest_kind k) noexcept {
  return wire_name<manifest_kind::skill_md>(k, manifest_file_names, "SKILL.md");
}

/// A skill as the runtime loader builds it (upstream `Skill`).
struct skill {
  std::string name;
  std::string description;
  std::string version = "0.1.0";
  std::optional<std::string> author;
  std::vector<std::string> tags;
  std::vector<skill_tool> tools;
  std::vector<std::string> prompts;
  std::vector<slash_option> slash_options;
  bool always = false;
  std::map<std::string, std::string> description_localizations;
};

namespace detail {

/// Parses TOML text through the one adaptor (formats/toml.hpp): a syntax error becomes
/// `errc::config_parse` naming line and column, nesting past CLAWPORT_MAX_TOML_DEPTH
/// `errc::limit_exceeded`.
inline toml::table parse_toml(std::string_view text, const std::string& subject) {
  return toml_adaptor::parse(text, subject);
}

/// Schema errors of a TOML manifest: `errc::skill_invalid` naming the key and its line.
class toml_reader {
 public:
  explicit toml_reader(std::string subject) : subject_(std::move(subject)) {}

  [[noreturn]] void fail(const toml::node& at, const std::string& what) const {
    const auto line = at.source().begin.line;
    throw error(errc::skill_invalid,
                subject_ + (line ? ":" + std::to_string(line) : std::string()) + ": " + what,
                subject_);
  }

  std::string string(const toml::node& n, const std::string& path) const {
    if (const auto* s = n.as_string()) return s->get();
    fail(n, "invalid type for `" + path + "`: expected a string");
  }

  bool boolean(const toml::node& n, const std::string& path) const {
    if (const auto* b = n.as_boolean()) return b->get();
    fail(n, "invalid type for `" + path + "`: expected a boolean");
  }

  std::uint64_t unsigned_int(const toml::node& n, const std::string& path,
                             std::uint64_t max = UINT64_MAX) const {
    const auto* i = n.as_integer();
    if (!i) fail(n, "invalid type for `" + path + "`: expected an unsigned integer");
    if (i->get() < 0 || static_cast<std::uint64_t>(i->get()) > max) {
      fail(n, "invalid value for `" + path + "`: " + std::to_string(i->get()) + " is out of range");
    }
    return static_cast<std::uint64_t>(i->get());
  }

  double number(const toml::node& n, const std::string& path) const {
    if (const auto* f = n.as_floating_point()) return f->get();
    if (const auto* i = n.as_integer()) return static_cast<double>(i->get());
    fail(n, "invalid type for `" + path + "`: expected a number");
  }

  const toml::table& table(const toml::node& n, const std::string& path) const {
    if (const auto* t = n.as_table()) return *t;
    fail(n, "invalid type for `" + path + "`: expected a table");
  }

  const toml::array& array(const toml::node& n, const std::string& path) const {
    if (const auto* a = n.as_array()) return *a;
    fail(n, "invalid type for `" + path + "`: expected an array");
  }

  std::vector<std::string> strings(const toml::node& n, const std::string& path) const {
    std::vector<std::string> out;
    std::size_t i = 0;
    for (const toml::node& e : array(n, path)) {
      out.push_back(string(e, path + "[" + std::to_string(i++) + "]"));
    }
    return out;
  }

  std::map<std::string, std::string> string_map(const toml::node& n,
                                                const std::string& path) const {
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : table(n, path)) {
      out[std::string(k.str())] = string(v, path + "." + std::string(k.str()));
    }
    return out;
  }

  template <std::size_t N>
  void deny_unknown(const toml::table& t, const std::string& path,
                    const std::string_view (&known)[N]) const {
    for (const auto& [k, v] : t) {
      bool ok = false;
      for (std::string_view kn : known) ok = ok || k.str() == kn;
      if (!ok) {
        std::string expected;
        for (std::size_t i = 0; i < N; ++i) {
          expected += (i ? ", `" : "`") + std::string(known[i]) + "`";
        }
        fail(v, "unknown field `" + std::string(k.str()) + "` in [" + path + "], expected one of " +
                    expected);
      }
    }
  }

  [[noreturn]] void missing(const toml::node& at, const std::string& field,
                            const std::string& path) const {
    fail(at, "missing field `" + field + "` in " + path);
  }

  /// The fields table `t` (at `path`) must have, the first absent one refused; checked after
  /// the fields present were read, so a wrong type is reported before a missing field.
  void require(const toml::table& t, const std::string& path,
               std::initializer_list<std::string_view> fields) const {
    for (std::string_view f : fields)
      if (!t.contains(f)) missing(t, std::string(f), path);
  }

 private:
  std::string subject_;
};

inline slash_option read_toml_option(const toml_reader& rd, const toml::table& t,
                                     const std::string& path) {
  slash_option o;
  for (const auto& [key, v] : t) {
    const std::string k(key.str());
    const std::string p = path + "." + k;
    if (k == "name") {
      o.name = rd.string(v, p);
    } else if (k == "description") {
      o.description = rd.string(v, p);
    } else if (k == "description_localizations") {
      o.description_localizations = rd.string_map(v, p);
    } else if (k == "type") {
      o.type = rd.string(v, p);
    } else if (k == "required") {
      o.required = rd.boolean(v, p);
    } else if (k == "choices") {
      std::size_t i = 0;
      for (const toml::node& c : rd.array(v, p)) {
        const std::string cp = p + "[" + std::to_string(i++) + "]";
        const toml::table& ct = rd.table(c, cp);
        rd.require(ct, cp, {"name", "value"});
        o.choices.push_back(
            {rd.string(*ct.get("name"), cp + ".name"), rd.string(*ct.get("value"), cp + ".value")});
      }
    } else if (k == "min") {
      o.min = rd.number(v, p);
    } else if (k == "max") {
      o.max = rd.number(v, p);
    } else if (k == "min_length") {
      o.min_length = static_cast<std::uint32_t>(rd.unsigned_int(v, p, UINT32_MAX));
    } else if (k == "max_length") {
      o.max_length = static_cast<std::uint32_t>(rd.unsigned_int(v, p, UINT32_MAX));
    }
  }
  rd.require(t, path, {"name", "description", "type"});
  return o;
}

inline skill_tool read_toml_tool(const toml_reader& rd, const toml::table& t,
                                 const std::string& path) {
  skill_tool tool;
  bool has_locked = false;
  for (const auto& [key, v] : t) {
    const std::string k(key.str());
    const std::string p = path + "." + k;
    if (k == "name") {
      tool.name = rd.string(v, p);
    } else if (k == "description") {
      tool.description = rd.string(v, p);
    } else if (k == "kind") {
      tool.kind = rd.string(v, p);
    } else if (k == "command") {
      tool.command = rd.string(v, p);
    } else if (k == "args") {
      tool.args = rd.string_map(v, p);
    } else if (k == "target") {
      tool.target = rd.string(v, p);
    } else if (k == "locked_args" || k == "default_args") {
      if (has_locked) rd.fail(v, "duplicate field `locked_args` in " + path);
      tool.locked_args = rd.string_map(v, p), has_locked = true;
    } else if (k == "timeout_secs") {
      tool.timeout_secs = rd.unsigned_int(v, p);
    }
  }
  rd.require(t, path, {"name", "description", "kind"});
  return tool;
}

inline void check_forge(const toml_reader& rd, const toml::table& t) {
  static constexpr std::string_view known[] = {"source", "owner",      "language",     "license",
                                               "stars",  "updated_at", "requirements", "metadata"};
  rd.deny_unknown(t, "forge", known);
  for (const auto& [key, v] : t) {
    const std::string k(key.str());
    const std::string p = "forge." + k;
    if (k == "license") {
      rd.boolean(v, p);
    } else if (k == "stars") {
      rd.unsigned_int(v, p);
    } else if (k == "requirements" || k == "metadata") {
      rd.table(v, p);
    } else {
      rd.string(v, p);
    }
  }
}

}  // namespace detail

/// Parses a SKILL.toml or manifest.toml (docs/library.md, Skills): `[skill]` is strict
/// (an unknown key is an error), `[[tools]]` and option entries ignore unknown keys, the
/// root ignores unknown keys except `prompts`, `tools` and `[forge]`. Throws
/// `errc::config_parse` on a syntax error and `errc::skill_invalid` on a schema error;
/// either way the loader drops the skill and does not fall back to SKILL.md.
/// (toml++ reads TOML 1.0: TOML 1.1-only syntax such as newlines inside inline tables is
/// a syntax error here although upstream's parser accepts it.)
inline skill parse_skill_toml(std::string_view text, const std::string& subject = "SKILL.toml") {
  const toml::table root = detail::parse_toml(text, subject);
  const detail::toml_reader rd(subject);
  const toml::node* skill_node = root.get("skill");
  if (!skill_node) rd.missing(root, "skill", "the manifest");
  const toml::table& st = rd.table(*skill_node, "skill");
  static constexpr std::string_view known[] = {
      "name",    "description",   "description_localizations",
      "version", "author",        "tags",
      "prompts", "slash_options", "always"};
  rd.deny_unknown(st, "skill", known);
  skill s;
  for (const auto& [key, v] : st) {
    const std::string k(key.str());
    const std::string p = "skill." + k;
    if (k == "name") {
      s.name = rd.string(v, p);
    } else if (k == "description") {
      s.description = rd.string(v, p);
    } else if (k == "description_localizations") {
      s.description_localizations = rd.string_map(v, p);
    } else if (k == "version") {
      s.version = rd.string(v, p);
    } else if (k == "author") {
      s.author = rd.string(v, p);
    } else if (k == "tags") {
      s.tags = rd.strings(v, p);
    } else if (k == "prompts") {
      s.prompts = rd.strings(v, p);
    } else if (k == "slash_options") {
      std::size_t i = 0;
      for (const toml::node& o : rd.array(v, p)) {
        const std::string op = p + "[" + std::to_string(i++) + "]";
        s.slash_options.push_back(detail::read_toml_option(rd, rd.table(o, op), op));
      }
    } else if (k == "always") {
      s.always = rd.boolean(v, p);
    }
  }
  rd.require(st, "[skill]", {"name", "description"});
  if (const toml::node* tools = root.get("tools")) {
    std::size_t i = 0;
    for (const toml::node& t : rd.array(*tools, "tools")) {
      const std::string tp = "tools[" + std::to_string(i++) + "]";
      s.tools.push_back(detail::read_toml_tool(rd, rd.table(t, tp), tp));
    }
  }
  if (const toml::node* prompts = root.get("prompts")) {
    for (std::string& p : rd.strings(*prompts, "prompts")) s.prompts.push_back(std::move(p));
  }
  if (const toml::node* forge = root.get("forge"))
    detail::check_forge(rd, rd.table(*forge, "forge"));
  return s;
}

/// The scaffold's skill-name rule (docs/library.md, Skills): non-empty, only `a-z`, `0-9`
/// and `-`, not starting or ending with `-` (`--` inside is allowed, no length limit).
/// The loader itself accepts any name.
inline bool is_valid_skill_name(std::string_view name) noexcept {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

/// Throws `errc::invalid_argument` with upstream's text unless `is_valid_skill_name`.
inline void validate_skill_name(std::string_view name) {
  if (!is_valid_skill_name(name)) {
    throw error(errc::invalid_argument,
                "skill name '" + std::string(name) +
                    "' must use lowercase letters, digits, and hyphens only",
                std::string(name));
  }
}

/// Builds the loader's skill from SKILL.md text (docs/library.md, Skills). Never fails:
/// `name` falls back to `dir_name` only when the frontmatter has no `name` key at all,
/// `description` to the first non-heading body line, then `"No description"`.
inline skill skill_from_markdown(std::string_view text, std::string_view dir_name) {
  const frontmatter_split split = split_frontmatter(text);
  const loader_frontmatter fm =
      split.found ? parse_loader_frontmatter(split.frontmatter) : loader_frontmatter{};
  skill s;
  s.name = fm.name ? *fm.name : std::string(dir_name);
  if (fm.description && !detail::is_blank(*fm.description)) {
    s.description = *fm.description;
  } else {
    s.description = "No description";
    for (const std::string_view line : detail::lines(split.body)) {
      if (detail::starts_with(line, "#") || detail::is_blank(line)) continue;
      s.description = std::string(text::trim(line));
      break;
    }
  }
  if (fm.version) s.version = *fm.version;
  s.author = fm.author;
  s.tags = fm.tags;
  s.prompts.push_back(split.body);
  s.slash_options = fm.slash_options;
  s.always = fm.always;
  return s;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
