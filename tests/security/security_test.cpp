// SPDX-License-Identifier: MIT
// Hardening regressions (docs/security.md): each input a fuzz target of fuzz/ found, reduced,
// with the behaviour it must have now. The crashing inputs themselves sit in
// fuzz/corpus/<target>/ so the fuzzers replay them on every run.
#include "support/test.hpp"

#include <string>
#include <vector>

namespace cp = clawport;
namespace zc = clawport::zeroclaw;

namespace {

/// Runs `f`, which must throw clawport::error with `code`; returns the message.
template <typename F>
std::string refused(F&& f, cp::errc code) {
  try {
    f();
  } catch (const cp::error& e) {
    CHECK(e.code() == code);
    return e.what();
  }
  FAIL("accepted");
  return {};
}

/// `text` is refused (errc::config_parse) by both TOML readers that go through the one
/// adaptor, the config's and SKILL.toml's; returns the config reader's message.
std::string refused_by_both_readers(const std::string& text) {
  const std::string message =
      refused([&] { (void)zc::parse_toml(text, "config.toml"); }, cp::errc::config_parse);
  (void)refused([&] { (void)cp::skills::parse_skill_toml(text); }, cp::errc::config_parse);
  return message;
}

}  // namespace

// closure_fuzz: `[:risk_profiles.r]` reached toml++ 3.3's parse_key, which only asserts that a
// key starts with a bare-key character or a quote (an abort in a debug build, undefined
// behaviour under NDEBUG). Every TOML reader goes through the one adaptor, which now refuses
// such a header as the syntax error it is.
TEST_CASE("fuzz regression: a table header key toml++ only asserts on is a parse error") {
  const std::vector<std::string> bad = {"[:risk_profiles.r]\n",
                                        "schema_version = 3\n[=]\n",
                                        "[\n",
                                        "[ #]\n",
                                        "[[ :a]]\n",
                                        "x = 1\n[\t.]\n",
                                        "[\r\n]\n",
                                        "[[\n",
                                        "[[ [a]]]\n"};
  for (const std::string& text : bad) {
    CAPTURE(text);
    const std::string message = refused_by_both_readers(text);
    CHECK(message.rfind("config.toml:", 0) == 0);
    (void)refused([&] { (void)zc::plan_export(text, "a"); }, cp::errc::config_parse);
  }
  // The line and column name the offending character.
  CHECK(refused([&] { (void)zc::parse_toml("a = 1\n\n[ :x]\n", "c.toml"); }, cp::errc::config_parse)
            .rfind("c.toml:3:3: ", 0) == 0);
  // Headers that start well still reach toml++ (and read, or fail there, as before).
  for (const char* good :
       {"[a]\n", "[ a ]\n", "[\"q\"]\n", "[ 'x' ]\n", "[[a]]\n", "[[ b ]]\n", "[a-b_9]\n",
        "x = [\n [1], [2]\n]\n", "s = \"\"\"\n[:not a header]\"\"\"\n"}) {
    CAPTURE(good);
    CHECK_NOTHROW((void)zc::parse_toml(good, "config.toml"));
  }
  (void)refused([&] { (void)zc::parse_toml("[]\n", "config.toml"); }, cp::errc::config_parse);
  (void)refused([&] { (void)zc::parse_toml("[ [a]]\n", "config.toml"); }, cp::errc::config_parse);
}

namespace {

/// A memory install whose agent's workspace (or skill) holds `name`; exported to /out. Returns
/// the paths of the `unportable_name` drops, one a line; the bundle must verify.
std::string export_with_name(const std::string& dir, const std::string& name, bool skill) {
  cp::fs::memory m;
  m.write_file("/src/config.toml",
               "schema_version = 3\n[providers.models.openai.m]\nmodel = \"x\"\n"
               "[risk_profiles.r]\n[skill_bundles.tools]\n[agents.a]\nrisk_profile = \"r\"\n"
               "model_provider = \"openai.m\"\nskill_bundles = [\"tools\"]\n");
  m.write_file("/src/agents/a/workspace/notes.md", "notes\n");
  m.write_file("/src/shared/skills/tools/s/SKILL.md", "# s\n");
  const std::string at = skill ? "/src/shared/skills/tools/s" : "/src/agents/a/workspace";
  if (!dir.empty()) m.mkdirs(at + "/" + dir);
  m.write_file(at + "/" + (dir.empty() ? "" : dir + "/") + name, "x\n");
  cp::export_options o;
  o.alias = "a";
  o.config_path = "/src/config.toml";
  o.out = "/out";
  o.sync = false;
  o.token = "export";
  o.exported_at = cp::timestamp{1786493040, 0};
  cp::basic_exporter<cp::fs::memory> ex(m);
  const cp::export_result r = ex.run(o);
  std::string dropped;
  for (const auto& d : r.plan.dropped)
    if (d.reason == zc::drop_reason::unportable_name) dropped += d.path + "\n";
  // Nothing but the complete bundle beside the install; everything else in it travelled.
  bool leftovers = false;
  auto root = m.open_root("/");
  m.for_each_entry(root, [&](std::string_view n) { leftovers |= n != "src" && n != "out"; });
  CHECK_FALSE(leftovers);
  CHECK(m.read_file("/out/workspace/notes.md") == "notes\n");
  CHECK(m.read_file("/out/skills/tools/s/SKILL.md") == "# s\n");
  const auto rep = cp::verify::verify_bundle(m, "/out");
  CHECK(rep.ok());
  return dropped;
}

}  // namespace

