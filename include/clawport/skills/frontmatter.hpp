// SPDX-License-Identifier: MIT
// SKILL.md frontmatter: the fence rule, the lenient reader the runtime loader uses (it never
// fails), the strict reader/writer the editing surfaces use, and the `slash_options:` block
// both share. Pure: text in, data out.
//
// One deliberate difference from upstream: both upstream readers ignore indentation, so a
// key nested under `metadata:` or inside a slash option (`  description: X`) overrides the
// skill's own field. Here an indented line is nested content and never a top-level key
// (block scalars and tag lists still read their indented continuation lines).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "../core/error.hpp"
#include "text.hpp"

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace skills {

/// One fixed choice of a slash option (`{name: A, value: a}`).
struct slash_choice {
  std::string name;
  std::string value;
  friend bool operator==(const slash_choice& a, const slash_choice& b) {
    return a.name == b.name && a.value == b.value;
  }
};

/// A typed slash-command option of a skill. `type` is not checked against the known
/// kinds at parse time (upstream does not either).
struct slash_option {
  std::string name;
  std::string description;
  std::string type;
  bool required = false;
  std::vector<slash_choice> choices;
  std::optional<double> min;
  std::optional<double> max;
  std::optional<std::uint32_t> min_length;
  std::optional<std::uint32_t> max_length;
  std::map<std::string, std::string> description_localizations;  ///< SKILL.toml only
};

/// The option kinds upstream knows (`SlashOptionKind::ALL`, in its order).
inline constexpr std::string_view slash_option_kinds[] = {
    "string", "integer", "number", "boolean", "user", "channel", "role", "mentionable"};

/// Whether an option kind accepts fixed `choices` (string, integer, number).
constexpr bool kind_allows_choices(std::string_view kind) noexcept {
  return kind == "string" || kind == "integer" || kind == "number";
}
/// Whether an option kind takes `min`/`max` (integer, number).
constexpr bool kind_has_numeric_bounds(std::string_view kind) noexcept {
  return kind == "integer" || kind == "number";
}
/// Whether an option kind takes `min_length`/`max_length` (string only).
constexpr bool kind_has_length_bounds(std::string_view kind) noexcept { return kind == "string"; }

/// Result of the fence rule: `found` is false when the text has no (recognised)
/// frontmatter, and then `body` is the whole text unchanged.
struct frontmatter_split {
  bool found = false;
  std::string frontmatter;
  std::string body;
};

/// Splits SKILL.md text at its frontmatter fences (docs/library.md, Skills): CRLF is
/// normalised, the text must start with exactly `---\n`, the first `\n---\n` closes it
/// (or a final `\n---`). An empty frontmatter (`---\n---\n`) is not recognised.
inline frontmatter_split split_frontmatter(std::string_view text) {
  frontmatter_split out;
  std::string norm = detail::normalize_crlf(text);
  std::string_view s = norm;
  if (!detail::starts_with(s, "---\n")) {
    out.body = std::string(text);
    return out;
  }
  const std::string_view rest = s.substr(4);
  const std::size_t close = rest.find("\n---\n");
  if (close != std::string_view::npos) {
    out.found = true;
    out.frontmatter = std::string(rest.substr(0, close));
    out.body = std::string(rest.substr(close + 5));
    return out;
  }
  if (detail::ends_with(rest, "\n---")) {
    out.found = true;
    out.frontmatter = std::string(rest.substr(0, rest.size() - 4));
    return out;
  }
  out.body = std::string(text);
  return out;
}

namespace detail {

/// Rust's `f64::from_str` grammar: optional sign, decimal digits with an optional
/// fraction and exponent, or inf/infinity/nan in any case. No hex, no spaces.
inline std::optional<double> parse_rust_f64(std::string_view s) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (text::iequals_ascii(body, "inf") || text::iequals_ascii(body, "infinity")) {
    return negative ? -HUGE_VAL : HUGE_VAL;
  }
  if (text::iequals_ascii(body, "nan")) return std::optional<double>(std::nan(""));
  std::size_t i = 0;
  std::size_t digits = 0;
  while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, ++digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i, ++exp_digits;
    if (exp_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  // strtod on a validated, NUL-terminated copy; the grammar above has no locale-dependent
  // characters except '.', which the "C" locale every program starts in accepts.
  const std::string copy(body);
  const double v = std::strtod(copy.c_str(), nullptr);
  return negative ? -v : v;
}

/// Rust's `u32::from_str`: optional `+`, decimal digits, no overflow.
inline std::optional<std::uint32_t> parse_rust_u32(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  std::uint32_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

/// `parse_choice`: one `{name: A, value: a}` item; split on every comma.
inline std::optional<slash_choice> parse_choice(std::string_view item) {
  item = text::trim(item);
  if (!item.empty() && item.front() == '{') item.remove_prefix(1);
  if (!item.empty() && item.back() == '}') item.remove_suffix(1);
  std::optional<std::string> name;
  std::optional<std::string> value;
  while (true) {
    const std::size_t comma = item.find(',');
    const std::string_view part = item.substr(0, comma);
    std::string_view k;
    std::string_view v;
    if (split_once(part, ':', k, v)) {
      k = text::trim(k);
      const std::string_view val = strip_quotes(text::trim(v));
      if (k == "name") name = std::string(val);
      if (k == "value") value = std::string(val);
    }
    if (comma == std::string_view::npos) break;
    item.remove_prefix(comma + 1);
  }
  if (!name) return std::nullopt;
  slash_choice c;
  c.name = *name;
  c.value = value ? *value : *name;
  return c;
}

/// Inline `[{...}, {...}]`: only balanced `{...}` groups count.
inline std::vector<slash_choice> parse_inline_choices(std::string_view v) {
  std::vector<slash_choice> out;
  std::size_t depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '{') {
      if (depth++ == 0) start = i;
    } else if (v[i] == '}' && depth > 0) {
      if (--depth == 0) {
        if (auto c = parse_choice(v.substr(start, i - start + 1))) out.push_back(*c);
      }
    }
  }
  return out;
}

inline void apply_option_field(slash_option& opt, std::string_view line) {
  std::string_view k;
  std::string_view v;
  if (!split_once(line, ':', k, v)) return;
  k = text::trim(k);
  if (k == "choices" && !text::trim(v).empty()) {
    for (auto& c : parse_inline_choices(text::trim(v))) opt.choices.push_back(std::move(c));
    return;
  }
  const std::string_view val = strip_quotes(text::trim(v));
  if (k == "name") {
    opt.name = std::string(val);
  } else if (k == "description") {
    opt.description = std::string(val);
  } else if (k == "type") {
    opt.type = std::string(val);
  } else if (k == "required") {
    opt.required = text::iequals_ascii(val, "true");
  } else if (k == "min") {
    opt.min = parse_rust_f64(val);
  } else if (k == "max") {
    opt.max = parse_rust_f64(val);
  } else if (k == "min_length") {
    opt.min_length = parse_rust_u32(val);
  } else if (k == "max_length") {
    opt.max_length = parse_rust_u32(val);
  }
}

/// True for the line that opens the block: not indented, `slash_options:` and no value.
inline bool is_slash_options_header(std::string_view line) {
  if (is_indented(line)) return false;
  std::string_view k;
  std::string_view v;
  return split_once(line, ':', k, v) && text::trim(k) == "slash_options" && text::trim(v).empty();
}

}  // namespace detail

