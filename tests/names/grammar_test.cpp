// SPDX-License-Identifier: MIT
// The portable name grammar (zeroclaw-bundle.md §6.2, §6.3 and the §10.A tests on names),
// and the compile-time composition of custom grammars.
#include "support/test.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace names = clawport::names;

namespace {

std::string reason_of(std::string_view name) {
  const auto r = names::portable::unportable_reason(name);
  return r ? std::string(*r) : std::string("<portable>");
}

names::identity_path_result identity(std::string_view raw) {
  return names::portable_identity_path(raw, clawport::zeroclaw::workspace_entry_included);
}

// ---- compile-time composition ----
struct no_leading_dash {
  static constexpr std::optional<std::string_view> check(std::string_view name) noexcept {
    if (!name.empty() && name.front() == '-') return std::string_view("starts with a dash");
    return std::nullopt;
  }
};
using strict = names::portable::with<names::rules::max_length<8>, names::rules::lowercase_only,
                                     names::rules::ascii_only, no_leading_dash>;
using no_devices = names::portable::without<names::rules::no_windows_device_names>;

static_assert(names::is_names_policy_v<names::portable>);
static_assert(names::is_names_policy_v<strict>);
static_assert(!names::is_names_policy_v<int>);
static_assert(!names::is_names_policy_v<no_leading_dash>);
static_assert(strict::has<names::rules::max_length<8>> && strict::has<no_leading_dash>);
static_assert(!no_devices::has<names::rules::no_windows_device_names>);
static_assert(no_devices::has<names::rules::no_trailing_dot>);
static_assert(std::is_same_v<names::portable::without<>, names::portable>);
static_assert(std::is_same_v<names::grammar<names::rules::not_empty>::with<no_leading_dash>,
                             names::grammar<names::rules::not_empty, no_leading_dash>>);
// Evaluated by the compiler: the grammars are constexpr all the way down.
static_assert(names::portable::accepts("research_tools"));
static_assert(!names::portable::accepts("CON"));
static_assert(no_devices::accepts("CON"));
static_assert(strict::accepts("core"));
static_assert(!strict::accepts("Core"));
static_assert(!strict::accepts("toolong_name"));
static_assert(!strict::accepts("-x"));
static_assert(*strict::unportable_reason("Core") ==
              std::string_view("contains an upper-case letter"));
// Portable rules still come first: "" is refused as empty, not as too short or anything else.
static_assert(*strict::unportable_reason("") == std::string_view("is empty"));
static_assert(*strict::unportable_reason("nul.md") == std::string_view("is a Windows device name"));
static_assert(names::is_safe_path_component("core"));
static_assert(!names::is_safe_path_component<strict>("café"));

}  // namespace

TEST_CASE("names: every reason of §6.2, in check order") {
  CHECK(reason_of("") == "is empty");
  CHECK(reason_of(" x") == "has leading or trailing whitespace");
  CHECK(reason_of("x ") == "has leading or trailing whitespace");
  CHECK(reason_of("\tx") == "has leading or trailing whitespace");
  CHECK(reason_of("x\xC2\xA0") == "has leading or trailing whitespace");      // NBSP
  CHECK(reason_of("\xE3\x80\x80x") == "has leading or trailing whitespace");  // U+3000
  CHECK(reason_of(".") == "names a relative directory rather than an entry");
  CHECK(reason_of("..") == "names a relative directory rather than an entry");
  CHECK(reason_of("a/b") == "contains a directory separator");
  CHECK(reason_of("a\\b") == "contains a directory separator");
  for (const char* bad : {"a:b", "a<b", "a>b", "a\"b", "a|b", "a?b", "a*b"})
    CHECK_MESSAGE(reason_of(bad) == "contains a character Windows does not allow in a filename",
                  bad);
  CHECK(reason_of(std::string("a\0b", 3)) == "contains a control character");
  CHECK(reason_of("a\x07"
                  "b") == "contains a control character");
  CHECK(reason_of("a\x7F"
                  "b") == "contains a control character");
  CHECK(reason_of("a\xC2\x85"
                  "b") == "contains a control character");  // U+0085 inside
  CHECK(reason_of("a\xC2\x9F"
                  "b") == "contains a control character");
  CHECK(reason_of("report.") == "ends in a dot, which Windows strips to a different name");
  CHECK(reason_of("con") == "is a Windows device name");
  // Order: the first failing check supplies the reason.
  CHECK(reason_of(" ..") == "has leading or trailing whitespace");
  CHECK(reason_of("a/b:c") == "contains a directory separator");
  CHECK(reason_of("con.") == "ends in a dot, which Windows strips to a different name");
  CHECK(reason_of("nul|") == "contains a character Windows does not allow in a filename");
  // Beyond §6.2, for bytes TOML can never produce.
  CHECK(reason_of("a\xFF") == "is not valid UTF-8");
  // Inner whitespace and non-ASCII are fine; there is no length limit.
  CHECK(reason_of("a b") == "<portable>");
  CHECK(reason_of("caf\xC3\xA9") == "<portable>");
  CHECK(reason_of(std::string(1000, 'a')) == "<portable>");
  CHECK(reason_of("CONIN$") == "<portable>");
  CHECK(reason_of("CLOCK$") == "<portable>");
  CHECK(reason_of("COM\xC2\xB9") == "<portable>");  // superscript one
}

