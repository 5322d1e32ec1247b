// SPDX-License-Identifier: MIT
// libFuzzer target for memory/entries.jsonl as verify reads it (bundle format 2, issue 47).
// Properties: memory::check_jsonl never throws; it reports at most max_problems problems and
// gives what memory::jsonl_checker gives fed the same bytes in chunks;
// counts only lines it accepted; a file it accepts whole, read into entries and written
// again by the exporter's writer (entry_line), is accepted again with the same counts: what
// verify accepts, export can write.
#include <clawport/memory.hpp>

#include "common.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace mem = clawport::memory;
  using clawport_fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const mem::jsonl_check r = mem::check_jsonl(text);
  check(r.problems.size() <= mem::max_problems, "at most max_problems problems");
  std::size_t counted = 0;
  for (const auto& c : r.categories) counted += c.second;
  check(counted == r.entries, "the categories count the accepted lines");
  // Checked as verify reads it, in chunks (memory::jsonl_checker): the same answer.
  mem::jsonl_checker streamed;
  const std::size_t cut = size % 13 + 1;
  for (std::size_t at = 0; at < text.size(); at += cut) streamed.feed(text.substr(at, cut));
  const mem::jsonl_check s = streamed.finish();
  check(s.entries == r.entries && s.categories == r.categories && s.problems == r.problems,
        "the check in chunks is the check of the whole text");
  if (!r.problems.empty()) return 0;
  // Accepted whole: each line read into an entry and written again is the same line.
  std::string again;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    const auto j = nlohmann::json::parse(text.substr(at, end - at));
    mem::entry e;
    e.key = j.at("key").get<std::string>();
    e.content = j.at("content").get<std::string>();
    e.category = j.at("category").get<std::string>();
    if (!j.at("kind").is_null()) e.kind = j.at("kind").get<std::string>();
    e.ns = j.at("namespace").get<std::string>();
    e.importance = j.at("importance").get<double>();
    e.pinned = j.at("pinned").get<bool>();
    e.created = j.at("created").get<std::string>();
    e.updated = j.at("updated").get<std::string>();
    again += mem::entry_line(e) + "\n";
    at = end + 1;
  }
  const mem::jsonl_check back = mem::check_jsonl(again);
  check(back.problems.empty() && back.entries == r.entries && back.categories == r.categories,
        "what verify accepts, written again by the exporter's writer, is accepted alike");
  return 0;
}
