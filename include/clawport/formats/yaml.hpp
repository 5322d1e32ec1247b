// SPDX-License-Identifier: MIT
// The strict "JSON-compatible YAML" subset OpenClaw accepts for CLAW.md frontmatter and the
// OpenClaw profile (docs/openclaw.md): one YAML 1.2 document under the Core schema,
// read into JSON data. Block and flow collections, plain/quoted/block scalars and comments
// are read; aliases, anchors, explicit tags, merge keys, complex or non-string keys,
// non-finite numbers, directives and multiple documents are refused with the line and
// column of the first offending character. Depth and size are bounded.
// The result types and the lexical layer are in yaml_scanner.hpp.
#pragma once

#include "yaml_scanner.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace yaml {

namespace detail {

class parser : public scanner {
 public:
  using scanner::scanner;

  json document() {
    if (!skip_to_content()) return json(nullptr);
    if (s_[i_] == '%' && col(i_) == 0) {
      fail(issue_kind::syntax, i_, "directives (%YAML, %TAG) are not supported");
    }
    bool same_line = false;
    if (at_marker("---")) {
      i_ += 3;
      skip_inline();
      if (i_ < n_ && s_[i_] != '\n' && s_[i_] != '#') {
        same_line = true;
      } else if (!skip_to_content()) {
        return json(nullptr);
      }
    }
    json v(nullptr);
    if (!at_marker("...") && !at_marker("---")) v = node(-1, same_line, true);
    if (skip_to_content()) {
      if (at_marker("...")) {
        i_ += 3;
        if (skip_to_content()) {
          fail(issue_kind::multiple_documents, i_,
               "the stream contains more than one document; a Claw file holds exactly one");
        }
      } else if (at_marker("---")) {
        fail(issue_kind::multiple_documents, i_,
             "the stream contains more than one document; a Claw file holds exactly one");
      } else {
        fail(issue_kind::syntax, i_, "unexpected content after the document's top-level node");
      }
    }
    return v;
  }

 private:
  // ---- block structure ----

  /// A node starting at `i_` (content). `n` is the parent's indentation; `same_line` says
  /// the node follows its indicator on the same line; `compact` allows a block collection
  /// to start there (after `- `, at the document level).
  json node(int n, bool same_line, bool compact) {
    const std::size_t at = i_;
    const char c = s_[i_];
    refuse_node_property(at);
    if (c == '|' || c == '>') return block_scalar(n);
    if (c == '-' && blank_at(i_ + 1)) {
      if (same_line && !compact) {
        fail(issue_kind::syntax, at, "a block sequence cannot start on the line of its key");
      }
      return block_sequence(col(i_));
    }
    if (c == '?' && blank_at(i_ + 1)) fail(issue_kind::complex_key, at, "complex keys (`? `)");
    if (looks_like_key()) {
      if (same_line && !compact) {
        fail(issue_kind::syntax, at, "a mapping cannot start on the line of its key");
      }
      return block_mapping(col(i_));
    }
    json v;
    if (c == '[' || c == '{') {
      v = flow_node();
      skip_inline();
      if (i_ < n_ && s_[i_] == ':' && blank_at(i_ + 1)) {
        fail(issue_kind::complex_key, at, "a collection used as a mapping key");
      }
    } else if (c == '"' || c == '\'') {
      v = json(c == '"' ? double_quoted() : single_quoted());
    } else {
      refuse_plain_start(at, false);
      std::string text = plain_block(n);
      auto r = resolve_plain(text);
      if (!r) fail(issue_kind::non_finite, at, "non-finite numbers have no JSON equivalent");
      v = std::move(*r);
    }
    end_of_line("characters after a value");
    return v;
  }

