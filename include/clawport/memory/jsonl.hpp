// SPDX-License-Identifier: MIT
// `memory/entries.jsonl` (bundle format 2): one JSON object per line, keys sorted, rows in
// (created, key) order; what is left home (redacted categories, content shaped like a
// credential, text that is not UTF-8, lines past the limit) is counted, never written.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/utf8.hpp"
#include "../digest/sha256.hpp"
#include "../formats/json.hpp"
#include "entry.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace memory {

/// The one line a bundle may hold for one memory, at most (content included).
inline constexpr std::size_t max_line_bytes = 256 * 1024;
/// The memories one bundle may hold, at most.
inline constexpr std::size_t max_entries = 1000000;
/// The wire name of the carried form, in the manifest's `[memory] schema`.
inline constexpr std::string_view jsonl_schema = "clawport-memory-jsonl/1";
/// The row fields that never travel (the manifest's `[memory] excluded`).
inline constexpr std::string_view excluded_fields[] = {"agent_id",   "embedding",     "id",
                                                       "session_id", "superseded_by", "tenant_id"};
/// Categories of a session's rows, which never travel (issue 47: "session ids never
/// travel"; zeroclaw-memory.md §6 drops `conversation` on export): the runtime writes a
/// conversation's turns under it with their session id, and a transcript is not a memory.
inline constexpr std::string_view session_categories[] = {"conversation"};
/// Categories that never travel whatever the install says: ZeroClaw's credential
/// categories of `[memory.policy] redact_categories`.
inline constexpr std::string_view always_redacted[] = {"api_key", "private_key", "secret"};

/// Whether `text` looks like a credential: a provider key, a token, a private key block or
/// ZeroClaw's own ciphertext. Best effort (a pattern list, like ZeroClaw's redact.rs):
/// the report says so.
inline bool looks_like_credential(std::string_view text) {
  auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  };
  // `prefix` at the start of a word, followed by at least `min_len` token characters.
  auto token_after = [&text, &word](std::string_view prefix, std::size_t min_len) {
    for (std::size_t at = text.find(prefix); at != std::string_view::npos;
         at = text.find(prefix, at + 1)) {
      if (at > 0 && word(text[at - 1])) continue;
      std::size_t n = 0;
      while (at + prefix.size() + n < text.size() && word(text[at + prefix.size() + n])) ++n;
      if (n >= min_len) return true;
    }
    return false;
  };
  static constexpr std::string_view prefixes[] = {
      "sk-",    "sk_live_", "rk_live_", "ghp_",  "gho_", "ghu_", "ghs_", "ghr_",  "github_pat_",
      "glpat-", "xoxb-",    "xoxp-",    "xoxa-", "AKIA", "AIza", "eyJ",  "enc2:", "Bearer "};
  for (const std::string_view p : prefixes)
    if (token_after(p, 16)) return true;
  return text.find("-----BEGIN ") != std::string_view::npos &&
         text.find("PRIVATE KEY-----") != std::string_view::npos;
}

/// The categories that never travel: the install's list and `always_redacted`, sorted.
inline std::vector<std::string> redacted_categories(const std::vector<std::string>& install) {
  std::set<std::string> all(install.begin(), install.end());
  for (const std::string_view c : always_redacted) all.emplace(c);
  return {all.begin(), all.end()};
}

/// The line of `e` (without its newline), keys sorted. A template (J is always
/// nlohmann::json) so that a TU that includes this and writes no memory instantiates none
/// of nlohmann::json (issue 48); the same for the writer, the check and the read below.
template <class J = nlohmann::json>
std::string entry_line(const entry& e) {
  J j;
  j["key"] = e.key;
  j["content"] = e.content;
  j["category"] = e.category;
  j["kind"] = e.kind ? J(*e.kind) : J();
  j["namespace"] = e.ns;
  j["importance"] = e.importance;
  j["pinned"] = e.pinned;
  j["created"] = e.created;
  j["updated"] = e.updated;
  return json::dump(j, -1);
}

