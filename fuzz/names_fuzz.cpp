// SPDX-License-Identifier: MIT
// libFuzzer target for the name grammar and identity paths: the input as one path component
// (the portable grammar), as an AIEOS identity path, as a ZeroClaw alias and as the base of
// an imported alias. Properties: an accepted name is non-empty UTF-8 without a separator, a
// control or reserved character, `.`/`..`, edge whitespace or a trailing dot; a kept identity
// path is relative, '/'-separated, every component accepted by the grammar, and kept again
// unchanged; an accepted alias is [a-z0-9_], at most 63 bytes, one POSIX path component;
// imported_alias always returns an alias the grammar accepts and that `taken` rejected not.
#include <clawport/core.hpp>
#include <clawport/names.hpp>
#include <clawport/zeroclaw.hpp>

#include "common.hpp"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace cp = clawport;
  namespace nm = clawport::names;
  namespace zc = clawport::zeroclaw;
  using clawport_fuzz::check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const auto reason = nm::portable::unportable_reason(text);
  check(reason.has_value() != nm::is_safe_path_component(text), "the predicate agrees");
  if (!reason) {
    check(!text.empty(), "an accepted name is not empty");
    check(cp::utf8::valid(text), "an accepted name is UTF-8");
    check(text.find_first_of("/\\:<>\"|?*") == std::string_view::npos,
          "an accepted name has no separator or reserved character");
    check(text != "." && text != "..", "an accepted name is not . or ..");
    check(text.back() != '.' && text.back() != ' ' && text.front() != ' ',
          "an accepted name has no trailing dot or edge space");
    for (const char c : text)
      check(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f, "no ASCII control character");
  } else {
    check(!reason->empty(), "a refusal has a reason");
  }

  const auto included = [](std::string_view rel) { return zc::workspace_entry_included(rel); };
  const nm::identity_path_result id = nm::portable_identity_path(text, included);
  check(id.path.has_value() != !id.refusal.empty(), "kept or refused with a reason, not both");
  if (id.path) {
    const std::string& p = *id.path;
    check(!p.empty() && p.front() != '/' && p.back() != '/', "a kept path is relative");
    check(p.find("//") == std::string::npos, "a kept path has no empty component");
    for (std::size_t start = 0;;) {
      const std::size_t slash = p.find('/', start);
      const std::string_view part = std::string_view(p).substr(
          start, slash == std::string::npos ? std::string::npos : slash - start);
      check(part != "." && part != "..", "a kept path has no . or .. component");
      check(nm::is_safe_path_component(part), "every kept component is portable");
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    const nm::identity_path_result again = nm::portable_identity_path(p, included);
    check(again.path && *again.path == p, "a kept path is kept again unchanged");
  }

  const auto alias = zc::alias_problem(text);
  if (!alias) {
    check(!text.empty() && text.size() <= zc::max_alias_length, "an alias fits in 63 bytes");
    for (const char c : text)
      check((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_', "an alias is [a-z0-9_]");
    // (An alias may still be a Windows device name such as `nul`: it names a directory only
    // on the install that holds it, never inside a bundle.)
    check(text != "." && text != ".." && text.find('/') == std::string_view::npos,
          "an alias is one POSIX path component");
  }
  std::set<std::string> taken;
  for (int round = 0; round < 3; ++round) {
    const std::string got =
        zc::imported_alias(text, [&](const std::string& a) { return taken.count(a) != 0; });
    check(!zc::alias_problem(got).has_value(), "imported_alias returns a valid alias");
    check(taken.insert(got).second, "imported_alias returns an alias not taken");
  }
  return 0;
}