/// Parses the `slash_options:` block of a frontmatter (docs/library.md, Skills). Options
/// without a name or a type are dropped. Never fails.
inline std::vector<slash_option> parse_slash_options(std::string_view frontmatter) {
  std::vector<slash_option> out;
  const auto all = detail::lines(frontmatter);
  std::size_t i = 0;
  while (i < all.size() && !detail::is_slash_options_header(all[i])) ++i;
  if (i == all.size()) return out;
  std::optional<slash_option> current;
  std::optional<std::size_t> item_indent;
  const auto finish = [&] {
    if (current && !current->name.empty() && !current->type.empty()) {
      out.push_back(std::move(*current));
    }
    current.reset();
  };
  for (++i; i < all.size(); ++i) {
    const std::string_view line = all[i];
    if (detail::is_blank(line)) continue;
    if (!detail::is_indented(line)) break;
    const std::size_t indent = detail::indent_of(line);
    const std::string_view t = text::trim(line);
    if (t == "-" || detail::starts_with(t, "- ")) {
      const std::string_view rest = t.size() > 1 ? t.substr(2) : std::string_view{};
      if (!item_indent) item_indent = indent;
      if (indent <= *item_indent) {
        finish();
        current = slash_option{};
        if (!text::trim(rest).empty()) detail::apply_option_field(*current, rest);
      } else if (current) {
        if (auto c = detail::parse_choice(rest)) current->choices.push_back(std::move(*c));
      }
      continue;
    }
    if (current) detail::apply_option_field(*current, t);
  }
  finish();
  return out;
}