// upstream: only_the_reserved_windows_names_are_refused (§10.A 39)
TEST_CASE("names: only the reserved Windows names are refused") {
  for (const char* name : {"con", "CON", "Con", "prn", "aux", "nul", "com0", "com1", "com9", "lpt1",
                           "LPT9", "con.md", "nul.json", "com1.tar.gz"})
    CHECK_MESSAGE(reason_of(name) == "is a Windows device name", name);
  for (const char* name : {"console", "com", "com10", "communication", "lpt", "auxiliary",
                           "nullable", "conf.d", "my.con", "research.tools"})
    CHECK_MESSAGE(names::portable::accepts(name), name);
}

// upstream: a_plain_skill_bundle_alias_is_planned (§10.A 38), naming half
TEST_CASE("names: plain aliases are safe, blank and edge-spaced ones are not") {
  CHECK(names::is_safe_path_component("research_tools"));
  CHECK(names::is_safe_path_component("core"));
  CHECK_FALSE(names::is_safe_path_component(""));
  CHECK_FALSE(names::is_safe_path_component(" spaced"));
  CHECK_FALSE(names::is_safe_path_component("trailing "));
}

// upstream: a_skill_bundle_alias_that_is_not_one_component_is_not_planned (§10.A 37), naming half
TEST_CASE("names: every alias of §10.A test 37 is refused, with its reason") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"../../outside", "contains a directory separator"},
      {"..", "names a relative directory rather than an entry"},
      {"nested/alias", "contains a directory separator"},
      {"..\\outside", "contains a directory separator"},
      {"/absolute", "contains a directory separator"},
      {"C:evil", "contains a character Windows does not allow in a filename"},
      {"con", "is a Windows device name"},
      {"NUL", "is a Windows device name"},
      {"aux", "is a Windows device name"},
      {"prn", "is a Windows device name"},
      {"com1", "is a Windows device name"},
      {"LPT9", "is a Windows device name"},
      {"nul.md", "is a Windows device name"},
      {"trailing.", "ends in a dot, which Windows strips to a different name"},
      {"quo\"ted", "contains a character Windows does not allow in a filename"},
      {"pipe|d", "contains a character Windows does not allow in a filename"},
      {"star*", "contains a character Windows does not allow in a filename"},
  };
  for (const auto& c : cases) CHECK_MESSAGE(reason_of(c.first) == c.second, c.first);
}

TEST_CASE("names: a custom grammar composes at compile time and runs its rules in order") {
  CHECK(std::string(*strict::unportable_reason("abcdefghi")) == "is longer than the length limit");
  CHECK(std::string(*strict::unportable_reason("caf\xC3\xA9")) ==
        "contains a character outside ASCII");
  CHECK(strict::accepts("abcdefgh"));
  CHECK_FALSE(no_devices::unportable_reason("com1").has_value());
  CHECK(std::string(*no_devices::unportable_reason("com1.")) ==
        "ends in a dot, which Windows strips to a different name");
}

// ---- §6.3 portable_identity_path ----

const std::string grammar_phrase = "every supported target can materialize";

TEST_CASE("identity path: kept paths are normalized to '/' separators") {
  // upstream: a_retained_identity_path_is_rendered_with_the_bundle_separator (§10.A 29)
  CHECK(*identity("identity/aieos.json").path == "identity/aieos.json");
  CHECK(*identity("./identity/aieos.json").path == "identity/aieos.json");
  CHECK(*identity("identity/./aieos.json").path == "identity/aieos.json");
  CHECK(*identity("IDENTITY.md").path == "IDENTITY.md");
  CHECK(*identity("notes/memory/aieos.json").path == "notes/memory/aieos.json");
  // upstream: a_retained_identity_path_resolves_the_same_on_any_platform (§10.A 28)
  const std::string kept = *identity("identity/aieos.json").path;
  CHECK(kept.find('\\') == std::string::npos);
  CHECK(kept.find(':') == std::string::npos);
  CHECK(kept.front() != '/');
}