// Found by the attack table (docs/security.md, "hostile names"): export carried a workspace
// file named with a newline or with bytes that are not UTF-8, and `clawport verify` refused
// the bundle it had just published (name_invalid). One rule decides both
// (bundle::carries_name); since issue 22 item 3 the entry is skipped and listed under
// `dropped` (unportable_name, its path escaped) instead of refusing the whole agent.
TEST_CASE("attack regression: a name the bundle cannot carry is skipped, listed, and verifies") {
  for (const bool skill : {false, true}) {
    for (const std::string& name : {std::string("a\nb"), std::string("x\xffy"),
                                    std::string("tab\there"), std::string("del\x7f")}) {
      CAPTURE(skill);
      CAPTURE(name);
      const std::string prefix = skill ? "skills/tools/s/" : "workspace/";
      const std::string escaped = cp::text::escape_for_terminal(name);
      CHECK(export_with_name("", name, skill) == prefix + escaped + "\n");
      CHECK(export_with_name(name, "inner.md", skill) == prefix + escaped + "\n");  // a directory
    }
  }
  // What a bundle can carry still travels: UTF-8, spaces, 255 bytes.
  CHECK(export_with_name("", "caf\xc3\xa9 notes.md", false).empty());
  CHECK(export_with_name("", std::string(255, 'L'), false).empty());
  CHECK(cp::bundle::carries_name("caf\xc3\xa9"));
  CHECK_FALSE(cp::bundle::carries_name("a\rb"));
  CHECK_FALSE(cp::bundle::carries_name("\xc3"));
}

// skill_toml_fuzz: `[sill\u0394]` made toml++ 3.3 ask is_whitespace() of U+0394 while recording
// the key, and its is_non_ascii_horizontal_whitespace reaches __builtin_unreachable for most
// of U+00A1-U+0499 (UBSan: "execution reached an unreachable program point"): undefined
// behaviour in every build, for a key or a value position holding such a character. Outside
// strings and comments TOML is ASCII, so the adaptor refuses any other byte there first.
TEST_CASE("fuzz regression: a character that is not ASCII outside strings and comments") {
  const std::vector<std::string> bad = {
      "[sill\xce\x94]\nname = 3\n",   "a\xc3\xa9 = 1\n",  "a = \xc3\xa9\n",
      "[a]\nb = { c\xd0\x96 = 1 }\n", "[[x \xc2\xa1]]\n", "a = [1, \xce\xb1]\n",
      "\"q\" \xc3\xa9 = 1\n",         "a\xc2\xa0= 1\n"};
  for (const std::string& text : bad) {
    CAPTURE(text);
    const std::string message = refused_by_both_readers(text);
    CHECK(message.find("not ASCII outside a string or comment") != std::string::npos);
  }
  CHECK(refused([&] { (void)zc::parse_toml("x = 1\nab\xc3\xa9 = 2\n", "c.toml"); },
                cp::errc::config_parse)
            .rfind("c.toml:2:3: ", 0) == 0);
  // Strings, keys in quotes, comments and a leading byte order mark may hold any UTF-8.
  for (const char* good :
       {"a = \"caf\xc3\xa9\"\n", "\"\xce\x94\" = 1\n", "['\xce\x94']\n", "# \xce\x94 comment\n",
        "a = '''\n\xce\x94\n'''\n", "a = \"\"\"\xd0\x96\"\"\"\n",
        "\xef\xbb\xbf"
        "a = 1\n",
        "[\"caf\xc3\xa9\".b]\nc = 1 # \xc3\xa9\n"}) {
    CAPTURE(good);
    CHECK_NOTHROW((void)zc::parse_toml(good, "config.toml"));
  }
}

