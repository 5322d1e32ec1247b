// SPDX-License-Identifier: MIT
// A linear-time regular-expression search for the syntax of Rust's `regex` crate, which is
// what ZeroClaw's skill tests match their output with. Why not std::regex: libstdc++'s
// executor recurses once per character, so `.*x` over 64 KiB of output overflows the stack
// (a crash found by fuzzing `skills test`), and it backtracks exponentially on patterns
// such as `(a|a)*b`. Why not RE2 or PCRE2: both are compiled libraries, and this library
// is header-only. So the pattern is compiled to a small NFA program and run as a Pike VM:
// O(text x program) time, O(program) memory, no recursion while matching, and recursion
// bounded by `max_nesting` while parsing.
//
// Supported (Rust's syntax): literals and escapes (`\n \t \r \f \v \a \xHH \x{H…} \u{H…}`,
// any escaped ASCII punctuation), `.`, classes `[…]` `[^…]` with ranges, `\d \w \s` and
// their negations, `[[:alpha:]]`-style ASCII classes, groups `(…)` `(?:…)` `(?P<n>…)`
// `(?<n>…)`, flags `i m s U` (`(?i)`, `(?i:…)`, `(?-i)`), alternation, `* + ? {n} {n,}
// {n,m}` with their lazy forms, anchors `^ $ \A \z \b \B`. What Rust refuses (look-around,
// back-references) is refused too. Approximations, documented in docs/skills.md: `\d \w \s
// \b` and the `i` flag are ASCII-only (Rust's are Unicode-aware); `\p{…}`, nested classes
// and class set operations, and the `x` and `R` flags are not supported and make the
// pattern "not a regex" (the caller then falls back to a substring test, as upstream does
// for a pattern Rust cannot compile).
// The program and the pattern parser are in regex_syntax.hpp; the compiler and the Pike VM here.
#pragma once

#include "../core/config.hpp"
#include "regex_syntax.hpp"

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

namespace detail {

/// Compiles the tree into `out`; false when the program would exceed `max_program`.
class compiler {
 public:
  explicit compiler(program& out) : out_(out) {}

  bool emit(const node& n) {
    switch (n.type) {
      case node::kind::empty:
        return true;
      case node::kind::set: {
        if (!room(1)) return false;
        program::instruction i;
        i.code = program::op::consume;
        i.x = static_cast<std::uint32_t>(out_.ranges.size());
        i.n = static_cast<std::uint32_t>(n.ranges.size());
        i.negated = n.negated;
        out_.ranges.insert(out_.ranges.end(), n.ranges.begin(), n.ranges.end());
        out_.code.push_back(i);
        return true;
      }
      case node::kind::check: {
        if (!room(1)) return false;
        program::instruction i;
        i.code = program::op::check;
        i.what = n.what;
        out_.code.push_back(i);
        return true;
      }
      case node::kind::concat:
        for (const auto& c : n.children)
          if (!emit(*c)) return false;
        return true;
      case node::kind::alternate:
        return alternate(n, 0);
      case node::kind::repeat:
        return repeat(n);
    }
    return false;
  }

 private:
  program& out_;

  bool room(std::size_t k) const { return out_.code.size() + k <= max_program; }
  std::uint32_t here() const { return static_cast<std::uint32_t>(out_.code.size()); }

  std::uint32_t place(program::op code) {
    program::instruction i;
    i.code = code;
    out_.code.push_back(i);
    return here() - 1;
  }

  // a|b|c: split(L1, L2) L1: a jump(end) L2: split(…) …
  bool alternate(const node& n, std::size_t from) {
    if (from + 1 == n.children.size()) return emit(*n.children[from]);
    if (!room(2)) return false;
    const std::uint32_t split = place(program::op::split);
    out_.code[split].x = here();
    if (!emit(*n.children[from])) return false;
    if (!room(1)) return false;
    const std::uint32_t jump = place(program::op::jump);
    out_.code[split].y = here();
    if (!alternate(n, from + 1)) return false;
    out_.code[jump].x = here();
    return true;
  }

  /// Whether `n` compiles to no instruction at all (an empty group, repeated or not).
  static bool emits_nothing(const node& n) {
    switch (n.type) {
      case node::kind::empty:
        return true;
      case node::kind::concat:
        return std::all_of(n.children.begin(), n.children.end(),
                           [](const node_ptr& c) { return emits_nothing(*c); });
      case node::kind::repeat:
        return emits_nothing(*n.children.front());
      default:
        return false;
    }
  }