TEST_CASE("identity path: each refusal of §6.3 with its detail") {
  CHECK(identity("").refusal == "the AIEOS identity document path is empty");
  CHECK(identity(".").refusal == "the AIEOS identity document path is empty");
  CHECK(identity("/srv/identities/researcher.json").refusal ==
        "the AIEOS identity document is referenced by a source-host absolute path; point the "
        "imported agent at a path inside its own workspace");
  const std::string dotdot =
      "the AIEOS identity document path contains a `..` segment; name the file by its plain "
      "path from the workspace root";
  // upstream: an_identity_path_that_escapes_the_workspace_is_dropped (§10.A 26) and
  // an_identity_path_with_an_inner_parent_segment_is_dropped (§10.A 31)
  for (const char* raw : {"../outside.json", "identity/../../outside.json", "..//outside.json",
                          "link/../identity.json", "identity/sub/../aieos.json"}) {
    const auto r = identity(raw);
    CHECK_MESSAGE(!r.path, raw);
    CHECK_MESSAGE(r.refusal == dotdot, raw);
  }
  CHECK(identity("a//b").refusal ==
        "the AIEOS identity document path has a component that is empty (``); a bundle is "
        "opened on hosts other than this one, so it can carry only names every supported "
        "target can materialize");
  CHECK(identity("identity/").refusal.find("component that is empty") != std::string::npos);
  CHECK(identity("identity/pipe|d.json").refusal ==
        "the AIEOS identity document path has a component that contains a character Windows "
        "does not allow in a filename (`pipe|d.json`); a bundle is opened on hosts other than "
        "this one, so it can carry only names every supported target can materialize");
  // upstream: an_identity_path_inside_the_memory_store_is_dropped (§10.A 32)
  const std::string memory =
      "the AIEOS identity document sits in the part of the workspace this bundle does not "
      "carry, so the reference would dangle on the target";
  CHECK(identity("memory/aieos.json").refusal == memory);
  CHECK(identity("./memory/aieos.json").refusal == memory);
  CHECK(identity("MEMORY_SNAPSHOT.md").refusal == memory);
  CHECK(identity("memory").refusal == memory);
}

TEST_CASE("identity path: every hostile example of §6.3 is refused") {
  // upstream: an_identity_path_that_only_traverses_on_another_platform_is_dropped (§10.A 27),
  // an_identity_path_with_edge_whitespace_is_dropped (30),
  // an_identity_path_naming_a_windows_device_is_dropped (40)
  for (const char* raw : {"../outside.json",
                          "identity/../../outside.json",
                          "..//outside.json",
                          "..\\outside.json",
                          "identity\\..\\..\\outside.json",
                          "C:\\Windows\\System32\\config\\sam",
                          "C:/Windows/System32/config/sam",
                          "\\\\server\\share\\outside.json",
                          "identity/aieos.json:stream",
                          "identity/\abell.json",
                          " identity/aieos.json",
                          "identity/aieos.json ",
                          "\tidentity/aieos.json",
                          "nul",
                          "identity/con.json",
                          "identity/lpt1.json",
                          "identity/report.",
                          "identity/report ",
                          "identity/pipe|d.json",
                          "memory/aieos.json",
                          "/srv/identities/researcher.json"}) {
    const auto r = identity(raw);
    CHECK_MESSAGE(!r.path.has_value(), raw);
    CHECK_MESSAGE(!r.refusal.empty(), raw);
  }
  for (const char* raw : {"nul", "identity/con.json", "identity/lpt1.json", "identity/report.",
                          "identity/report ", "identity/pipe|d.json", "..\\outside.json",
                          "C:/Windows/System32/config/sam", "identity/\abell.json"})
    CHECK_MESSAGE(identity(raw).refusal.find(grammar_phrase) != std::string::npos, raw);
}

TEST_CASE("identity path: the grammar is a policy") {
  const auto r = names::portable_identity_path<strict>(
      "id/Ab.json", clawport::zeroclaw::workspace_entry_included);
  CHECK_FALSE(r.path.has_value());
  CHECK(r.refusal.find("contains an upper-case letter (`Ab.json`)") != std::string::npos);
}