// closure_fuzz (`api_key =0"enc2:…\xc5\x9c…"`) and skill_frontmatter_fuzz (`-=-"…\xef\xba\xbf…"`):
// toml++ 3.3 reads a bare value up to the next value terminator, quotes included, so a quote
// right after a bare value's characters did not open a string for it, and the character that
// is not ASCII behind it reached the same __builtin_unreachable. verify_fuzz: a `}` where an
// array expects a value reached TOML_ASSERT_ASSUME in parse_value. Both are refused first.
TEST_CASE("fuzz regression: a quote inside a bare key or value, a } inside an array, a date-time") {
  const std::vector<std::string> bad = {"a = 0\"\xc5\x9c\"\n",
                                        "- = -\"\xef\xba\xbf\"\n",
                                        "a = true'x'\n",
                                        "a = 1.\"x\"\n",
                                        "a = 1979-05-27T07:32:00\"x\"\n",
                                        "a\"b\" = 1\n",
                                        "[a\"b\"]\n",
                                        "x = { a\"b\" = 1 }\n",
                                        "a = [}]\n",
                                        "a = [1, }\n",
                                        "a = [ # c\n}]\n",
                                        "a = { b = [}] }\n",
                                        "a = [[}]]\n"};
  for (const std::string& text : bad) {
    CAPTURE(text);
    (void)refused_by_both_readers(text);
  }
  // A bare value runs to its terminator, quotes included: the character that is not ASCII
  // inside it is named (skill_frontmatter_fuzz reached it through control characters too).
  CHECK(refused([&] { (void)zc::parse_toml("x = 1\ny = 2\"\xc3\xa9\"\n", "c.toml"); },
                cp::errc::config_parse)
            .rfind("c.toml:2:7: a character that is not ASCII", 0) == 0);
  CHECK(refused([&] { (void)zc::parse_toml("-=-\x16\x16\"\x16\xef\xba\xbf\"\n", "c.toml"); },
                cp::errc::config_parse)
            .rfind("c.toml:1:8: a character that is not ASCII", 0) == 0);
  // skill_toml_fuzz: toml++ only asserts that a date-time's time starts with a digit.
  CHECK(refused([&] { (void)zc::parse_toml("1=3989-05-27Tj7:32:00Z\n", "c.toml"); },
                cp::errc::config_parse)
            .rfind("c.toml:1:14: a date-time's time must start with a digit", 0) == 0);
  CHECK(refused([&] { (void)zc::parse_toml("a = [\n  }\n]\n", "c.toml"); }, cp::errc::config_parse)
            .rfind("c.toml:2:3: a `}` inside an array", 0) == 0);
  // Quotes where a key or a value starts, and `}` closing inline tables in arrays, still read.
  for (const char* good :
       {"a = \"x\"\n", "a=\"x\"\n", "a.\"b\" = 1\n", "\"a\".'b' = 1\n", "[a.\"b\"]\n",
        "x = [\"a\",\"b\"]\n", "x = {a=\"b\",c='d'}\n", "x = [{a = 1}, {}]\n",
        "x = [\n  {a = [1]},\n]\n", "s = '''}'''\n", "t = [\"}\"] # }\n",
        "d = 1979-05-27 07:32:00\n", "d = 1979-05-27T07:32:00Z\n", "d = 1979-05-27\n",
        "t = 07:32:00.5\n", "f = -1.5e+3\n", "h = 0xdead_beef\n", "i = +inf\n"}) {
    CAPTURE(good);
    CHECK_NOTHROW((void)zc::parse_toml(good, "config.toml"));
  }
}