/// Builds `memory/entries.jsonl` one row at a time, counting what stays home. Each accepted
/// line (with its newline) goes to `out`, so the file is never held whole (100,000 memories
/// at flat memory use); without `out` it is kept in `text()`. `max_bytes` (0: none) bounds
/// the file: past it, errc::limit_exceeded, as `verify` would refuse it.
template <class J = nlohmann::json>
class basic_jsonl_writer {
 public:
  using line_sink = std::function<void(const std::string& line)>;
  explicit basic_jsonl_writer(std::vector<std::string> redacted, line_sink out = {},
                              std::uint64_t max_bytes = 0)
      : out_(std::move(out)), max_bytes_(max_bytes) {
    sum_.redacted_categories = std::move(redacted);
  }

  void add(const entry& e) {
    if (std::find(std::begin(session_categories), std::end(session_categories), e.category) !=
        std::end(session_categories))
      return skip(skip_reason::conversation);
    if (std::binary_search(sum_.redacted_categories.begin(), sum_.redacted_categories.end(),
                           e.category))
      return skip(skip_reason::redacted_category);
    if (!utf8::valid(e.key) || !utf8::valid(e.content) || !utf8::valid(e.category))
      return skip(skip_reason::not_utf8);
    if (looks_like_credential(e.key) || looks_like_credential(e.content))
      return skip(skip_reason::credential_shape);
    std::string line = entry_line<J>(e);
    if (line.size() + 1 > max_line_bytes) return skip(skip_reason::too_large);
    if (sum_.entries == max_entries)
      throw error(errc::limit_exceeded,
                  "the agent has more than " + std::to_string(max_entries) +
                      " memories; a bundle carries at most that many",
                  "memory/entries.jsonl");
    line += '\n';
    bytes_ += line.size();
    if (max_bytes_ != 0 && bytes_ > max_bytes_)
      throw error(errc::limit_exceeded,
                  "memory/entries.jsonl would be more than " + std::to_string(max_bytes_) +
                      " bytes, a bundle's limit, so `clawport verify` and `import` would refuse "
                      "it (limit_exceeded); nothing was written",
                  "memory/entries.jsonl");
    if (out_) {
      out_(line);
    } else {
      text_ += line;
    }
    ++sum_.entries;
    ++sum_.categories[e.category];
  }

  const std::string& text() const noexcept { return text_; }
  std::uint64_t bytes() const noexcept { return bytes_; }
  summary& facts() noexcept { return sum_; }

 private:
  void skip(skip_reason why) { ++sum_.skipped[why]; }
  line_sink out_;
  std::uint64_t max_bytes_ = 0;
  std::uint64_t bytes_ = 0;
  std::string text_;
  summary sum_;
};
using jsonl_writer = basic_jsonl_writer<>;

namespace detail {
/// What is wrong with one line's object, or empty: exactly the nine fields, each typed.
template <class J>
std::string entry_problem(const J& j) {
  if (!j.is_object()) return "not a JSON object";
  static constexpr std::string_view strings[] = {"category", "content",   "created",
                                                 "key",      "namespace", "updated"};
  for (const std::string_view f : strings) {
    const auto it = j.find(std::string(f));
    if (it == j.end() || !it->is_string())
      return "`" + std::string(f) + "` is missing or not a string";
  }
  if (j.at("key").template get_ref<const std::string&>().empty()) return "`key` is empty";
  if (!j.contains("importance") || !j.at("importance").is_number())
    return "`importance` is missing or not a number";
  if (!j.contains("pinned") || !j.at("pinned").is_boolean())
    return "`pinned` is missing or not a boolean";
  if (!j.contains("kind") || !(j.at("kind").is_null() || j.at("kind").is_string()))
    return "`kind` is missing or neither a string nor null";
  if (j.size() != 9) return "has fields beyond the nine of " + std::string(jsonl_schema);
  return {};
}
}  // namespace detail

