// SPDX-License-Identifier: MIT
// libFuzzer target for the skill parsers: SKILL.md (lenient loader, strict document and
// its serializer round trip), SKILL.toml, the Markdown link scanner and the TOML audit.
// Every input must either parse or throw clawport::error; nothing else may escape.
#include <clawport/clawport.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace sk = clawport::skills;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const sk::skill md = sk::skill_from_markdown(text, "fuzz");
  if (md.prompts.size() != 1) std::abort();

  try {
    const sk::skill_document doc = sk::skill_document::parse(text);
    // The writer's contract: what serialize writes parses back with the same name and
    // description. (A value that is itself a block-scalar indicator cannot be written flat; a
    // name is written flat, so one with edge quotes or whitespace cannot round-trip; block
    // lines are trimmed, a `\r` at a line's edge included.)
    const auto indicator = [](const std::string& v) {
      return v == ">" || v == ">-" || v == "|" || v == "|-";
    };
    const auto& fm = doc.frontmatter;
    const auto writable = [](const std::string& v, bool block_ok) {
      if (sk::detail::strip_quotes(clawport::text::trim(v)) == v) return true;
      if (!block_ok) return false;
      // Raw lines: lines() drops a `\r` before each `\n`, and a `\r` at a line's edge is
      // whitespace the block writer trims too (`description:q\r"`; found by this target).
      for (std::string_view rest = v;;) {
        const std::size_t nl = rest.find('\n');
        const std::string_view line = rest.substr(0, nl);
        if (clawport::text::trim(line) != line) return false;
        if (nl == std::string_view::npos) return true;
        rest.remove_prefix(nl + 1);
      }
    };
    if (!indicator(fm.name) && !indicator(fm.description) && writable(fm.name, false) &&
        writable(fm.description, true)) {
      const sk::skill_document back = sk::skill_document::parse(doc.serialize());
      if (back.frontmatter.name != fm.name || back.frontmatter.description != fm.description) {
        std::abort();
      }
    }
  } catch (const clawport::error&) {
  }

  try {
    (void)sk::parse_skill_toml(text);
  } catch (const clawport::error&) {
  }

  for (const auto& link : sk::markdown_links(text)) {
    (void)sk::classify_markdown_link(link.target);
  }
  (void)sk::audit_toml_text(text, "fuzz.toml");
  (void)sk::has_shell_shebang(text);
  return 0;
}