  /// True when the line at `i_` starts with an implicit key followed by `: `.
  bool looks_like_key() {
    const std::size_t save = i_;
    bool key = false;
    const char c = s_[i_];
    if (c == '"' || c == '\'') {
      std::size_t k = i_ + 1;
      for (; k < n_ && s_[k] != '\n'; ++k) {
        if (c == '"' && s_[k] == '\\') {
          ++k;
          continue;
        }
        if (s_[k] == c) {
          if (c == '\'' && k + 1 < n_ && s_[k + 1] == '\'') {
            ++k;
            continue;
          }
          break;
        }
      }
      if (k < n_ && s_[k] == c) {
        ++k;
        while (k < n_ && (s_[k] == ' ' || s_[k] == '\t')) ++k;
        key = k < n_ && s_[k] == ':' && blank_at(k + 1);
      }
    } else if (c != '[' && c != '{') {
      for (std::size_t k = i_; k < n_ && s_[k] != '\n'; ++k) {
        if (s_[k] == ':' && blank_at(k + 1)) {
          key = true;
          break;
        }
        if (s_[k] == '#' && k > i_ && (s_[k - 1] == ' ' || s_[k - 1] == '\t')) break;
      }
    }
    i_ = save;
    return key;
  }

  /// An implicit key on one line: quoted, or plain up to `: `.
  std::pair<std::string, bool> block_key() {
    const char c = s_[i_];
    if (c == '"' || c == '\'') {
      const std::size_t line_at = line_start(i_);
      std::string k = c == '"' ? double_quoted() : single_quoted();
      if (line_start(i_) != line_at) {
        fail(issue_kind::syntax, line_at, "an implicit key must be on a single line");
      }
      return {k, false};
    }
    refuse_plain_start(i_, false);
    const std::size_t from = i_;
    while (i_ < n_ && s_[i_] != '\n' && !(s_[i_] == ':' && blank_at(i_ + 1))) ++i_;
    std::size_t to = i_;
    while (to > from && (s_[to - 1] == ' ' || s_[to - 1] == '\t')) --to;
    return {s_.substr(from, to - from), true};
  }

  std::string resolve_key(const std::string& text, bool plain, std::size_t at) const {
    if (!plain) return text;
    if (text == "<<") fail(issue_kind::merge_key, at, "merge keys (`<<`) are not JSON data");
    auto r = resolve_plain(text);
    if (!r || !r->is_string()) {
      fail(issue_kind::non_string_key, at,
           "the key `" + text + "` is not a string; quote it to make it one");
    }
    return text;
  }

  void insert(json& obj, std::string key, json v, std::size_t at) const {
    if (obj.contains(key)) fail(issue_kind::duplicate_key, at, "duplicate key \"" + key + "\"");
    obj[std::move(key)] = std::move(v);
  }

  json block_mapping(int c) {
    depth_guard g(*this, i_);
    json obj = json::object();
    for (;;) {
      const std::size_t at = i_;
      refuse_node_property(at);
      if (s_[i_] == '?' && blank_at(i_ + 1))
        fail(issue_kind::complex_key, at, "complex keys (`? `)");
      if (s_[i_] == '[' || s_[i_] == '{') {
        fail(issue_kind::complex_key, at, "a collection used as a mapping key");
      }
      if (s_[i_] == '-' && blank_at(i_ + 1)) {
        fail(issue_kind::syntax, at, "a sequence entry where a mapping key was expected");
      }
      auto [text, plain] = block_key();
      skip_inline();
      if (i_ >= n_ || s_[i_] != ':' || !blank_at(i_ + 1)) {
        fail(issue_kind::syntax, at, "could not find the `:` after a mapping key");
      }
      ++i_;
      std::string key = resolve_key(text, plain, at);
      json v = value_after_indicator(c, true);
      insert(obj, std::move(key), std::move(v), at);
      if (!skip_to_content() || at_marker("---") || at_marker("...")) break;
      const int cc = col(i_);
      if (cc < c) break;
      if (cc > c) fail(issue_kind::syntax, i_, "bad indentation of a mapping entry");
    }
    return obj;
  }

  json block_sequence(int c) {
    depth_guard g(*this, i_);
    json arr = json::array();
    for (;;) {
      ++i_;  // past '-'
      arr.push_back(value_after_indicator(c, false));
      if (!skip_to_content() || at_marker("---") || at_marker("...")) break;
      const int cc = col(i_);
      if (cc < c) break;
      if (cc > c) fail(issue_kind::syntax, i_, "bad indentation of a sequence entry");
      if (!(s_[i_] == '-' && blank_at(i_ + 1))) break;
    }
    return arr;
  }

