// SPDX-License-Identifier: MIT
// The syntax half of the regex engine (regex.hpp compiles and runs it): the bounds, the
// compiled program's instruction set, and the parser of Rust `regex` syntax into a tree.
#pragma once

#include "../core/config.hpp"
#include "../core/utf8.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace regex {

/// Deepest group nesting a pattern may have.
inline constexpr std::size_t max_nesting = 64;
/// Largest compiled program (instructions) a pattern may become, counted repetitions
/// expanded: it bounds the work per text character.
inline constexpr std::size_t max_program = 1024;

enum class assertion : std::uint8_t {
  text_start,
  text_end,
  line_start,
  line_end,
  word_boundary,
  not_word_boundary
};

/// A compiled pattern. Build it with `compile`.
class program {
 public:
  struct range {
    char32_t lo, hi;
  };
  enum class op : std::uint8_t { consume, split, jump, check, match };
  struct instruction {
    op code = op::match;
    std::uint32_t x = 0, y = 0;  ///< targets (split, jump); first range (consume)
    std::uint32_t n = 0;         ///< range count (consume)
    bool negated = false;        ///< consume: matches what is outside the ranges
    assertion what = assertion::text_start;
  };

  std::vector<instruction> code;
  std::vector<range> ranges;
};

namespace detail {

struct node;
using node_ptr = std::unique_ptr<node>;

struct node {
  enum class kind : std::uint8_t { empty, set, check, concat, alternate, repeat };
  kind type = kind::empty;
  std::vector<program::range> ranges;  // set
  bool negated = false;                // set
  assertion what = assertion::text_start;
  std::vector<node_ptr> children;  // concat, alternate, repeat (one)
  std::uint32_t min = 0, max = 0;  // repeat; max == unbounded for no upper bound
  static constexpr std::uint32_t unbounded = 0xFFFFFFFFu;
};

struct flags {
  bool icase = false, multiline = false, dotall = false;
};

constexpr bool is_word(char32_t c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

inline void add_ascii_class(std::vector<program::range>& r, char c) {
  switch (c) {
    case 'd':
      r.push_back({'0', '9'});
      break;
    case 'w':
      r.push_back({'0', '9'}), r.push_back({'A', 'Z'}), r.push_back({'_', '_'});
      r.push_back({'a', 'z'});
      break;
    case 's':
      r.push_back({'\t', '\r'}), r.push_back({' ', ' '});
      break;
    default:
      break;
  }
}

/// The complement of sorted, merged ranges over all of Unicode.
inline std::vector<program::range> complement(const std::vector<program::range>& in) {
  std::vector<program::range> out;
  char32_t next = 0;
  for (const auto& r : in) {
    if (r.lo > next) out.push_back({next, static_cast<char32_t>(r.lo - 1)});
    next = r.hi + 1;
  }
  if (next <= 0x10FFFF) out.push_back({next, 0x10FFFF});
  return out;
}

/// Sorts and merges ranges; with `icase`, adds the other ASCII case of every letter first.
inline std::vector<program::range> normalize(std::vector<program::range> r, bool icase) {
  if (icase) {
    const std::size_t n = r.size();
    for (std::size_t i = 0; i < n; ++i) {
      const auto clip = [&](char32_t lo, char32_t hi, int shift) {
        const char32_t a = r[i].lo > lo ? r[i].lo : lo, b = r[i].hi < hi ? r[i].hi : hi;
        if (a <= b)
          r.push_back({static_cast<char32_t>(a + shift), static_cast<char32_t>(b + shift)});
      };
      clip('a', 'z', -32);
      clip('A', 'Z', 32);
    }
  }
  std::sort(r.begin(), r.end(), [](auto a, auto b) { return a.lo < b.lo; });
  std::vector<program::range> out;
  for (const auto& x : r) {
    if (!out.empty() && x.lo <= out.back().hi + 1) {
      if (x.hi > out.back().hi) out.back().hi = x.hi;
    } else {
      out.push_back(x);
    }
  }
  return out;
}

/// Recursive-descent parser of the pattern; any unsupported or invalid syntax yields null.
class parser {
 public:
  explicit parser(std::string_view p) : p_(p) {}

  node_ptr parse() {
    flags f;
    auto n = alternation(f, 0);
    if (!n || pos_ != p_.size()) return nullptr;
    return n;
  }

 private:
  std::string_view p_;
  std::size_t pos_ = 0;

  bool at_end() const { return pos_ >= p_.size(); }
  char peek() const { return p_[pos_]; }

  bool next_cp(char32_t& cp) {
    if (at_end()) return false;
    const auto d = utf8::decode_at(p_, pos_);
    if (d.length == 0) return false;
    cp = d.cp, pos_ += d.length;
    return true;
  }

  static node_ptr make(node::kind k) {
    auto n = std::make_unique<node>();
    n->type = k;
    return n;
  }

  static node_ptr make_set(std::vector<program::range> r, bool negated, bool icase) {
    auto n = make(node::kind::set);
    n->ranges = normalize(std::move(r), icase);
    n->negated = negated;
    return n;
  }

  static node_ptr make_check(assertion a) {
    auto n = make(node::kind::check);
    n->what = a;
    return n;
  }

  node_ptr alternation(flags& f, std::size_t depth) {
    auto first = concatenation(f, depth);
    if (!first) return nullptr;
    if (at_end() || peek() != '|') return first;
    auto alt = make(node::kind::alternate);
    alt->children.push_back(std::move(first));
    while (!at_end() && peek() == '|') {
      ++pos_;
      auto next = concatenation(f, depth);
      if (!next) return nullptr;
      alt->children.push_back(std::move(next));
    }
    return alt;
  }

  node_ptr concatenation(flags& f, std::size_t depth) {
    auto cat = make(node::kind::concat);
    while (!at_end() && peek() != '|' && peek() != ')') {
      bool flag_group = false;
      auto atom = this->atom(f, depth, flag_group);
      if (!atom) return nullptr;
      if (flag_group) continue;  // `(?i)` changes the flags and matches nothing
      if (!repetitions(atom, depth)) return nullptr;
      cat->children.push_back(std::move(atom));
    }
    return cat;
  }

  /// Parses a decimal count of a `{…}` repetition.
  bool number(std::uint32_t& out) {
    const std::size_t start = pos_;
    std::uint64_t v = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      v = v * 10 + static_cast<std::uint64_t>(peek() - '0');
      if (v > max_program) return false;
      ++pos_;
    }
    out = static_cast<std::uint32_t>(v);
    return pos_ > start;
  }

  /// The quantifiers after an atom; each stacked one (`a**`, `a{2}{3}`) is a level of
  /// nesting too, so the tree stays within `max_nesting` levels.
  bool repetitions(node_ptr& atom, std::size_t depth) {
    while (!at_end()) {
      std::uint32_t min = 0, max = 0;
      const char c = peek();
      if (c == '*') {
        min = 0, max = node::unbounded, ++pos_;
      } else if (c == '+') {
        min = 1, max = node::unbounded, ++pos_;
      } else if (c == '?') {
        min = 0, max = 1, ++pos_;
      } else if (c == '{') {
        ++pos_;
        if (!number(min)) return false;
        max = min;
        if (!at_end() && peek() == ',') {
          ++pos_;
          max = node::unbounded;
          if (!at_end() && peek() != '}' && !number(max)) return false;
        }
        if (at_end() || peek() != '}' || max < min) return false;
        ++pos_;
      } else {
        return true;
      }
      if (!at_end() && peek() == '?') ++pos_;  // lazy: the same set of matches
      if (++depth > max_nesting) return false;
      auto rep = make(node::kind::repeat);
      rep->min = min, rep->max = max;
      rep->children.push_back(std::move(atom));
      atom = std::move(rep);
    }
    return true;
  }

  bool parse_flags(flags& f, bool& scoped) {
    bool negate = false;
    while (!at_end()) {
      const char c = p_[pos_++];
      if (c == ':') return scoped = true, true;
      if (c == ')') return scoped = false, true;
      if (c == '-') {
        if (negate) return false;
        negate = true;
      } else if (c == 'i') {
        f.icase = !negate;
      } else if (c == 'm') {
        f.multiline = !negate;
      } else if (c == 's') {
        f.dotall = !negate;
      } else if (c == 'U') {
        // swaps greediness: no effect on whether there is a match
      } else {
        return false;  // x, R and anything else: not supported
      }
    }
    return false;
  }

  node_ptr group(flags& f, std::size_t depth, bool& flag_group) {
    if (depth + 1 > max_nesting) return nullptr;
    flags inner = f;
    if (!at_end() && peek() == '?') {
      ++pos_;
      if (at_end()) return nullptr;
      if (peek() == ':') {
        ++pos_;
      } else if (peek() == 'P' || peek() == '<') {
        if (peek() == 'P') ++pos_;
        if (at_end() || peek() != '<') return nullptr;
        ++pos_;
        const std::size_t start = pos_;
        while (!at_end() && (is_word(static_cast<unsigned char>(peek())) || peek() == '.' ||
                             peek() == '[' || peek() == ']'))
          ++pos_;
        if (pos_ == start || at_end() || peek() != '>') return nullptr;
        ++pos_;
      } else {
        bool scoped = false;
        if (!parse_flags(inner, scoped)) return nullptr;  // also look-around `(?=`
        if (!scoped) {
          f = inner;
          flag_group = true;
          return make(node::kind::empty);
        }
      }
    }
    auto n = alternation(inner, depth + 1);
    if (!n || at_end() || peek() != ')') return nullptr;
    ++pos_;
    auto wrapped = make(node::kind::concat);  // so `(a*)*` is a repeat of a group
    wrapped->children.push_back(std::move(n));
    return wrapped;
  }

  /// An escape after `\`: a single code point (returned in `cp`) or a class (in `cls`).
  bool escape(char32_t& cp, std::vector<program::range>& cls, bool& is_class, bool& negated,
              std::optional<assertion>* check) {
    is_class = false, negated = false;
    if (at_end()) return false;
    const char c = p_[pos_++];
    switch (c) {
      case 'n':
        cp = '\n';
        return true;
      case 't':
        cp = '\t';
        return true;
      case 'r':
        cp = '\r';
        return true;
      case 'f':
        cp = '\f';
        return true;
      case 'v':
        cp = '\v';
        return true;
      case 'a':
        cp = 0x07;
        return true;
      case 'd':
      case 'w':
      case 's':
      case 'D':
      case 'W':
      case 'S': {
        const char lower = static_cast<char>(c | 0x20);
        add_ascii_class(cls, lower);
        is_class = true, negated = (c != lower);
        return true;
      }
      case 'x':
      case 'u':
      case 'U':
        return hex(c, cp);
      case 'A':
      case 'z':
      case 'b':
      case 'B':
        if (!check) return false;  // not inside a class
        *check = c == 'A'   ? assertion::text_start
                 : c == 'z' ? assertion::text_end
                 : c == 'b' ? assertion::word_boundary
                            : assertion::not_word_boundary;
        return true;
      default:
        break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && u > 0x20 && !is_word(u)) {  // any escaped ASCII punctuation
      cp = u;
      return true;
    }
    return false;  // \p, \1 (back-references), unknown letters
  }

  bool hex(char kind, char32_t& cp) {
    std::size_t digits = kind == 'x' ? 2 : kind == 'u' ? 4 : 8;
    bool braced = false;
    if (!at_end() && peek() == '{') braced = true, ++pos_, digits = 8;
    std::uint32_t v = 0;
    std::size_t n = 0;
    while (!at_end() && n < digits) {
      const char h = peek();
      int d = -1;
      if (h >= '0' && h <= '9')
        d = h - '0';
      else if (h >= 'a' && h <= 'f')
        d = h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        d = h - 'A' + 10;
      if (d < 0) break;
      v = v * 16 + static_cast<std::uint32_t>(d), ++n, ++pos_;
    }
    if (n == 0 || (!braced && n != digits)) return false;
    if (braced) {
      if (at_end() || peek() != '}') return false;
      ++pos_;
    }
    if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
    cp = v;
    return true;
  }

  node_ptr bracket(const flags& f) {
    bool negated = false;
    if (!at_end() && peek() == '^') negated = true, ++pos_;
    std::vector<program::range> r;
    bool first = true;
    for (;;) {
      if (at_end()) return nullptr;
      if (peek() == ']' && !first) {
        ++pos_;
        break;
      }
      first = false;
      if (p_.substr(pos_, 2) == "[:") {
        if (!posix_class(r)) return nullptr;
        continue;
      }
      if (peek() == '[' || p_.substr(pos_, 2) == "&&" || p_.substr(pos_, 2) == "--" ||
          p_.substr(pos_, 2) == "~~")
        return nullptr;  // nested classes and set operations: not supported
      char32_t lo = 0;
      if (!class_atom(lo, r)) return nullptr;
      if (lo == 0xFFFFFFFFu) continue;  // it was a class escape
      if (!at_end() && peek() == '-' && pos_ + 1 < p_.size() && p_[pos_ + 1] != ']') {
        ++pos_;
        char32_t hi = 0;
        if (!class_atom(hi, r) || hi == 0xFFFFFFFFu || hi < lo) return nullptr;
        r.push_back({lo, hi});
      } else {
        r.push_back({lo, lo});
      }
    }
    return make_set(std::move(r), negated, f.icase);
  }

  /// One member of a bracket class: a code point in `cp`, or a class escape merged into
  /// `r` (then `cp` is 0xFFFFFFFF).
  bool class_atom(char32_t& cp, std::vector<program::range>& r) {
    if (peek() != '\\') return next_cp(cp);
    ++pos_;
    std::vector<program::range> cls;
    bool is_class = false, negated = false;
    if (!escape(cp, cls, is_class, negated, nullptr)) return false;
    if (is_class) {
      cls = normalize(std::move(cls), false);
      if (negated) cls = complement(cls);
      r.insert(r.end(), cls.begin(), cls.end());
      cp = 0xFFFFFFFFu;
    }
    return true;
  }

  bool posix_class(std::vector<program::range>& r) {
    const std::size_t close = p_.find(":]", pos_ + 2);
    if (close == std::string_view::npos) return false;
    std::string_view name = p_.substr(pos_ + 2, close - pos_ - 2);
    pos_ = close + 2;
    bool negated = false;
    if (!name.empty() && name[0] == '^') negated = true, name.remove_prefix(1);
    std::vector<program::range> c;
    if (name == "alnum")
      c = {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}};
    else if (name == "alpha")
      c = {{'A', 'Z'}, {'a', 'z'}};
    else if (name == "ascii")
      c = {{0, 0x7F}};
    else if (name == "blank")
      c = {{'\t', '\t'}, {' ', ' '}};
    else if (name == "cntrl")
      c = {{0, 0x1F}, {0x7F, 0x7F}};
    else if (name == "digit")
      c = {{'0', '9'}};
    else if (name == "graph")
      c = {{'!', '~'}};
    else if (name == "lower")
      c = {{'a', 'z'}};
    else if (name == "print")
      c = {{' ', '~'}};
    else if (name == "punct")
      c = {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}};
    else if (name == "space")
      c = {{'\t', '\r'}, {' ', ' '}};
    else if (name == "upper")
      c = {{'A', 'Z'}};
    else if (name == "word")
      c = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
    else if (name == "xdigit")
      c = {{'0', '9'}, {'A', 'F'}, {'a', 'f'}};
    else
      return false;
    if (negated) c = complement(c);
    r.insert(r.end(), c.begin(), c.end());
    return true;
  }

  node_ptr atom(flags& f, std::size_t depth, bool& flag_group) {
    char32_t cp = 0;
    const char c = peek();
    switch (c) {
      case '(':
        ++pos_;
        return group(f, depth, flag_group);
      case '[':
        ++pos_;
        return bracket(f);
      case '*':
      case '+':
      case '?':
      case '{':
        return nullptr;  // nothing to repeat
      case '.': {
        ++pos_;
        if (f.dotall) return make_set({{0, 0x10FFFF}}, false, false);
        return make_set({{'\n', '\n'}}, true, false);
      }
      case '^':
        ++pos_;
        return make_check(f.multiline ? assertion::line_start : assertion::text_start);
      case '$':
        ++pos_;
        return make_check(f.multiline ? assertion::line_end : assertion::text_end);
      case '\\': {
        ++pos_;
        std::vector<program::range> cls;
        bool is_class = false, negated = false;
        std::optional<assertion> check;
        if (!escape(cp, cls, is_class, negated, &check)) return nullptr;
        if (check) return make_check(*check);
        if (is_class) return make_set(std::move(cls), negated, false);
        return make_set({{cp, cp}}, false, f.icase);
      }
      default:
        if (!next_cp(cp)) return nullptr;
        return make_set({{cp, cp}}, false, f.icase);
    }
  }
};

}  // namespace detail
}  // namespace regex
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
