// SPDX-License-Identifier: MIT
// libFuzzer target for bundle verification: the input describes a bundle tree, built on
// fs::memory under /b, then verified. Records, each starting on a line of its own:
//   `== f <path>` a regular file (its content: the bytes up to the next record line),
//   `== d <path>` a directory, `== l <path>` a symlink (its target: the content),
//   `== p <path>` a FIFO, `== sums` a digest list of every file so far (as export writes it).
// Properties: verify never throws for a bad bundle, every finding has a code and a path,
// and whatever verify accepts, import can plan into an empty install.
#include <clawport/digest.hpp>
#include <clawport/importer.hpp>
#include <clawport/testing.hpp>
#include <clawport/verify.hpp>

#include "common.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using clawport_fuzz::check;

/// A bundle-relative path the memory backend can hold: '/'-separated, no empty, `.` or `..`
/// component, no NUL.
bool usable(std::string_view p) {
  if (p.empty() || p.size() > 512 || p.find('\0') != std::string_view::npos) return false;
  for (std::size_t start = 0;;) {
    const std::size_t slash = p.find('/', start);
    const std::string_view part = p.substr(start, slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

struct record {
  char kind;
  std::string path;
  std::string content;
};

std::vector<record> records(std::string_view text) {
  std::vector<record> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t nl = text.find('\n', at);
    const std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    if (line.rfind("== ", 0) == 0 && line.size() >= 4) {
      record r{line[3], std::string(line.size() > 5 ? line.substr(5) : std::string_view()), {}};
      out.push_back(std::move(r));
    } else if (!out.empty()) {
      out.back().content.append(line.data(), line.size());
      if (nl != std::string_view::npos) out.back().content += '\n';
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace cp = clawport;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  cp::fs::memory m;
  m.mkdirs("/b");
  m.mkdirs("/dst");
  m.write_file("/dst/config.toml", "schema_version = 3\n");
  std::vector<cp::digest::list_entry> files;
  try {
    for (const record& r : records(text)) {
      if (r.kind == 's') {
        m.write_file("/b/zeroclaw-agent.sha256", cp::digest::render_list(files));
        continue;
      }
      if (!usable(r.path)) continue;
      const std::string abs = "/b/" + r.path;
      const std::size_t slash = abs.rfind('/');
      if (slash > 2) m.mkdirs(abs.substr(0, slash));
      switch (r.kind) {
        case 'f':
          m.write_file(abs, r.content);
          files.push_back({r.path, cp::digest::sha256_hex(r.content)});
          break;
        case 'd':
          m.mkdirs(abs);
          break;
        case 'l':
          m.symlink(abs, r.content);
          break;
        case 'p':
          m.mkfifo(abs);
          break;
        default:
          break;
      }
    }
  } catch (const cp::error&) {
    return 0;  // a tree the backend cannot hold (a file where a directory is, twice, ...)
  }

  const cp::verify::report rep = cp::verify::verify_bundle(m, "/b");
  for (const cp::verify::finding& f : rep.findings)
    check(!f.code.empty() && !f.path.empty(), "every finding has a code and a path");
  if (!rep.ok()) {
    const cp::error e = rep.first_error();
    check(e.code() == cp::errc::bundle_invalid || e.code() == cp::errc::limit_exceeded,
          "a refused bundle's error is bundle_invalid or limit_exceeded");
    return 0;
  }
  cp::importer::import_options o;
  o.bundle = "/b";
  o.config_path = "/dst/config.toml";
  o.now = cp::timestamp{1786500000, 0};
  try {
    const cp::importer::import_plan p = cp::importer::plan_import(m, o);
    check(p.source_alias == rep.root_agent, "the import plans the bundle's root agent");
    check(!p.plan_integrity.empty(), "the import plan has an integrity");
  } catch (const cp::error& e) {
    std::fprintf(stderr, "import refused a verified bundle: %s\n", e.what());
    check(false, "whatever verify accepts, import can plan");
  }
  return 0;
}