  /// The value after `key:` (in_map) or `-` whose collection is indented `n`.
  json value_after_indicator(int n, bool in_map) {
    skip_inline();
    if (i_ >= n_ || s_[i_] == '\n' || s_[i_] == '#') {
      if (i_ < n_ && s_[i_] == '#' && s_[i_ - 1] != ' ' && s_[i_ - 1] != '\t') {
        fail(issue_kind::syntax, i_, "a comment must follow whitespace");
      }
      if (!skip_to_content() || at_marker("---") || at_marker("...")) return json(nullptr);
      const int cc = col(i_);
      if (cc > n) return node(n, false, true);
      if (cc == n && in_map && s_[i_] == '-' && blank_at(i_ + 1)) return block_sequence(cc);
      return json(nullptr);
    }
    return node(n, true, !in_map);
  }

  /// A plain scalar in block context, folding continuation lines indented more than `n`.
  std::string plain_block(int n) {
    std::string out;
    auto segment = [&]() {
      const std::size_t from = i_;
      while (i_ < n_ && s_[i_] != '\n') {
        if (s_[i_] == ':' && blank_at(i_ + 1)) break;
        if (s_[i_] == '#' && i_ > from && (s_[i_ - 1] == ' ' || s_[i_ - 1] == '\t')) break;
        ++i_;
      }
      std::size_t to = i_;
      while (to > from && (s_[to - 1] == ' ' || s_[to - 1] == '\t')) --to;
      out.append(s_, from, to - from);
      return i_ < n_ && s_[i_] != '\n';  // stopped early (": " or " #")
    };
    if (segment()) return out;
    for (;;) {
      // Look ahead past empty lines to a continuation line.
      std::size_t k = i_;
      std::size_t empties = 0;
      std::size_t line_at = 0;
      bool found = false;
      while (k < n_) {
        ++k;  // past '\n'
        line_at = k;
        std::size_t sp = 0;
        while (k < n_ && s_[k] == ' ') ++k, ++sp;
        std::size_t t = k;
        while (t < n_ && (s_[t] == ' ' || s_[t] == '\t')) ++t;
        if (t >= n_) break;
        if (s_[t] == '\n') {
          ++empties;
          k = t;
          continue;
        }
        if (s_[t] == '#') break;  // a comment line ends the scalar
        if (static_cast<int>(sp) <= n) break;
        if (sp == 0 && t == line_at && t + 3 <= n_ &&
            (s_.compare(t, 3, "---") == 0 || s_.compare(t, 3, "...") == 0) && blank_at(t + 3)) {
          break;
        }
        if (t != k) fail(issue_kind::syntax, k, "a tab character cannot indent YAML content");
        found = true;
        k = t;
        break;
      }
      if (!found) return out;
      if (empties == 0) {
        out += ' ';
      } else {
        out.append(empties, '\n');
      }
      i_ = k;
      if (segment()) return out;
    }
  }

  /// The content lines of a block scalar, as read at one indentation.
  struct block_lines {
    std::vector<std::string> lines;  // content lines; "" marks an empty line
    std::vector<bool> empty;
    bool last_broken = false;  // the last content line ended with a line break
  };

  json block_scalar(int n) {
    const std::size_t at = i_;
    const bool literal = s_[i_] == '|';
    ++i_;
    int indicator = 0;
    char chomp = 'c';
    for (int round = 0; round < 2 && i_ < n_; ++round) {
      const char h = s_[i_];
      if (h >= '1' && h <= '9' && indicator == 0) {
        indicator = h - '0';
        ++i_;
      } else if ((h == '-' || h == '+') && chomp == 'c') {
        chomp = h == '-' ? 's' : 'k';
        ++i_;
      } else {
        break;
      }
    }
    end_of_line("characters after a block scalar header");
    if (i_ < n_) ++i_;  // past the header's line break
    const int base = n < 0 ? 0 : n;
    int indent = indicator > 0 ? base + indicator : -1;
    // Auto-detect from the first non-empty line.
    if (indent < 0) indent = detected_block_indent(n, at);
    const block_lines r = read_block_lines(indent);
    return json(folded_block(r, literal, chomp));
  }