// skill_toml_fuzz (`""""\n"v\\\n\xef\xb1\xbf...`): in a multi-line basic string toml++ 3.3
// classifies the character after a backslash, and the first one after a line-ending
// backslash's skip, with is_non_ascii_horizontal_whitespace, which reaches
// __builtin_unreachable for most code points that are not ASCII. Refused first, with the line
// and column of that character; the same characters elsewhere in strings still read.
TEST_CASE(
    "fuzz regression: a character that is not ASCII after a backslash in a multi-line string") {
  const std::string fc7f = "\xef\xb1\xbf";  // U+FC7F, the fuzzer's character
  const std::string e = "\xc3\xa9";         // U+00E9
  for (const std::string& text : std::vector<std::string>{
           "\"\"\"\"\n\"v\\\n" + fc7f + "\n\n\"", "a = \"\"\"\\\n" + e + "\"\"\"\n",
           "a = \"\"\"\\  \n \t\n  " + fc7f + "x\"\"\"\n", "a = \"\"\"\\" + e + "\"\"\"\n",
           "a = \"\"\"\\ " + e + "\n\"\"\"\n", "a = \"\"\"x\\\r\n" + e + "\"\"\"\n"}) {
    CAPTURE(text);
    (void)refused_by_both_readers(text);
  }
  CHECK(
      refused([&] { (void)zc::parse_toml("a = 1\nb = \"\"\"\\\n\n  " + e + "\"\"\"\n", "c.toml"); },
              cp::errc::config_parse)
          .rfind("c.toml:4:3: a line continued by a line-ending backslash starts with a "
                 "character that is not ASCII",
                 0) == 0);
  // Ordinary escapes, escaped backslashes, the \u escape the message advises, and the same
  // characters anywhere else in a string still read.
  for (const std::string& good :
       std::vector<std::string>{"a = \"\"\"\\\n  \\u00e9\"\"\"\n",
                                "a = \"\"\"\\\\" + e + "\"\"\"\n", "a = \"\"\"\\n" + e + "\"\"\"\n",
                                "a = \"\"\"\\\n  x" + e + "\"\"\"\n", "a = \"\\\\" + e + "\"\n",
                                "a = '''\\\n" + e + "'''\n", "a = \"\"\"" + fc7f + "\"\"\"\n"}) {
    CAPTURE(good);
    CHECK_NOTHROW((void)zc::parse_toml(good, "config.toml"));
  }
}

// skill_toml_fuzz (`1prompts=3989-00-25 0]...`): ten characters that may be a date, a space
// and one digit make toml++ 3.3 read on as a date-time and assert (TOML_ASSERT_ASSUME in
// parse_value's scan) that more follows the digit. Refused first; real date-times still read.
TEST_CASE("fuzz regression: a date, a space and one digit") {
  for (const std::string& text : std::vector<std::string>{
           "1prompts=3989-00-25 0]x\n", "a = 1979-05-27 0\n", "a = [1979-05-27 0]\n",
           "a = 1979-05-27 0,\n", "a = 1979-05-27 0#\n", "a = 1979-05-27 0 \n",
           "a = {b = 1979-05-27 0}\n", "a = 19_79-05-27 0\n", "a = 1979--5-27 0\n"}) {
    CAPTURE(text);
    (void)refused_by_both_readers(text);
  }
  CHECK(refused([&] { (void)zc::parse_toml("x = 1\nd = 1979-05-27 0\n", "c.toml"); },
                cp::errc::config_parse)
            .rfind("c.toml:2:17: a date, a space and one digit", 0) == 0);
  for (const std::string& good :
       std::vector<std::string>{"d = 1979-05-27 07:32:00\n", "d = [1979-05-27 07:32:00Z]\n",
                                "d = 1979-05-27 # 0\n", "d = 1979-05-27\n"}) {
    CAPTURE(good);
    CHECK_NOTHROW((void)zc::parse_toml(good, "config.toml"));
  }
}

// skill_frontmatter_fuzz: a description read from a block scalar that starts with a quote
// (`description: >-` / ` "folded` / `  text`) was written back flat, `description: "folded
// text`, which the reader (upstream's quote stripping) reads as `folded text`. The writer
// now keeps the block form whenever the flat line would not read back as written.
TEST_CASE("fuzz regression: SKILL.md serialize keeps a description the flat form would change") {
  for (const char* description : {"\"folded text", "it's 'quoted'", "'x'", "ends with \""}) {
    CAPTURE(description);
    cp::skills::skill_document doc =
        cp::skills::skill_document::parse("---\nname: x\ndescription: ok\n---\nbody\n");
    doc.frontmatter.description = description;
    const auto back = cp::skills::skill_document::parse(doc.serialize());
    CHECK(back.frontmatter.description == description);
  }
  const auto doc = cp::skills::skill_document::parse(
      "---\nname: x\ndescription: >-\n \"folded\n  text\nalways: true\n---\n# body\n");
  CHECK(doc.frontmatter.description == "\"folded text");
  CHECK(cp::skills::skill_document::parse(doc.serialize()).frontmatter.description ==
        "\"folded text");
  // A description that reads back flat is still written flat.
  auto plain = doc;
  plain.frontmatter.description = "A plain description";
  CHECK(plain.serialize().find("description: A plain description\n") != std::string::npos);
}
