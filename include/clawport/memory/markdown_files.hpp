// SPDX-License-Identifier: MIT
// The Markdown memory of one workspace read from disk (issue 47 items 2 and 7), and the
// bundle manifest's `[memory]` table: one place for `export --with-memory` (ZeroClaw's
// Markdown backend) and `convert --from-openclaw-agent --with-memory` (OpenClaw's workspace).
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../formats/toml_document.hpp"
#include "../fs/policy.hpp"
#include "../fs/read_file.hpp"
#include "entry.hpp"
#include "jsonl.hpp"
#include "markdown.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace memory {

/// The Markdown memory of the workspace `ws` (an anchored root): `MEMORY.md` and the
/// top-level `memory/*.md`, each read through the Fs policy without following a link (a
/// symlink or a file that is not regular is refused, never read), at most `max_bytes` each,
/// mapped by parse_markdown (`now` for `MEMORY.md`'s time), keys made unique; `USER.md` is
/// never read.
template <class Fs>
store_facts read_markdown_files(Fs& fs, const typename Fs::dir& ws, const std::string& now,
                                std::uint64_t max_bytes, const entry_visitor& visit) {
  std::vector<entry> all;
  const auto take = [&](const typename Fs::dir& d, const std::string& name,
                        std::string_view category, std::string_view stem,
                        const std::string& shown) {
    const fs::read_result r = fs::try_read_file_at(fs, d, name, max_bytes);
    if (r.refusal == fs::read_refusal::missing) return;
    if (r.refusal != fs::read_refusal::none)
      throw error(errc::unsupported,
                  "--with-memory reads the Markdown memory file " + shown +
                      " only as a regular file inside the workspace (a symlink is never "
                      "followed); replace it with the file itself, or run without "
                      "--with-memory",
                  shown);
    for (entry& e : parse_markdown(r.bytes, category, stem, now)) all.push_back(std::move(e));
  };
  take(ws, "MEMORY.md", "core", core_stem, "MEMORY.md");
  if (const auto st = fs.stat_at(ws, "memory")) {
    if (st->kind != fs::file_kind::directory)
      throw error(errc::unsupported,
                  "--with-memory reads the workspace's memory/ only as a directory inside it "
                  "(a symlink is never followed); run without --with-memory",
                  "memory");
    const auto dir = fs.open_dir_at(ws, "memory");
    std::vector<std::string> names;
    fs.for_each_entry(dir, [&names](std::string_view n) {
      if (n.size() > 3 && n.substr(n.size() - 3) == ".md") names.emplace_back(n);
    });
    std::sort(names.begin(), names.end());
    for (const std::string& n : names)
      take(dir, n, "daily", std::string_view(n).substr(0, n.size() - 3), "memory/" + n);
  }
  std::size_t renamed = 0;
  for (const entry& e : unique_keys(std::move(all), renamed)) visit(e);
  store_facts facts;
  facts.backend = "markdown";
  return facts;
}

/// The manifest's `[memory]` table (docs/format.md, "Format 2"): counts, never text.
inline toml_doc::value manifest_table(const summary& m) {
  using toml_doc::value;
  auto strings = [](const auto& list) {
    value a = value::make_array();
    for (const auto& s : list) a.items.push_back(value::make_string(std::string(s)));
    return a;
  };
  value t = value::make_table();
  t.set("schema", value::make_string(std::string(jsonl_schema)));
  t.set("backend", value::make_string(m.backend));
  t.set("entries", value::make_integer(static_cast<std::int64_t>(m.entries)));
  t.set("left_home", value::make_integer(static_cast<std::int64_t>(m.skipped_total())));
  t.set("embedding_model", value::make_string(m.embedding_model));
  t.set("excluded", strings(excluded_fields));
  t.set("redacted_categories", strings(m.redacted_categories));
  value categories = value::make_table();
  for (const auto& [name, n] : m.categories)
    categories.set(name, value::make_integer(static_cast<std::int64_t>(n)));
  t.set("categories", std::move(categories));
  return t;
}

}  // namespace memory
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