  // Each copy of the body is emitted once: `a*` once, `a{3}` three times (bounded by
  // `max_program`), so stacked quantifiers cost linear work, not one trial per level.
  bool repeat(const node& n) {
    const node& body = *n.children.front();
    if (emits_nothing(body)) return true;  // an empty body: repeating it changes nothing
    for (std::uint32_t k = 0; k < n.min; ++k)
      if (!emit(body)) return false;
    if (n.max == node::unbounded) {  // L: split(body, end) body jump(L)
      if (!room(2)) return false;
      const std::uint32_t split = place(program::op::split);
      out_.code[split].x = here();
      if (!emit(body)) return false;
      if (!room(1)) return false;
      const std::uint32_t jump = place(program::op::jump);
      out_.code[jump].x = split;
      out_.code[split].y = here();
      return true;
    }
    std::vector<std::uint32_t> splits;  // each optional copy may skip to the end
    for (std::uint32_t k = n.min; k < n.max; ++k) {
      if (!room(1)) return false;
      splits.push_back(place(program::op::split));
      out_.code[splits.back()].x = here();
      if (!emit(body)) return false;
    }
    for (const auto s : splits) out_.code[s].y = here();
    return true;
  }
};

/// Whether `cp` is in the instruction's set.
inline bool consumes(const program& p, const program::instruction& i, char32_t cp) noexcept {
  bool in = false;
  for (std::uint32_t k = 0; k < i.n; ++k) {
    const auto& r = p.ranges[i.x + k];
    if (cp < r.lo) break;
    if (cp <= r.hi) {
      in = true;
      break;
    }
  }
  return in != i.negated;
}

constexpr char32_t no_char = 0xFFFFFFFFu;

inline bool holds(assertion a, char32_t before, char32_t after) noexcept {
  switch (a) {
    case assertion::text_start:
      return before == no_char;
    case assertion::text_end:
      return after == no_char;
    case assertion::line_start:
      return before == no_char || before == '\n';
    case assertion::line_end:
      return after == no_char || after == '\n';
    case assertion::word_boundary:
    case assertion::not_word_boundary: {
      const bool w1 = before != no_char && is_word(before), w2 = after != no_char && is_word(after);
      return (w1 != w2) == (a == assertion::word_boundary);
    }
  }
  return false;
}

/// A set of program counters, constant-time insert and clear (Briggs & Torczon).
class pc_set {
 public:
  explicit pc_set(std::size_t n) : dense_(n), sparse_(n) {}
  bool insert(std::uint32_t pc) {
    if (contains(pc)) return false;
    sparse_[pc] = static_cast<std::uint32_t>(size_);
    dense_[size_++] = pc;
    return true;
  }
  bool contains(std::uint32_t pc) const { return sparse_[pc] < size_ && dense_[sparse_[pc]] == pc; }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  std::uint32_t operator[](std::size_t i) const { return dense_[i]; }

 private:
  std::vector<std::uint32_t> dense_, sparse_;
  std::size_t size_ = 0;
};

}  // namespace detail

/// Compiles `pattern`; nullopt when it is not a regex this engine (or Rust) accepts.
inline std::optional<program> compile(std::string_view pattern) {
  detail::parser parser(pattern);
  const auto tree = parser.parse();
  if (!tree) return std::nullopt;
  program p;
  detail::compiler compiler(p);
  if (!compiler.emit(*tree) || p.code.size() + 1 > max_program) return std::nullopt;
  p.code.push_back({});  // match
  return p;
}

/// True when `p` matches somewhere in `text` (Rust's `Regex::is_match`). Bytes that are not
/// UTF-8 read as U+FFFD, one per byte.
inline bool search(const program& p, std::string_view text) {
  using detail::no_char;
  const std::size_t size = p.code.size();
  detail::pc_set current(size), next(size);
  std::vector<std::uint32_t> stack;
  const auto decode = [&](std::size_t pos, std::size_t& len) -> char32_t {
    if (pos >= text.size()) return len = 0, no_char;
    const auto d = utf8::decode_at(text, pos);
    if (d.length == 0) return len = 1, 0xFFFD;
    return len = d.length, d.cp;
  };
  // Follows jumps, splits and assertions from `pc` at a position between `before` and
  // `after`, adding every reached state to `set`; true when the match state is reached.
  const auto add = [&](detail::pc_set& set, std::uint32_t pc, char32_t before, char32_t after) {
    stack.push_back(pc);
    while (!stack.empty()) {
      const std::uint32_t at = stack.back();
      stack.pop_back();
      if (!set.insert(at)) continue;
      const auto& i = p.code[at];
      switch (i.code) {
        case program::op::match:
          stack.clear();
          return true;
        case program::op::jump:
          stack.push_back(i.x);
          break;
        case program::op::split:
          stack.push_back(i.y), stack.push_back(i.x);
          break;
        case program::op::check:
          if (detail::holds(i.what, before, after)) stack.push_back(at + 1);
          break;
        case program::op::consume:
          break;
      }
    }
    return false;
  };
  char32_t before = no_char;
  std::size_t pos = 0, len = 0;
  char32_t here = decode(0, len);
  for (;;) {
    if (add(current, 0, before, here)) return true;  // a match may start anywhere
    if (here == no_char) return false;
    std::size_t next_len = 0;
    const char32_t after = decode(pos + len, next_len);
    for (std::size_t k = 0; k < current.size(); ++k) {
      const auto& i = p.code[current[k]];
      if (i.code == program::op::consume && detail::consumes(p, i, here) &&
          add(next, current[k] + 1, here, after))
        return true;
    }
    std::swap(current, next);
    next.clear();
    before = here, here = after, pos += len, len = next_len;
  }
}

/// Compiles and searches in one step; nullopt when `pattern` is not a supported regex.
inline std::optional<bool> matches(std::string_view pattern, std::string_view text) {
  const auto p = compile(pattern);
  if (!p) return std::nullopt;
  return search(*p, text);
}

}  // namespace regex
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
