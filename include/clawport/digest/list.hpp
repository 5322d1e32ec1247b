// SPDX-License-Identifier: MIT
// The digest list of a bundle (`zeroclaw-agent.sha256`): the text `sha256sum` writes and
// `sha256sum -c` reads. Pure: rendering and parsing take and return text.
#pragma once

#include "../core/error.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace digest {

/// One line of a digest list: a bundle-relative path and its SHA-256 as 64 hex digits.
struct list_entry {
  std::string path;
  std::string hex;

  friend bool operator==(const list_entry& a, const list_entry& b) {
    return a.path == b.path && a.hex == b.hex;
  }
};

namespace detail {

inline bool needs_escape(std::string_view name) {
  return name.find_first_of("\\\n\r") != std::string_view::npos;
}

/// The characters a name escapes and the letter each becomes after a backslash (coreutils 9): one
/// table for render_list and parse_line.
inline constexpr std::pair<char, char> name_escapes[] = {{'\\', '\\'}, {'\n', 'n'}, {'\r', 'r'}};

/// The escape letter of `c`, or 0 where `c` is written as it is.
inline char escape_letter(char c) noexcept {
  for (const auto& e : name_escapes)
    if (e.first == c) return e.second;
  return 0;
}

/// The character escape letter `l` stands for, or 0 where `l` is no escape.
inline char unescaped(char l) noexcept {
  for (const auto& e : name_escapes)
    if (e.second == l) return e.first;
  return 0;
}

inline bool lower_hex(std::string_view s) {
  // No early exit: a loop the compiler vectorises (a digest list checks one per line).
  bool ok = true;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    ok &= static_cast<unsigned char>(u - '0') < 10 || static_cast<unsigned char>(u - 'a') < 6;
  }
  return ok;
}

}  // namespace detail

/// Appends the line of `e` to `out` as render_list writes it (no check of the entry).
inline void append_line(std::string& out, const list_entry& e) {
  const bool escaped = detail::needs_escape(e.path);
  if (escaped) out += '\\';
  out += e.hex;
  out += "  ";
  for (char c : e.path) {
    const char letter = escaped ? detail::escape_letter(c) : 0;
    if (letter != 0) out += '\\';
    out += letter != 0 ? letter : c;
  }
  out += '\n';
}

/// Renders `entries` as `sha256sum` does (`<hex>␠␠<path>\n`), sorted bytewise by path.
/// A path holding a backslash, newline or carriage return is written the way GNU
/// coreutils 9 writes it: the line starts with `\` and those characters become `\\`, `\n`
/// and `\r`. Refuses (`invalid_argument`) a duplicate path or a malformed digest.
inline std::string render_list(std::vector<list_entry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const list_entry& a, const list_entry& b) { return a.path < b.path; });
  std::string out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const list_entry& e = entries[i];
    if (i > 0 && entries[i - 1].path == e.path) {
      throw error(errc::invalid_argument, "the digest list names " + e.path + " twice", e.path);
    }
    if (e.hex.size() != 64 || !detail::lower_hex(e.hex) || e.path.empty()) {
      throw error(errc::invalid_argument, "malformed digest for " + e.path, e.path);
    }
    append_line(out, e);
  }
  return out;
}

/// The error for line `line_no` of the digest list `source` that is malformed (`why`).
inline error list_line_error(const std::string& source, std::size_t line_no,
                             const std::string& why) {
  return error(errc::bundle_invalid,
               source + " line " + std::to_string(line_no) + ": " + why +
                   " (expected `<64 hex digits>  <path>` as sha256sum writes it)",
               source);
}

/// One line of a digest list, without its `\n`: the entry, or the error for line `line_no`.
inline list_entry parse_line(std::string_view line, std::size_t line_no,
                             const std::string& source) {
  const auto bad = [&](const std::string& why) { return list_line_error(source, line_no, why); };
  bool escaped = false;
  if (!line.empty() && line.front() == '\\') {
    escaped = true;
    line.remove_prefix(1);
  }
  if (line.size() < 67) throw bad("the line is too short");
  const std::string_view hex = line.substr(0, 64);
  if (!detail::lower_hex(hex)) throw bad("the digest is not 64 lower-case hex digits");
  if (line[64] != ' ' || (line[65] != ' ' && line[65] != '*')) {
    throw bad("the digest is not followed by two spaces");
  }
  const std::string_view raw = line.substr(66);
  if (!escaped) return list_entry{std::string(raw), std::string(hex)};
  std::string path;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c != '\\') {
      path += c;
      continue;
    }
    if (i + 1 == raw.size()) throw bad("the name ends in a lone backslash");
    const char n = raw[++i];
    const char plain = detail::unescaped(n);
    if (plain == 0) throw bad(std::string("unknown escape \\") + n + " in the name");
    path += plain;
  }
  return list_entry{std::move(path), std::string(hex)};
}

/// A digest list read in pieces (as a file is read), one line at a time: `feed` passes
/// each complete line's entry to `f` (the rules of parse_line), `finish` refuses a last
/// line without its newline. Holds at most one line, so a list of any length is read in
/// constant memory.
class line_reader {
 public:
  explicit line_reader(std::string source) : source_(std::move(source)) {}

  template <class F>
  void feed(std::string_view bytes, F&& f) {
    for (;;) {
      const std::size_t end = bytes.find('\n');
      if (end == std::string_view::npos) {
        carry_.append(bytes.data(), bytes.size());
        return;
      }
      ++line_no_;
      if (carry_.empty()) {
        f(parse_line(bytes.substr(0, end), line_no_, source_));
      } else {
        carry_.append(bytes.data(), end);
        f(parse_line(carry_, line_no_, source_));
        carry_.clear();
      }
      bytes.remove_prefix(end + 1);
    }
  }
  void finish() const {
    if (!carry_.empty())
      throw list_line_error(source_, line_no_ + 1, "the last line does not end with a newline");
  }
  std::size_t lines() const noexcept { return line_no_; }
  const std::string& source() const noexcept { return source_; }

 private:
  std::string source_;
  std::string carry_;
  std::size_t line_no_ = 0;
};

/// The error for a path a digest list `source` names twice.
inline error listed_twice(const std::string& source, const std::string& path) {
  return error(errc::bundle_invalid, source + " lists " + path + " twice", path);
}

/// Parses a digest list as written by `render_list` or `sha256sum` (text `␠␠` or binary
/// `␠*` separator, lower-case digits, escaped names). Every line must end in `\n`.
/// Refuses (`bundle_invalid`, subject `source`) a malformed line, naming its number, and a
/// path listed twice. Entries come back in file order.
inline std::vector<list_entry> parse_list(std::string_view text, const std::string& source) {
  std::vector<list_entry> out;
  line_reader lines(source);
  lines.feed(text, [&](list_entry&& e) { out.push_back(std::move(e)); });
  lines.finish();
  std::vector<const list_entry*> sorted;
  sorted.reserve(out.size());
  for (const list_entry& e : out) sorted.push_back(&e);
  const auto by_path = [](const list_entry* a, const list_entry* b) { return a->path < b->path; };
  // clawport writes the list sorted: checked in one pass, sorted only when it is not.
  if (!std::is_sorted(sorted.begin(), sorted.end(), by_path))
    std::sort(sorted.begin(), sorted.end(), by_path);
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i - 1]->path == sorted[i]->path) throw listed_twice(source, sorted[i]->path);
  }
  return out;
}

}  // namespace digest
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