  /// The indentation of a block scalar without an indicator: the first content line's
  /// (at least one more than the parent `n`), or the longest leading empty line's when
  /// there is no content. Reads ahead from i_ without consuming.
  int detected_block_indent(int n, std::size_t at) {
    std::size_t k = i_;
    int max_empty = 0;
    for (;;) {
      int sp = 0;
      while (k < n_ && s_[k] == ' ') ++k, ++sp;
      if (k < n_ && s_[k] == '\n') {
        if (sp > max_empty) max_empty = sp;
        ++k;
        continue;
      }
      const int least = std::max(n + 1, 1);
      if (k >= n_ || sp < least) {  // no content line: the longest empty line decides
        return std::max(least, max_empty);
      }
      if (max_empty > sp) {
        fail(issue_kind::syntax, at,
             "a leading empty line of a block scalar is indented more than its content");
      }
      return sp;
    }
  }

  /// Reads the lines indented at least `indent` from i_ (and the empty lines among them);
  /// leaves i_ at the first less-indented line.
  block_lines read_block_lines(int indent) {
    block_lines r;
    for (;;) {
      if (i_ >= n_) break;
      const std::size_t ls = i_;
      int sp = 0;
      std::size_t k = i_;
      while (k < n_ && s_[k] == ' ' && sp < indent) ++k, ++sp;
      if (sp < indent) {
        std::size_t t = k;
        while (t < n_ && s_[t] == ' ') ++t;
        if (t >= n_ || s_[t] == '\n') {  // an empty line
          r.lines.emplace_back();
          r.empty.push_back(true);
          i_ = t < n_ ? t + 1 : t;
          if (t >= n_) break;
          continue;
        }
        i_ = ls;
        break;  // less indented: the scalar ends
      }
      if (k >= n_ || s_[k] == '\n') {  // exactly the indentation: an empty line
        r.lines.emplace_back();
        r.empty.push_back(true);
        i_ = k < n_ ? k + 1 : k;
        if (k >= n_) break;
        continue;
      }
      std::size_t e = k;
      while (e < n_ && s_[e] != '\n') ++e;
      r.lines.emplace_back(s_.substr(k, e - k));
      r.empty.push_back(false);
      r.last_broken = e < n_;
      i_ = e < n_ ? e + 1 : e;
    }
    return r;
  }

  /// Joins the lines as the scalar's style says: literal keeps line breaks, folded joins
  /// normal lines with a space; `chomp` ('s'trip, 'c'lip, 'k'eep) settles the final breaks.
  static std::string folded_block(const block_lines& r, bool literal, char chomp) {
    // Separate trailing empty lines.
    std::size_t content = r.lines.size();
    while (content > 0 && r.empty[content - 1]) --content;
    const std::size_t trailing = r.lines.size() - content;
    std::string out;
    bool prev_normal = false;
    bool first = true;
    std::size_t empties = 0;
    for (std::size_t k = 0; k < content; ++k) {
      if (r.empty[k]) {
        ++empties;
        continue;
      }
      const bool more = !r.lines[k].empty() && (r.lines[k][0] == ' ' || r.lines[k][0] == '\t');
      if (first) {
        out.append(empties, '\n');
      } else if (literal) {
        out.append(empties + 1, '\n');
      } else if (prev_normal && !more) {
        if (empties == 0) {
          out += ' ';
        } else {
          out.append(empties, '\n');
        }
      } else {
        out.append(empties + 1, '\n');
      }
      out += r.lines[k];
      first = false;
      prev_normal = !more;
      empties = 0;
    }
    if (chomp == 'k') {
      if (content > 0 && r.last_broken) out += '\n';
      out.append(trailing, '\n');
    } else if (chomp == 'c') {
      if (content > 0 && (r.last_broken || trailing > 0)) out += '\n';
    }
    return out;
  }

  // ---- flow collections ----

