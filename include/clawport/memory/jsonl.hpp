// SPDX-License-Identifier: MIT
// `memory/entries.jsonl` (bundle format 2): one JSON object per line, keys sorted, rows in
// (created, key) order; what is left home (redacted categories, content shaped like a
// credential, text that is not UTF-8, lines past the limit) is counted, never written.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../core/utf8.hpp"
#include "../formats/json.hpp"
#include "entry.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
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

/// What `check_jsonl` found in a carried `memory/entries.jsonl`.
struct jsonl_check {
  std::size_t entries = 0;
  std::map<std::string, std::size_t> categories;
  /// {line number (1-based; 0: the whole file), what is wrong}; at most `max_problems`.
  std::vector<std::pair<std::size_t, std::string>> problems;
};

/// The problems `check_jsonl` reports at most (the first ones, in line order).
inline constexpr std::size_t max_problems = 20;

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

/// Checks `text` as `memory/entries.jsonl` is written: UTF-8 JSON objects, one per line, each
/// ending in '\n', of the nine fields, no line past `max_line_bytes`, at most `max_entries`
/// lines, no key twice. Pure; never throws on bad input.
template <class J = nlohmann::json>
jsonl_check check_jsonl(std::string_view text) {
  jsonl_check out;
  std::set<std::string> keys;
  auto problem = [&out](std::size_t line, std::string what) {
    if (out.problems.size() < max_problems) out.problems.emplace_back(line, std::move(what));
  };
  if (!text.empty() && text.back() != '\n') problem(0, "does not end with a newline");
  std::size_t line = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view one = text.substr(at, end - at);
    at = end + 1;
    if (++line > max_entries) {
      problem(line, "more than " + std::to_string(max_entries) + " memories");
      break;
    }
    if (one.size() + 1 > max_line_bytes) {
      problem(line, "longer than " + std::to_string(max_line_bytes) + " bytes");
      continue;
    }
    if (!utf8::valid(one)) {
      problem(line, "not UTF-8");
      continue;
    }
    const J j = J::parse(one.begin(), one.end(), nullptr, false);
    if (j.is_discarded()) {
      problem(line, "not JSON");
      continue;
    }
    if (std::string why = detail::entry_problem(j); !why.empty()) {
      problem(line, why);
      continue;
    }
    if (!keys.insert(j.at("key").template get<std::string>()).second) {
      problem(line, "a key an earlier line has (keys are unique per agent)");
      continue;
    }
    ++out.entries;
    ++out.categories[j.at("category").template get<std::string>()];
  }
  return out;
}

/// Gives `visit` the entry of each line of `text`, a `memory/entries.jsonl` that
/// `check_jsonl` accepted (what an import merges), in file order, one line parsed at a time.
/// A line that is not one of the nine fields is errc::bundle_invalid (the check was skipped).
template <class J = nlohmann::json>
void read_jsonl(std::string_view text, const entry_visitor& visit) {
  std::size_t line = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view one = text.substr(at, end - at);
    at = end + 1;
    ++line;
    const J j = J::parse(one.begin(), one.end(), nullptr, false);
    if (j.is_discarded() || !detail::entry_problem(j).empty())
      throw error(errc::bundle_invalid,
                  "memory/entries.jsonl line " + std::to_string(line) +
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
    visit(e);
  }
}

}  // namespace memory
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