/// Splits `memory/entries.jsonl` into lines as its bytes arrive, holding at most one line
/// (`max_line_bytes`): a longer line is not kept, only reported (`too_long`), so a file of
/// any size is read in bounded memory (100,000 memories at flat memory use, issue 47).
/// `feed` gives `on_line(number, text, too_long)` each line that a '\n' ends (without it);
/// `finish` gives the last line when the file does not end with one, and says so.
class line_splitter {
 public:
  template <class OnLine>
  void feed(std::string_view bytes, OnLine&& on_line) {
    while (!bytes.empty()) {
      const std::size_t nl = bytes.find('\n');
      const std::string_view part = bytes.substr(0, nl);
      if (!too_long_) {
        if (partial_.size() + part.size() + 1 > max_line_bytes) {
          too_long_ = true;
          partial_.clear();
          partial_.shrink_to_fit();
        } else {
          partial_.append(part.data(), part.size());
        }
      }
      if (nl == std::string_view::npos) return;
      emit(on_line);
      bytes.remove_prefix(nl + 1);
    }
  }
  /// True when the file ended without its last line's '\n' (that line given first).
  template <class OnLine>
  bool finish(OnLine&& on_line) {
    if (partial_.empty() && !too_long_) return false;
    emit(on_line);
    return true;
  }

 private:
  template <class OnLine>
  void emit(OnLine& on_line) {
    ++line_;
    on_line(line_, std::string_view(partial_), too_long_);
    partial_.clear();
    too_long_ = false;
  }
  std::string partial_;
  bool too_long_ = false;
  std::size_t line_ = 0;
};

/// Checks `memory/entries.jsonl` as its bytes arrive (`feed`, then `finish` once): UTF-8
/// JSON objects, one per line, each ending in '\n', of the nine fields, no line past
/// `max_line_bytes`, at most `max_entries` lines, no key twice. What it holds is one line
/// and, per accepted line, 24 bytes (its key's SHA-256, cut to 128 bits, with the line
/// number and category): never the file. Never throws on bad input.
template <class J = nlohmann::json>
class basic_jsonl_checker {
 public:
  void feed(std::string_view bytes) {
    if (!bytes.empty()) {
      fed_ = true;
      last_ = bytes.back();
    }
    if (stopped_) return;
    split_.feed(bytes, [this](std::size_t n, std::string_view one, bool too_long) {
      line(n, one, too_long);
    });
  }

  jsonl_check finish() {
    const bool unended = fed_ && last_ != '\n';
    if (!stopped_)
      split_.finish(
          [this](std::size_t n, std::string_view one, bool too_long) { line(n, one, too_long); });
    duplicates();
    if (unended) {
      out_.problems.insert(out_.problems.begin(), {0, "does not end with a newline"});
      if (out_.problems.size() > max_problems) out_.problems.pop_back();
    }
    return std::move(out_);
  }

 private:
  struct seen {
    std::array<unsigned char, 16> key;  ///< SHA-256 of the key, its first 128 bits
    std::uint32_t line;
    std::uint32_t category;  ///< index into category_names_
  };

  void problem(std::size_t line, std::string what) {
    if (out_.problems.size() < max_problems) out_.problems.emplace_back(line, std::move(what));
  }

  void line(std::size_t n, std::string_view one, bool too_long) {
    if (stopped_) return;
    if (n > max_entries) {
      problem(n, "more than " + std::to_string(max_entries) + " memories");
      stopped_ = true;
      return;
    }
    if (too_long) return problem(n, "longer than " + std::to_string(max_line_bytes) + " bytes");
    if (!utf8::valid(one)) return problem(n, "not UTF-8");
    const J j = J::parse(one.begin(), one.end(), nullptr, false);
    if (j.is_discarded()) return problem(n, "not JSON");
    if (std::string why = detail::entry_problem(j); !why.empty()) return problem(n, why);
    const std::string& category = j.at("category").template get_ref<const std::string&>();
    const auto index = category_index_.emplace(category, category_names_.size());
    if (index.second) category_names_.push_back(category);
    hash_.update(j.at("key").template get_ref<const std::string&>());
    const auto sum = hash_.finish();
    seen s{};
    std::copy(sum.begin(), sum.begin() + 16, s.key.begin());
    s.line = static_cast<std::uint32_t>(n);
    s.category = index.first->second;
    keys_.push_back(s);
    ++out_.entries;
    ++out_.categories[category];
  }