namespace detail {

/// The flat scan both readers share (docs/library.md, Skills), with the indentation fix: a line
/// that starts with a space or tab is nested content unless it continues a block scalar or a tag
/// list. `Sink` receives `scalar(key, value, from_block)` and `tags(list)`.
template <class Sink>
void scan_frontmatter(std::string_view frontmatter, Sink&& sink) {
  std::optional<std::string> block_key;
  std::vector<std::string> block_parts;
  bool collecting_tags = false;
  std::vector<std::string> tags;
  const auto flush_block = [&] {
    if (!block_key) return;
    std::string joined;
    for (std::size_t i = 0; i < block_parts.size(); ++i) {
      if (i) joined += ' ';
      joined += block_parts[i];
    }
    const std::string_view value = text::trim(joined);
    if (!value.empty()) sink.scalar(*block_key, value, true);
    block_key.reset();
    block_parts.clear();
  };
  const auto flush_tags = [&] {
    if (!collecting_tags) return;
    sink.tags(tags);
    collecting_tags = false;
  };
  for (const std::string_view line : lines(frontmatter)) {
    if (block_key) {
      if (is_indented(line) || is_blank(line)) {
        block_parts.emplace_back(text::trim(line));
        continue;
      }
      flush_block();
    }
    if (collecting_tags) {
      const std::string_view t = text::trim(line);
      if (starts_with(t, "- ")) {
        const std::string_view tag = strip_quotes(text::trim(t.substr(2)));
        if (!tag.empty()) tags.emplace_back(tag);
        continue;
      }
      flush_tags();
    }
    if (is_indented(line)) continue;  // nested content (the indentation fix)
    std::string_view k;
    std::string_view v;
    if (!split_once(line, ':', k, v)) continue;
    const std::string_view key = text::trim(k);
    const std::string_view val = strip_quotes(text::trim(v));
    if (val == ">-" || val == ">" || val == "|" || val == "|-") {
      block_key = std::string(key);
      continue;
    }
    if (key == "tags") {
      tags.clear();
      if (val.empty()) {
        collecting_tags = true;
        continue;
      }
      std::string_view list = val;
      while (!list.empty() && list.front() == '[') list.remove_prefix(1);
      while (!list.empty() && list.back() == ']') list.remove_suffix(1);
      while (true) {
        const std::size_t comma = list.find(',');
        const std::string_view item = strip_quotes(text::trim(list.substr(0, comma)));
        if (!item.empty()) tags.emplace_back(item);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
      }
      sink.tags(tags);
      continue;
    }
    sink.scalar(key, val, false);
  }
  flush_block();
  flush_tags();
}

}  // namespace detail

/// What the runtime loader's lenient reader (`parse_simple_frontmatter`) extracts. A key
/// that was present is engaged even when its value is empty (`name:` gives an empty name).
struct loader_frontmatter {
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::optional<std::string> version;
  std::optional<std::string> author;
  std::vector<std::string> tags;
  bool always = false;
  std::vector<slash_option> slash_options;
};

/// The lenient reader (docs/library.md, Skills); never fails. Unknown keys are ignored;
/// a block scalar only ever sets `name` or `description`; later keys overwrite earlier ones.
inline loader_frontmatter parse_loader_frontmatter(std::string_view frontmatter) {
  struct sink_t {
    loader_frontmatter& fm;
    void scalar(std::string_view key, std::string_view val, bool from_block) {
      if (from_block && key != "name" && key != "description") return;
      if (key == "name") {
        fm.name = std::string(val);
      } else if (key == "description") {
        fm.description = std::string(val);
      } else if (key == "version") {
        fm.version = std::string(val);
      } else if (key == "author") {
        fm.author = std::string(val);
      } else if (key == "always") {
        fm.always = text::iequals_ascii(val, "true");
      }
    }
    void tags(const std::vector<std::string>& t) { fm.tags = t; }
  };
  loader_frontmatter fm;
  detail::scan_frontmatter(frontmatter, sink_t{fm});
  fm.slash_options = parse_slash_options(frontmatter);
  return fm;
}

/// The strict frontmatter model (`SkillFrontmatter`): 8 flat fields plus options.
struct skill_frontmatter {
  std::string name;
  std::string description;
  std::optional<std::string> license;
  std::optional<std::string> author;
  std::optional<std::string> version;
  std::optional<std::string> category;
  std::vector<std::string> tags;
  bool always = false;
  std::vector<slash_option> slash_options;
};

/// A SKILL.md read by the strict path (`SkillDocument`): the editing surfaces use it.
struct skill_document {
  skill_frontmatter frontmatter;
  std::string body;

  /// Parses strictly (docs/library.md, Skills). Throws `errc::skill_invalid` when the
  /// frontmatter is missing or `name`/`description` is empty. `subject` names the file.
  static skill_document parse(std::string_view text, const std::string& subject = "SKILL.md");

  /// Writes the canonical form (docs/library.md, Skills); `parse(serialize())` gives the document
  /// back.
  std::string serialize() const;
};