  void skip_flow_space(std::size_t open_at) {
    for (;;) {
      const std::size_t before = i_;
      skip_inline();
      if (i_ < n_ && s_[i_] == '#') {
        if (i_ == before && i_ > 0 && s_[i_ - 1] != '\n' && s_[i_ - 1] != ' ' &&
            s_[i_ - 1] != '\t') {
          fail(issue_kind::syntax, i_, "a comment must follow whitespace");
        }
        skip_comment();
      }
      if (i_ >= n_) fail(issue_kind::syntax, open_at, "unterminated flow collection");
      if (s_[i_] == '\n') {
        ++i_;
        if (i_ + 3 <= n_ && (s_.compare(i_, 3, "---") == 0 || s_.compare(i_, 3, "...") == 0) &&
            blank_at(i_ + 3)) {
          fail(issue_kind::syntax, i_, "a document marker inside a flow collection");
        }
        continue;
      }
      return;
    }
  }

  /// A plain scalar in flow context (may span lines).
  std::string plain_flow() {
    std::string out;
    std::size_t pending_breaks = 0;
    bool any = false;
    for (;;) {
      const std::size_t from = i_;
      while (i_ < n_ && s_[i_] != '\n') {
        const char c = s_[i_];
        if (flow_indicator(c)) break;
        if (c == ':' && (blank_at(i_ + 1) || flow_indicator(s_[i_ + 1]))) break;
        if (c == '#' && i_ > from && (s_[i_ - 1] == ' ' || s_[i_ - 1] == '\t')) break;
        ++i_;
      }
      std::size_t to = i_;
      while (to > from && (s_[to - 1] == ' ' || s_[to - 1] == '\t')) --to;
      if (to > from) {
        if (any) {
          if (pending_breaks <= 1) {
            out += ' ';
          } else {
            out.append(pending_breaks - 1, '\n');
          }
        }
        out.append(s_, from, to - from);
        any = true;
        pending_breaks = 0;
      }
      if (i_ >= n_ || s_[i_] != '\n') return out;
      // Continue on the next line unless it starts with an indicator that ends the scalar.
      std::size_t k = i_;
      std::size_t breaks = 0;
      while (k < n_ && (s_[k] == '\n' || s_[k] == ' ' || s_[k] == '\t')) {
        if (s_[k] == '\n') ++breaks;
        ++k;
      }
      if (k >= n_ || flow_indicator(s_[k]) || s_[k] == '#' ||
          (s_[k] == ':' && (blank_at(k + 1) || flow_indicator(s_[k + 1])))) {
        return out;
      }
      pending_breaks += breaks;
      i_ = k;
    }
  }

  json flow_scalar_or_collection(bool& was_collection, bool& plain, std::string& raw) {
    const std::size_t at = i_;
    refuse_node_property(at);
    const char c = s_[i_];
    was_collection = false;
    plain = false;
    if (c == '[' || c == '{') {
      was_collection = true;
      return flow_node();
    }
    if (c == '"' || c == '\'') {
      raw = c == '"' ? double_quoted() : single_quoted();
      return json(raw);
    }
    if (c == '?' && blank_at(i_ + 1)) fail(issue_kind::complex_key, at, "complex keys (`? `)");
    refuse_plain_start(at, true);
    plain = true;
    raw = plain_flow();
    auto r = resolve_plain(raw);
    if (!r) fail(issue_kind::non_finite, at, "non-finite numbers have no JSON equivalent");
    return std::move(*r);
  }