  /// The lines whose key an earlier line has: each a problem in line order among the others
  /// (the first max_problems kept), its memory no longer counted.
  void duplicates() {
    std::sort(keys_.begin(), keys_.end(), [](const seen& a, const seen& b) {
      return a.key != b.key ? a.key < b.key : a.line < b.line;
    });
    std::vector<std::pair<std::size_t, std::string>> dups;
    for (std::size_t i = 1; i < keys_.size(); ++i) {
      if (keys_[i].key != keys_[i - 1].key) continue;
      dups.emplace_back(keys_[i].line, "a key an earlier line has (keys are unique per agent)");
      --out_.entries;
      const std::string& c = category_names_[keys_[i].category];
      if (--out_.categories[c] == 0) out_.categories.erase(c);
    }
    keys_.clear();
    keys_.shrink_to_fit();
    if (dups.empty()) return;
    std::sort(dups.begin(), dups.end());
    std::vector<std::pair<std::size_t, std::string>> all;
    std::merge(std::make_move_iterator(out_.problems.begin()),
               std::make_move_iterator(out_.problems.end()), std::make_move_iterator(dups.begin()),
               std::make_move_iterator(dups.end()), std::back_inserter(all),
               [](const auto& a, const auto& b) { return a.first < b.first; });
    if (all.size() > max_problems) all.resize(max_problems);
    out_.problems = std::move(all);
  }

  line_splitter split_;
  jsonl_check out_;
  std::vector<seen> keys_;
  std::vector<std::string> category_names_;
  std::map<std::string, std::uint32_t> category_index_;
  digest::sha256 hash_;
  bool stopped_ = false;
  bool fed_ = false;
  char last_ = '\0';  ///< the last byte fed
};
/// The checker on the JSON type the library uses (a TU that never checks generates none of it).
using jsonl_checker = basic_jsonl_checker<>;

/// `jsonl_checker` over the whole text at once. Pure; never throws on bad input.
template <class J = nlohmann::json>
jsonl_check check_jsonl(std::string_view text) {
  basic_jsonl_checker<J> c;
  c.feed(text);
  return c.finish();
}

/// Reads `memory/entries.jsonl` into entries as its bytes arrive (`feed`, then `finish`
/// once), in file order, one line held at a time: what an import merges, from a file
/// `jsonl_checker` accepted. A line that is not one of the nine fields is
/// errc::bundle_invalid (the check was skipped, or the file changed since).
template <class J = nlohmann::json>
class basic_jsonl_reader {
 public:
  explicit basic_jsonl_reader(const entry_visitor& visit) : visit_(visit) {}
  void feed(std::string_view bytes) {
    split_.feed(bytes, [this](std::size_t n, std::string_view one, bool too_long) {
      line(n, one, too_long);
    });
  }
  void finish() {
    split_.finish(
        [this](std::size_t n, std::string_view one, bool too_long) { line(n, one, too_long); });
  }

 private:
  void line(std::size_t n, std::string_view one, bool too_long) {
    const J j =
        too_long ? J(J::value_t::discarded) : J::parse(one.begin(), one.end(), nullptr, false);
    if (j.is_discarded() || !detail::entry_problem(j).empty())
      throw error(errc::bundle_invalid,
                  "memory/entries.jsonl line " + std::to_string(n) +
                      " is not a memory; run `clawport verify` on the bundle",
                  "memory/entries.jsonl");
    entry e;
    e.key = j.at("key").template get<std::string>();
    e.content = j.at("content").template get<std::string>();
    e.category = j.at("category").template get<std::string>();
    if (j.at("kind").is_string()) e.kind = j.at("kind").template get<std::string>();
    e.ns = j.at("namespace").template get<std::string>();
    e.importance = j.at("importance").template get<double>();
    e.pinned = j.at("pinned").template get<bool>();
    e.created = j.at("created").template get<std::string>();
    e.updated = j.at("updated").template get<std::string>();
    visit_(e);
  }
  const entry_visitor& visit_;
  line_splitter split_;
};
/// The reader on the JSON type the library uses (generated only where an import reads).
using jsonl_reader = basic_jsonl_reader<>;

/// `jsonl_reader` over the whole text at once.
template <class J = nlohmann::json>
void read_jsonl(std::string_view text, const entry_visitor& visit) {
  basic_jsonl_reader<J> r(visit);
  r.feed(text);
  r.finish();
}

}  // namespace memory
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