inline skill_document skill_document::parse(std::string_view text, const std::string& subject) {
  const frontmatter_split split = split_frontmatter(text);
  if (!split.found) {
    throw error(errc::skill_invalid, "SKILL.md is missing the leading `---` frontmatter delimiter",
                subject);
  }
  // Carve the slash_options block out before the flat scan.
  std::string flat;
  {
    bool in_block = false;
    for (const std::string_view line : detail::lines(split.frontmatter)) {
      if (in_block) {
        if (detail::is_blank(line) || detail::is_indented(line)) continue;
        in_block = false;
      }
      if (detail::is_slash_options_header(line)) {
        in_block = true;
        continue;
      }
      flat.append(line.data(), line.size());
      flat += '\n';
    }
  }
  struct sink_t {
    skill_frontmatter& fm;
    void scalar(std::string_view key, std::string_view val, bool) {
      const std::string v(val);
      if (key == "name") {
        fm.name = v;
      } else if (key == "description") {
        fm.description = v;
      } else if (key == "license") {
        fm.license = v;
      } else if (key == "author") {
        fm.author = v;
      } else if (key == "version") {
        fm.version = v;
      } else if (key == "category") {
        fm.category = v;
      } else if (key == "always") {
        fm.always = text::iequals_ascii(val, "true");
      }
    }
    void tags(const std::vector<std::string>& t) { fm.tags = t; }
  };
  skill_document doc;
  detail::scan_frontmatter(flat, sink_t{doc.frontmatter});
  doc.frontmatter.slash_options = parse_slash_options(split.frontmatter);
  if (doc.frontmatter.name.empty()) {
    throw error(errc::skill_invalid, "SKILL.md frontmatter is missing required field `name`",
                subject);
  }
  if (doc.frontmatter.description.empty()) {
    throw error(errc::skill_invalid, "SKILL.md frontmatter is missing required field `description`",
                subject);
  }
  doc.body = split.body;
  if (!doc.body.empty() && doc.body.front() == '\n') doc.body.erase(0, 1);
  return doc;
}

namespace detail {

/// Shortest decimal text that reads back as the same double (Rust's `Display` style:
/// `1` for 1.0, `0.5`, `1e300`).
inline std::string format_f64(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace detail

inline std::string skill_document::serialize() const {
  const skill_frontmatter& fm = frontmatter;
  std::string out = "---\nname: " + fm.name + "\n";
  // Flat only when the flat line reads back as written: the reader trims and strips quotes
  // (`description: "x` would read as `x`); a block scalar keeps them.
  const bool flat_reads_back = detail::strip_quotes(text::trim(fm.description)) == fm.description;
  if (fm.description.find('\n') != std::string::npos || fm.description.size() > 80 ||
      !flat_reads_back) {
    out += "description: >-\n";
    for (const std::string_view line : detail::lines(fm.description)) {
      out += "  ";
      out += text::trim(line);
      out += '\n';
    }
  } else {
    out += "description: " + fm.description + "\n";
  }
  const auto optional_field = [&](const char* key, const std::optional<std::string>& v) {
    if (v && !v->empty()) out += std::string(key) + ": " + *v + "\n";
  };
  optional_field("license", fm.license);
  optional_field("author", fm.author);
  optional_field("version", fm.version);
  optional_field("category", fm.category);
  if (!fm.tags.empty()) {
    out += "tags: [";
    for (std::size_t i = 0; i < fm.tags.size(); ++i) out += (i ? ", " : "") + fm.tags[i];
    out += "]\n";
  }
  if (fm.always) out += "always: true\n";
  if (!fm.slash_options.empty()) {
    out += "slash_options:\n";
    for (const slash_option& o : fm.slash_options) {
      out += "  - name: " + o.name + "\n";
      if (!o.description.empty()) out += "    description: " + o.description + "\n";
      out += "    type: " + o.type + "\n";
      if (o.required) out += "    required: true\n";
      if (!o.choices.empty()) {
        out += "    choices:\n";
        for (const slash_choice& c : o.choices) {
          out += "      - {name: " + c.name + ", value: " + c.value + "}\n";
        }
      }
      if (o.min) out += "    min: " + detail::format_f64(*o.min) + "\n";
      if (o.max) out += "    max: " + detail::format_f64(*o.max) + "\n";
      if (o.min_length) out += "    min_length: " + std::to_string(*o.min_length) + "\n";
      if (o.max_length) out += "    max_length: " + std::to_string(*o.max_length) + "\n";
    }
  }
  out += "---\n";
  if (body.empty() || body.front() != '\n') out += '\n';
  out += body;
  if (out.back() != '\n') out += '\n';
  return out;
}

}  // namespace skills
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