  json flow_node() {
    const std::size_t open_at = i_;
    depth_guard g(*this, open_at);
    const bool seq = s_[i_] == '[';
    const char close = seq ? ']' : '}';
    ++i_;
    json out = seq ? json::array() : json::object();
    for (;;) {
      skip_flow_space(open_at);
      if (s_[i_] == close) {
        ++i_;
        return out;
      }
      if (s_[i_] == ',') fail(issue_kind::syntax, i_, "an empty entry in a flow collection");
      const std::size_t at = i_;
      bool coll = false;
      bool plain = false;
      std::string raw;
      json first = flow_scalar_or_collection(coll, plain, raw);
      skip_flow_space(open_at);
      const bool pair = s_[i_] == ':' && (!plain || blank_at(i_ + 1) || flow_indicator(s_[i_ + 1]));
      if (pair) {
        if (coll) fail(issue_kind::complex_key, at, "a collection used as a mapping key");
        ++i_;
        const std::string key = resolve_key(raw, plain, at);
        skip_flow_space(open_at);
        json v(nullptr);
        if (s_[i_] != ',' && s_[i_] != close) {
          bool c2 = false;
          bool p2 = false;
          std::string r2;
          v = flow_scalar_or_collection(c2, p2, r2);
          skip_flow_space(open_at);
        }
        if (seq) {
          json one = json::object();
          one[key] = std::move(v);
          out.push_back(std::move(one));
        } else {
          insert(out, key, std::move(v), at);
        }
      } else if (seq) {
        out.push_back(std::move(first));
      } else {
        if (coll) fail(issue_kind::complex_key, at, "a collection used as a mapping key");
        insert(out, resolve_key(raw, plain, at), json(nullptr), at);
      }
      if (s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (s_[i_] != close) {
        fail(issue_kind::syntax, i_,
             std::string("expected `,` or `") + close + "` in a flow collection");
      }
    }
  }
};

/// Refuses characters YAML does not allow in a stream (C0 controls other than tab and
/// line breaks, DEL, C1 controls other than NEL, U+FFFE/U+FFFF). Returns the offset.
inline std::optional<std::size_t> first_non_printable(std::string_view s) {
  for (std::size_t k = 0; k < s.size(); ++k) {
    const auto c = static_cast<unsigned char>(s[k]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return k;
    if (c == 0x7f) return k;
    if (c == 0xc2 && k + 1 < s.size()) {
      const auto d = static_cast<unsigned char>(s[k + 1]);
      if (d >= 0x80 && d <= 0x9f && d != 0x85) return k;
    }
    if (c == 0xef && k + 2 < s.size() && static_cast<unsigned char>(s[k + 1]) == 0xbf &&
        (static_cast<unsigned char>(s[k + 2]) == 0xbe ||
         static_cast<unsigned char>(s[k + 2]) == 0xbf)) {
      return k;
    }
    if (c == 0xef && k > 0 && k + 2 < s.size() && static_cast<unsigned char>(s[k + 1]) == 0xbb &&
        static_cast<unsigned char>(s[k + 2]) == 0xbf) {
      return k;  // a BOM inside the document
    }
  }
  return std::nullopt;
}

}  // namespace detail

/// Reads one YAML document of the JSON-compatible subset. Never throws for bad input.
inline result parse(std::string_view text, const options& opt = {}) {
  result r;
  if (text.size() > opt.max_bytes) {
    r.error = failure{issue_kind::too_large, 1, 1,
                      "the document is " + std::to_string(text.size()) + " bytes, more than " +
                          std::to_string(opt.max_bytes)};
    return r;
  }
  std::size_t bom = 0;
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    bom = 3;
    text.remove_prefix(3);
  }
  if (!clawport::detail::valid_utf8(text)) {
    r.error = failure{issue_kind::syntax, 1, 1, "the document is not valid UTF-8"};
    return r;
  }
  // Line breaks: CRLF and lone CR read as LF (positions keep their line numbers).
  std::string norm;
  norm.reserve(text.size());
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '\r') {
      norm += '\n';
      if (k + 1 < text.size() && text[k + 1] == '\n') ++k;
    } else {
      norm += text[k];
    }
  }
  if (auto bad = detail::first_non_printable(norm)) {
    std::size_t line = 1;
    std::size_t ls = 0;
    for (std::size_t k = 0; k < *bad; ++k)
      if (norm[k] == '\n') ++line, ls = k + 1;
    r.error = failure{issue_kind::syntax, line, *bad - ls + 1 + (line == 1 ? bom : 0),
                      "a control character YAML does not allow"};
    return r;
  }
  try {
    detail::parser p(std::move(norm), bom, opt);
    r.value = p.document();
  } catch (const detail::stop& s) {
    r.value = nullptr;
    r.error = s.f;
  }
  return r;
}

}  // namespace yaml
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
