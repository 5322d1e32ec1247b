// SPDX-License-Identifier: MIT
// Pure skill parsing: SKILL.md (lenient loader + strict document), SKILL.toml and
// manifest.toml, the bundle filter, directory rules. Upstream test names are in comments
// (zeroclaw-skills.md §9).
#include "support/test.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace {

namespace sk = clawport::skills;
using clawport::errc;
using clawport::error;

template <class Fn>
error thrown(Fn&& fn) {
  try {
    fn();
  } catch (const error& e) {
    return e;
  }
  FAIL("expected clawport::error");
  return error(errc::io, "unreachable");
}

sk::loader_frontmatter lenient(const std::string& md) {
  const auto split = sk::split_frontmatter(md);
  REQUIRE(split.found);
  return sk::parse_loader_frontmatter(split.frontmatter);
}

}  // namespace

TEST_SUITE("skills.frontmatter") {
  TEST_CASE("fence rule (§2.1)") {
    auto s = sk::split_frontmatter("---\nname: a\n---\nbody\n");
    CHECK(s.found);
    CHECK(s.frontmatter == "name: a");
    CHECK(s.body == "body\n");
    // CRLF is normalised before splitting.
    s = sk::split_frontmatter("---\r\nname: a\r\n---\r\nbody\r\n");
    CHECK(s.found);
    CHECK(s.body == "body\n");
    // Closing fence at EOF without newline.
    s = sk::split_frontmatter("---\nname: a\n---");
    CHECK(s.found);
    CHECK(s.body.empty());
    // Not recognised: empty frontmatter, BOM, leading blank line, `----`, `--- `, unterminated.
    for (const char* text : {"---\n---\nbody", "\xEF\xBB\xBF---\nname: a\n---\n",
                             "\n---\nname: a\n---\n", "----\nname: a\n----\n",
                             "--- \nname: a\n---\n", "---\nname: a\n", "---\nname: a\n---- \nx"}) {
      CAPTURE(text);
      s = sk::split_frontmatter(text);
      CHECK_FALSE(s.found);
      CHECK(s.body == text);
    }
    // `----` inside does not close; the first real fence does.
    s = sk::split_frontmatter("---\na: 1\n----\nb: 2\n---\nrest");
    CHECK(s.frontmatter == "a: 1\n----\nb: 2");
  }

  TEST_CASE("lenient grammar (§2.2)") {
    auto fm = lenient(
        "---\nname: \"quoted\"\ndescription: 'single'\nversion: 1.2\nauthor: me\nalways: "
        "TRUE\n---\n");
    CHECK(*fm.name == "quoted");
    CHECK(*fm.description == "single");
    CHECK(*fm.version == "1.2");
    CHECK(*fm.author == "me");
    CHECK(fm.always);
    // Anything but `true` (any case) is false; later keys overwrite earlier ones.
    fm = lenient("---\nalways: yes\nname: a\nname: b\n---\n");
    CHECK_FALSE(fm.always);
    CHECK(*fm.name == "b");
    // `name:` with an empty value is an empty name (no directory fallback).
    fm = lenient("---\nname:\ndescription: d\n---\n");
    REQUIRE(fm.name);
    CHECK(fm.name->empty());
    // Inline tags: brackets stripped, quotes stripped, empties dropped; replaced wholesale.
    fm = lenient("---\ntags: [a, \"b\", 'c', ]\ntags: [x, y]\n---\n");
    CHECK(fm.tags == std::vector<std::string>{"x", "y"});
    fm = lenient("---\ntags: [a, \"b\", 'c', ]\n---\n");
    CHECK(fm.tags == std::vector<std::string>{"a", "b", "c"});
    // Block tags, indented or at column 0.
    fm = lenient("---\ntags:\n  - one\n- \"two\"\n  -   three  \nname: n\n---\n");
    CHECK(fm.tags == std::vector<std::string>{"one", "two", "three"});
    CHECK(*fm.name == "n");
    // Not YAML: comments are keys, trailing comments stay in the value.
    fm = lenient("---\n# name: x\ndescription: d # c\n---\n");
    CHECK_FALSE(fm.name);
    CHECK(*fm.description == "d # c");
    // Unknown keys (license, category, metadata, allowed-tools) are ignored.
    fm = lenient("---\nlicense: MIT\ncategory: x\nallowed-tools: y\nname: n\n---\n");
    CHECK(*fm.name == "n");
    // A block scalar only ever sets name or description in the loader.
    fm = lenient("---\nversion: >-\n  9.9\nauthor: |\n  someone\nname: >\n  folded\n  name\n---\n");
    CHECK_FALSE(fm.version);
    CHECK_FALSE(fm.author);
    CHECK(*fm.name == "folded name");
  }

  TEST_CASE("parse_simple_frontmatter_keeps_blank_line_in_block_scalar") {
    const auto fm = lenient("---\nname: s\ndescription: >-\n  d1\n\n  d2\n---\nbody\n");
    CHECK(*fm.description == "d1  d2");  // the blank line contributes an empty part [H]
  }

  TEST_CASE("parse_simple_frontmatter_block_scalar_stops_at_next_key") {
    const auto fm = lenient("---\ndescription: >-\n  hello\n  world\nversion: 1.2.3\n---\n");
    CHECK(*fm.description == "hello world");
    CHECK(*fm.version == "1.2.3");
  }

  TEST_CASE("indentation fix: nested keys do not leak into the skill (documented difference)") {
    // Upstream's loader renames this skill `words` and takes the option's description; here
    // the option stays an option and the skill keeps its own fields (§8.1).
    const std::string md =
        "---\nname: counter\ndescription: Counts words\nslash_options:\n  - type: integer\n"
        "    name: words\n    description: How many words\nmetadata:\n  author: leaked\n"
        "  version: 9.9.9\n---\nbody\n";
    const auto fm = lenient(md);
    CHECK(*fm.name == "counter");
    CHECK(*fm.description == "Counts words");
    CHECK_FALSE(fm.author);
    CHECK_FALSE(fm.version);
    REQUIRE(fm.slash_options.size() == 1);
    CHECK(fm.slash_options[0].name == "words");
    CHECK(fm.slash_options[0].type == "integer");
    const auto doc = sk::skill_document::parse(md);
    CHECK(doc.frontmatter.name == "counter");
    CHECK_FALSE(doc.frontmatter.author);
  }

  TEST_CASE("building a loader skill from SKILL.md (§2.3)") {
    auto s =
        sk::skill_from_markdown("---\nname: x\n---\n# Title\n\n   \nFirst line.\nSecond.\n", "dir");
    CHECK(s.name == "x");
    CHECK(s.description == "First line.");  // one line, not a paragraph
    CHECK(s.version == "0.1.0");
    CHECK_FALSE(s.author);
    REQUIRE(s.prompts.size() == 1);
    CHECK(s.prompts[0] == "# Title\n\n   \nFirst line.\nSecond.\n");
    CHECK(s.tools.empty());
    // No frontmatter: directory name, first body line, the whole text as prompt.
    s = sk::skill_from_markdown("# H\nplain\n", "my-dir");
    CHECK(s.name == "my-dir");
    CHECK(s.description == "plain");
    CHECK(s.prompts[0] == "# H\nplain\n");
    // Empty or unterminated frontmatter: description becomes the literal `---` [H].
    CHECK(sk::skill_from_markdown("---\n---\nbody\n", "d").description == "---");
    CHECK(sk::skill_from_markdown("---\nname: a\n", "d").description == "---");
    CHECK(sk::skill_from_markdown("---\nname: a\n", "d").name == "d");
    // An indented heading is not skipped [H]; whitespace-only description falls back.
    CHECK(sk::skill_from_markdown("---\ndescription: \"  \"\n---\n   # x\n", "d").description ==
          "# x");
    CHECK(sk::skill_from_markdown("", "d").description == "No description");
    CHECK(sk::skill_from_markdown("---\nname:\n---\n", "d").name.empty());
    // CRLF is normalised in the body when there is a frontmatter.
    CHECK(sk::skill_from_markdown("---\r\nname: a\r\n---\r\nline\r\n", "d").prompts[0] == "line\n");
  }

  TEST_CASE("load_skill_md_parses_slash_options_from_frontmatter / _without_ / always") {
    const std::string md =
        "---\nname: greet\ndescription: Greets\ntags: [slash, fun]\nslash_options:\n"
        "  - name: who\n    description: Who to greet\n    type: string\n    required: true\n"
        "---\nSay hello.\n";
    const auto s = sk::skill_from_markdown(md, "greet");
    REQUIRE(s.slash_options.size() == 1);
    CHECK(s.slash_options[0].name == "who");
    CHECK(s.slash_options[0].required);
    CHECK(s.tags == std::vector<std::string>{"slash", "fun"});
    CHECK(s.prompts[0] == "Say hello.\n");
    CHECK(sk::skill_from_markdown("---\nname: a\n---\nb", "a").slash_options.empty());
    CHECK(sk::skill_from_markdown("---\nname: a\nalways: true\n---\nb", "a").always);
    CHECK_FALSE(sk::skill_from_markdown("---\nname: a\n---\nb", "a").always);
  }

  TEST_CASE("slash_options block (§2.5)") {
    const std::string fm =
        "slash_options:\n"
        "  - name: count\n    description: How many\n    type: integer\n    required: TRUE\n"
        "    min: 1e3\n    max: +5\n    min_length: +7\n    max_length: -1\n"
        "    choices: [{name: One, value: 1}, bare, {name: Two}]\n"
        "\n"
        "  - name: pick\n    type: string\n    choices:\n      - {name: A, value: a}\n"
        "      - {value: nameless}\n      - {name: \"B, with comma\", value: b}\n"
        "  - name: typeless\n"
        "  - type: string\n"
        "name: after\n";
    const auto opts = sk::parse_slash_options(fm);
    REQUIRE(opts.size() == 2);
    CHECK(opts[0].name == "count");
    CHECK(opts[0].required);
    CHECK(*opts[0].min == 1000.0);
    CHECK(*opts[0].max == 5.0);
    CHECK(*opts[0].min_length == 7);
    CHECK_FALSE(opts[0].max_length);
    REQUIRE(opts[0].choices.size() == 2);
    CHECK(opts[0].choices[0] == sk::slash_choice{"One", "1"});
    CHECK(opts[0].choices[1] == sk::slash_choice{"Two", "Two"});
    CHECK(opts[1].description.empty());
    REQUIRE(opts[1].choices.size() == 2);
    CHECK(opts[1].choices[0] == sk::slash_choice{"A", "a"});
    CHECK(opts[1].choices[1].name == "B");  // commas inside values break them, as upstream
    // Rust f64 grammar: inf, NaN, no hex; failures leave the bound unset.
    auto o = sk::parse_slash_options(
        "slash_options:\n  - name: n\n    type: number\n    min: -inf\n    max: NaN\n");
    REQUIRE(o.size() == 1);
    CHECK(std::isinf(*o[0].min));
    CHECK(std::isnan(*o[0].max));
    o = sk::parse_slash_options(
        "slash_options:\n  - name: n\n    type: number\n    min: 0x10\n    max: 1 2\n");
    CHECK_FALSE(o[0].min);
    CHECK_FALSE(o[0].max);
    // A compact sequence at column 0 is not part of the block [H]; `[]` yields none.
    CHECK(sk::parse_slash_options("slash_options:\n- name: a\n  type: string\n").empty());
    CHECK(sk::parse_slash_options("slash_options: []\n").empty());
  }
}

TEST_SUITE("skills.document") {
  // document.rs (§9.4)
  TEST_CASE("parses_minimal_canonical_frontmatter") {
    const auto d =
        sk::skill_document::parse("---\nname: demo\ndescription: A demo\n---\n\n# Body\n");
    CHECK(d.frontmatter.name == "demo");
    CHECK(d.frontmatter.description == "A demo");
    CHECK(d.body == "# Body\n");
  }
  TEST_CASE("parses_block_scalar_description") {
    const auto d = sk::skill_document::parse("---\nname: a\ndescription: >-\n  one\n  two\n---\n");
    CHECK(d.frontmatter.description == "one two");
  }
  TEST_CASE("parses_block_scalar_description_keeps_blank_line_paragraph_break") {
    const auto d =
        sk::skill_document::parse("---\nname: a\ndescription: >-\n  p1\n\n  p2\n---\n\nBody\n");
    CHECK(d.frontmatter.description == "p1  p2");
    CHECK(d.body == "Body\n");
  }
  TEST_CASE("block_scalar_description_round_trips_across_blank_paragraph") {
    const auto d =
        sk::skill_document::parse("---\nname: a\ndescription: >-\n  p1\n\n  p2\n---\n\nBody\n");
    const auto again = sk::skill_document::parse(d.serialize());
    CHECK(again.frontmatter.description == d.frontmatter.description);
    CHECK(again.body == d.body);
  }
  TEST_CASE("parses_optional_flat_fields") {
    const auto d = sk::skill_document::parse(
        "---\nname: a\ndescription: b\nlicense: MIT\nauthor: me\nversion: 2.0\ncategory: "
        "dev\n---\n");
    CHECK(*d.frontmatter.license == "MIT");
    CHECK(*d.frontmatter.author == "me");
    CHECK(*d.frontmatter.version == "2.0");
    CHECK(*d.frontmatter.category == "dev");
    // Block-scalar flush assigns to any known key in the strict reader; empty values stay.
    const auto e = sk::skill_document::parse(
        "---\nname: a\ndescription: b\nlicense:\nauthor: >-\n  x\n  y\n---\n");
    CHECK(*e.frontmatter.license == "");
    CHECK(*e.frontmatter.author == "x y");
  }
  TEST_CASE("rejects_missing_required_name / _description / _frontmatter_delimiter") {
    auto e = thrown([] { sk::skill_document::parse("---\ndescription: b\n---\n"); });
    CHECK(e.code() == errc::skill_invalid);
    CHECK(std::string(e.what()) == "SKILL.md frontmatter is missing required field `name`");
    e = thrown([] { sk::skill_document::parse("---\nname: a\n---\n"); });
    CHECK(std::string(e.what()) == "SKILL.md frontmatter is missing required field `description`");
    e = thrown([] { sk::skill_document::parse("# no frontmatter\n"); });
    CHECK(std::string(e.what()) == "SKILL.md is missing the leading `---` frontmatter delimiter");
    e = thrown([] { sk::skill_document::parse("---\nname:\ndescription: d\n---\n"); });
    CHECK(std::string(e.what()).find("`name`") != std::string::npos);
  }
  TEST_CASE("round_trips_minimal_document / with_optional_fields / always / tags") {
    sk::skill_document d;
    d.frontmatter.name = "demo";
    d.frontmatter.description = "Short";
    d.body = "# Demo\n\nText\n";
    auto back = sk::skill_document::parse(d.serialize());
    CHECK(back.frontmatter.name == "demo");
    CHECK(back.body == d.body);
    d.frontmatter.license = "MIT";
    d.frontmatter.author = "a";
    d.frontmatter.version = "1.0.0";
    d.frontmatter.category = "c";
    d.frontmatter.tags = {"x", "y"};
    d.frontmatter.always = true;
    d.frontmatter.description = std::string(100, 'w');  // > 80 bytes: written as `>-`
    const std::string text = d.serialize();
    CHECK(text.find("description: >-\n") != std::string::npos);
    CHECK(text.find("always: true\n") != std::string::npos);
    back = sk::skill_document::parse(text);
    CHECK(back.frontmatter.description == d.frontmatter.description);
    CHECK(*back.frontmatter.license == "MIT");
    CHECK(*back.frontmatter.category == "c");
    CHECK(back.frontmatter.tags == d.frontmatter.tags);
    CHECK(back.frontmatter.always);
  }
  TEST_CASE("serializes_minimal_skill_without_optional_fields") {
    sk::skill_document d;
    d.frontmatter.name = "n";
    d.frontmatter.description = "d";
    d.body = "b";
    CHECK(d.serialize() == "---\nname: n\ndescription: d\n---\n\nb\n");
  }
  TEST_CASE("parses_inline_and_block_tags / editing_preserves_tags") {
    auto d = sk::skill_document::parse("---\nname: a\ndescription: b\ntags: [a, b]\n---\n");
    CHECK(d.frontmatter.tags == std::vector<std::string>{"a", "b"});
    d = sk::skill_document::parse("---\nname: a\ndescription: b\ntags:\n  - a\n  - b\n---\n");
    CHECK(d.frontmatter.tags == std::vector<std::string>{"a", "b"});
    CHECK(sk::skill_document::parse(d.serialize()).frontmatter.tags == d.frontmatter.tags);
  }
  TEST_CASE("parses_slash_options_with_inline_choices_and_bounds / block choices / round trip") {
    const std::string md =
        "---\nname: s\ndescription: Skill\nslash_options:\n"
        "  - name: size\n    description: Size\n    type: string\n    required: true\n"
        "    choices: [{name: Small, value: s}, {name: Large, value: l}]\n"
        "  - name: n\n    description: Count\n    type: integer\n    min: 1\n    max: 10.5\n"
        "  - name: blocky\n    type: number\n    choices:\n      - {name: Pi, value: 3.14}\n"
        "  - description: no name\n    type: string\n"
        "  - name: no-type\n"
        "---\nbody\n";
    const auto d = sk::skill_document::parse(md);
    CHECK(d.frontmatter.description == "Skill");       // slash_options_block_does_not_pollute...
    REQUIRE(d.frontmatter.slash_options.size() == 3);  // drops_option_missing_name_or_type
    CHECK(d.frontmatter.slash_options[0].choices.size() == 2);
    CHECK(*d.frontmatter.slash_options[1].min == 1.0);
    CHECK(*d.frontmatter.slash_options[1].max == 10.5);
    CHECK(d.frontmatter.slash_options[2].choices[0] == sk::slash_choice{"Pi", "3.14"});
    const auto back = sk::skill_document::parse(d.serialize());  // round_trips_slash_options
    REQUIRE(back.frontmatter.slash_options.size() == 3);
    CHECK(back.frontmatter.slash_options[0].choices == d.frontmatter.slash_options[0].choices);
    CHECK(*back.frontmatter.slash_options[1].max == 10.5);
    CHECK(back.frontmatter.slash_options[0].required);
    CHECK(sk::skill_document::parse("---\nname: a\ndescription: b\n---\n")
              .frontmatter.slash_options.empty());
  }
  TEST_CASE("description_block_scalar_survives_a_following_slash_options_block") {
    const auto d = sk::skill_document::parse(
        "---\nname: a\ndescription: >-\n  long\n  text\nslash_options:\n  - name: x\n"
        "    description: opt\n    type: string\n---\n");
    CHECK(d.frontmatter.description == "long text");
    CHECK(d.frontmatter.slash_options.size() == 1);
  }
  TEST_CASE("slash option kinds (slash_option_kinds_registry / only_scalar_kinds_carry_bounds)") {
    CHECK(std::size(sk::slash_option_kinds) == 8);
    for (auto k : sk::slash_option_kinds) {
      if (sk::kind_has_numeric_bounds(k) || sk::kind_has_length_bounds(k)) {
        CHECK(sk::kind_allows_choices(k));
      }
    }
    CHECK(sk::kind_has_length_bounds("string"));
    CHECK_FALSE(sk::kind_has_numeric_bounds("string"));
    CHECK(sk::kind_has_numeric_bounds("integer"));
    CHECK_FALSE(sk::kind_has_length_bounds("integer"));
    CHECK_FALSE(sk::kind_allows_choices("user"));
  }
}

TEST_SUITE("skills.toml") {
  TEST_CASE("parses_valid_skill_manifest / skills_without_slash_options_default_to_empty") {
    const auto s = sk::parse_skill_toml("[skill]\nname = \"m\"\ndescription = \"d\"\n");
    CHECK(s.name == "m");
    CHECK(s.version == "0.1.0");
    CHECK(s.tools.empty());
    CHECK(s.prompts.empty());
    CHECK(s.slash_options.empty());
    CHECK_FALSE(s.always);
  }
  TEST_CASE("prompts_inside_skill_section_are_loaded / root / merged skill first") {
    auto s = sk::parse_skill_toml(
        "[skill]\nname = \"a\"\ndescription = \"\"\nprompts = [\"p1\", \"p2\"]\n");
    CHECK(s.prompts == std::vector<std::string>{"p1", "p2"});
    s = sk::parse_skill_toml(
        "prompts = [\"root\"]\n[skill]\nname = \"a\"\ndescription = \"\"\nprompts = [\"in\"]\n");
    CHECK(s.prompts == std::vector<std::string>{"in", "root"});
    // prompts_at_root_level_still_work: after [skill] it belongs to [skill] and loads there.
    s = sk::parse_skill_toml("[skill]\nname = \"a\"\ndescription = \"\"\n\nprompts = [\"late\"]\n");
    CHECK(s.prompts == std::vector<std::string>{"late"});
  }
  TEST_CASE("typed_slash_options_are_parsed_from_the_skill_table / localizations") {
    const auto s = sk::parse_skill_toml(
        "[skill]\nname = \"a\"\ndescription = \"d\"\n"
        "description_localizations = { de = \"D\", fr = \"F\" }\n"
        "[[skill.slash_options]]\nname = \"topic\"\ndescription = \"T\"\ntype = \"string\"\n"
        "required = true\nmax_length = 100\nchoices = [{ name = \"A\", value = \"a\" }]\n"
        "description_localizations = { de = \"Thema\" }\nunknown_key = 1\n"
        "[[skill.slash_options]]\nname = \"n\"\ndescription = \"N\"\ntype = \"integer\"\nmin = "
        "1\nmax = 2.5\n");
    CHECK(s.description_localizations.at("de") == "D");
    REQUIRE(s.slash_options.size() == 2);
    CHECK(s.slash_options[0].required);
    CHECK(*s.slash_options[0].max_length == 100);
    CHECK(s.slash_options[0].choices[0] == sk::slash_choice{"A", "a"});
    CHECK(s.slash_options[0].description_localizations.at("de") == "Thema");
    CHECK(*s.slash_options[1].min == 1.0);  // integer literal widened
    CHECK(*s.slash_options[1].max == 2.5);
  }
  TEST_CASE("load_skill_toml_parses_always_true / tools") {
    const auto s = sk::parse_skill_toml(
        "[skill]\nname = \"a\"\ndescription = \"d\"\nalways = true\nauthor = \"me\"\ntags = "
        "[\"x\"]\n"
        "[[tools]]\nname = \"run\"\ndescription = \"R\"\nkind = \"shell\"\ncommand = \"echo "
        "{{x}}\"\n"
        "args = { x = \"what\" }\ntimeout_secs = 5\nextra = true\n"
        "[[tools]]\nname = \"gh\"\ndescription = \"G\"\nkind = \"mcp\"\ntarget = \"github__x\"\n"
        "default_args = { owner = \"acme\" }\n");
    CHECK(s.always);
    CHECK(*s.author == "me");
    REQUIRE(s.tools.size() == 2);
    CHECK(s.tools[0].command == "echo {{x}}");
    CHECK(s.tools[0].args.at("x") == "what");
    CHECK(s.tools[0].timeout_secs == 5);
    CHECK(s.tools[1].command.empty());
    CHECK(*s.tools[1].target == "github__x");
    CHECK(s.tools[1].locked_args.at("owner") == "acme");
  }
  TEST_CASE(
      "rejects_unknown_field_in_skill_block / accepts_prompts_in_skill_block_with_strictness") {
    auto e = thrown([] { sk::parse_skill_toml("[skill]\nname = \"a\"\ndescriptin = \"d\"\n"); });
    CHECK(e.code() == errc::skill_invalid);
    CHECK(std::string(e.what()).find("descriptin") != std::string::npos);
    CHECK(std::string(e.what()).find("SKILL.toml:3") != std::string::npos);
    // Registry-style manifest.toml keys are unknown to the strict schema (§3.6, §8.5).
    for (const char* key :
         {"category = \"x\"", "license = \"MIT\"", "permissions = []", "aliases = [\"x\"]",
          "[skill.metadata]\nx = 1", "[[skill.tools]]\nname = \"t\""}) {
      CAPTURE(key);
      const std::string text =
          std::string("[skill]\nname = \"a\"\ndescription = \"d\"\n") + key + "\n";
      CHECK(thrown([&] { sk::parse_skill_toml(text, "manifest.toml"); }).code() ==
            errc::skill_invalid);
    }
    CHECK_NOTHROW(
        sk::parse_skill_toml("[skill]\nname = \"a\"\ndescription = \"d\"\nprompts = []\n"));
    // Unknown root tables are ignored.
    CHECK_NOTHROW(
        sk::parse_skill_toml("[metadata]\nx = 1\n[skill]\nname = \"a\"\ndescription = \"d\"\n"));
  }
  TEST_CASE(
      "parses_skill_without_forge_block / with_forge_block / "
      "rejects_unknown_field_in_forge_block") {
    const std::string base = "[skill]\nname = \"a\"\ndescription = \"d\"\n";
    CHECK_NOTHROW(sk::parse_skill_toml(
        base +
        "[forge]\nsource = \"gh\"\nowner = \"o\"\nlanguage = \"py\"\nlicense = true\nstars = 3\n"
        "updated_at = \"2026\"\n[forge.requirements]\npython = \">=3\"\n[forge.metadata]\nk = "
        "[1]\n"));
    CHECK(thrown([&] { sk::parse_skill_toml(base + "[forge]\nlicence = true\n"); }).code() ==
          errc::skill_invalid);
    CHECK(thrown([&] { sk::parse_skill_toml(base + "[forge]\nlicense = \"MIT\"\n"); }).code() ==
          errc::skill_invalid);
  }
  TEST_CASE("a missing required field is named with its table, after the fields present") {
    // Upstream's serde order: the fields present are read (a wrong type fails there), then the
    // first required field absent, in declaration order.
    const auto what = [](const std::string& t) {
      return std::string(thrown([&] { sk::parse_skill_toml(t); }).what());
    };
    CHECK(what("[skill]\ndescription = \"d\"\n") ==
          "SKILL.toml:1: missing field `name` in [skill]");
    CHECK(what("[skill]\n") == "SKILL.toml:1: missing field `name` in [skill]");
    CHECK(what("[skill]\nname = \"a\"\n") ==
          "SKILL.toml:1: missing field `description` in [skill]");
    CHECK(what("[skill]\ndescription = 1\n") ==
          "SKILL.toml:2: invalid type for `skill.description`: expected a string");
    CHECK(what("[skill]\nname = 1\n") ==
          "SKILL.toml:2: invalid type for `skill.name`: expected a string");
    const std::string base = "[skill]\nname = \"a\"\ndescription = \"d\"\n";
    CHECK(what(base + "[[tools]]\nname = \"t\"\ndescription = \"\"\n") ==
          "SKILL.toml:4: missing field `kind` in tools[0]");
    CHECK(what(base + "[[skill.slash_options]]\nname = \"o\"\n") ==
          "SKILL.toml:4: missing field `description` in skill.slash_options[0]");
    CHECK(what(base + "[[skill.slash_options]]\nname = \"o\"\ndescription = \"\"\ntype = "
                      "\"s\"\nchoices = [{ value = 1 }]\n") ==
          "SKILL.toml:8: missing field `name` in skill.slash_options[0].choices[0]");
  }
  TEST_CASE("malformed TOML of every kind is a clear error, never a crash") {
    const char* syntax[] = {"[skill",
                            "[skill]\nname = ",
                            "[skill]\nname = \"a\nx",
                            "[skill]\nname = \"a\"\nname = \"b\"",
                            "\xff\xfe",
                            "[[skill]]\n[skill]",
                            "[skill]\nname = 'a'\ndescription = { x = 1,\n}\n"};
    for (const char* t : syntax) {
      CAPTURE(t);
      const auto e = thrown([&] { sk::parse_skill_toml(t); });
      CHECK(e.code() == errc::config_parse);
      CHECK(std::string(e.what()).rfind("SKILL.toml:", 0) == 0);
    }
    const char* schema[] = {
        "x = 1\n",
        "skill = 5\n",
        "[skill]\ndescription = \"d\"\n",
        "[skill]\nname = \"a\"\n",
        "[skill]\nname = 1\ndescription = \"d\"\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\ntags = [1]\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\nalways = \"yes\"\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\n[[tools]]\nname = \"t\"\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\n[[tools]]\nname = \"t\"\ndescription = "
        "\"\"\nkind = \"shell\"\ntimeout_secs = -1\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\n[[tools]]\nname = \"t\"\ndescription = "
        "\"\"\nkind = \"shell\"\nargs = { a = 1 }\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\n[[tools]]\nname = \"t\"\ndescription = "
        "\"\"\nkind = \"x\"\nlocked_args = {}\ndefault_args = {}\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\ntools = 3\n",
        "tools = 3\n[skill]\nname = \"a\"\ndescription = \"d\"\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\n[[skill.slash_options]]\nname = \"o\"\ntype = "
        "\"string\"\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\n[[skill.slash_options]]\nname = "
        "\"o\"\ndescription = \"\"\ntype = \"string\"\nmax_length = 5000000000\n",
        "[skill]\nname = \"a\"\ndescription = \"d\"\n[[skill.slash_options]]\nname = "
        "\"o\"\ndescription = \"\"\ntype = \"string\"\nchoices = [{ name = \"x\" }]\n"};
    for (const char* t : schema) {
      CAPTURE(t);
      const auto e = thrown([&] { sk::parse_skill_toml(t); });
      CHECK(e.code() == errc::skill_invalid);
      CHECK(e.subject() == "SKILL.toml");
    }
  }
}

TEST_SUITE("skills.filter") {
  TEST_CASE("skill_bundle_admits_skill_honors_include_and_exclude") {
    sk::bundle_filter f;
    CHECK(f.admits_skill("anything"));
    f.include = {"a", "b"};
    CHECK(f.admits_skill("a"));
    CHECK_FALSE(f.admits_skill("c"));
    f.exclude = {"b"};
    CHECK_FALSE(f.admits_skill("b"));  // exclude wins
    CHECK(f.rejection("b") == "in exclude");
    CHECK(f.rejection("c") == "not in include");
    // Exact, case-sensitive, no trimming, no globs.
    CHECK_FALSE(f.admits_skill("A"));
    CHECK_FALSE(f.admits_skill(" a"));
    f.include = {"a*"};
    CHECK_FALSE(f.admits_skill("ab"));
    CHECK(f.admits_skill("a*"));
    sk::bundle_filter only_exclude{{}, {"x"}};
    CHECK(only_exclude.admits_skill("y"));
    CHECK_FALSE(only_exclude.admits_skill("x"));
  }
  TEST_CASE("rejects_invalid_skill_names / accepts_valid_skill_names (scaffold rule)") {
    for (const char* bad : {"", "-leading", "trailing-", "Upper", "with_underscore", "has space"}) {
      CAPTURE(bad);
      CHECK_FALSE(sk::is_valid_skill_name(bad));
    }
    for (const char* good :
         {"code-review", "x", "single-word-name", "version2", "abc123", "a--b"}) {
      CHECK(sk::is_valid_skill_name(good));
    }
    CHECK(std::string(thrown([] { sk::validate_skill_name("Bad"); }).what()) ==
          "skill name 'Bad' must use lowercase letters, digits, and hyphens only");
  }
}

TEST_SUITE("skills.locations") {
  const std::string install = "/i";
  sk::skills_config cfg_of(const std::string& toml) { return sk::parse_skills_config(toml); }

  TEST_CASE(
      "defaults_to_shared_skills_alias_when_unset / empty_directory_string_is_treated_as_unset") {
    auto cfg = cfg_of("[skill_bundles.smoke]\n[skill_bundles.blank]\ndirectory = \"  \\t \"\n");
    CHECK(sk::resolve_directory(cfg, install, "smoke") == "/i/shared/skills/smoke");
    CHECK(sk::resolve_directory(cfg, install, "blank") == "/i/shared/skills/blank");
    const auto e = thrown([&] { sk::resolve_directory(cfg, install, "nope"); });
    CHECK(std::string(e.what()) == "skill bundle 'nope' is not configured");
  }
  TEST_CASE("relative directories join the install root unnormalised; absolute ones stay") {
    auto cfg = cfg_of(
        "[skill_bundles.r]\ndirectory = \" shared/../x \"\n[skill_bundles.a]\ndirectory = "
        "\"/abs/dir\"\n");
    CHECK(sk::resolve_directory(cfg, install, "r") == "/i/shared/../x");
    CHECK(sk::resolve_directory(cfg, install, "a") == "/abs/dir");
  }
  TEST_CASE("validate_directory_rejects_dotdot_escape") {
    const auto e = thrown([&] { sk::validate_directory("/i/shared/../etc", install); });
    CHECK(e.code() == errc::unsafe_path);
    CHECK(std::string(e.what()) ==
          "skill-bundle directory '/i/etc' escapes the shared workspace at '/i/shared'; bundles "
          "must stay inside `<install>/shared/`");
    CHECK_NOTHROW(sk::validate_directory("/i/shared", install));
    CHECK_NOTHROW(sk::validate_directory("/i/shared/x/./y", install));
    CHECK_NOTHROW(sk::validate_directory("/i/shared/a/../b", install));
    CHECK_THROWS(sk::validate_directory("/i/sharedX", install));
    CHECK_THROWS(sk::validate_directory("/i/etc", install));
    CHECK(clawport::paths::normalize("/../a/./b/..") == "/a");
  }
  TEST_CASE(
      "uniqueness_rejects_two_bundles_pointing_at_same_dir / "
      "passes_for_distinct_default_directories") {
    auto cfg = cfg_of(
        "[skill_bundles.a]\ndirectory = \"shared/pool\"\n[skill_bundles.b]\ndirectory = "
        "\"shared/./pool\"\n");
    const auto e = thrown([&] { sk::validate_uniqueness(cfg, install); });
    CHECK(std::string(e.what()) ==
          "skill-bundles 'a' and 'b' both resolve to directory '/i/shared/pool'; each bundle must "
          "own a unique directory");
    CHECK_NOTHROW(
        sk::validate_uniqueness(cfg_of("[skill_bundles.a]\n[skill_bundles.b]\n"), install));
    // Nesting is allowed.
    CHECK_NOTHROW(sk::validate_uniqueness(
        cfg_of("[skill_bundles.a]\ndirectory = \"shared\"\n[skill_bundles.b]\n"), install));
  }
  TEST_CASE("config reading: agents, workspaces, allow_scripts, the example install") {
    auto cfg = cfg_of(
        "[skills]\nallow_scripts = true\n[agents.a]\nskill_bundles = [\"x\", \"y\"]\n"
        "[agents.b.workspace]\npath = \"/srv/b\"\n");
    CHECK(cfg.allow_scripts);
    CHECK(cfg.agents.at("a").skill_bundles == std::vector<std::string>{"x", "y"});
    CHECK(sk::agent_workspace_dir(cfg, install, "a") == "/i/agents/a/workspace");
    CHECK(sk::agent_workspace_dir(cfg, install, "b") == "/srv/b");
    CHECK(sk::agent_workspace_dir(cfg, install, "ghost") == "/i/agents/ghost/workspace");
    CHECK(sk::global_skills_dir("/i/data") == "/i/data/skills");
    const auto bad = thrown([] { sk::parse_skills_config("[agents.a]\nskill_bundles = \"x\"\n"); });
    CHECK(bad.code() == errc::config_invalid);
    CHECK(bad.subject() == "agents.a.skill_bundles");
    CHECK(thrown([] { sk::parse_skills_config("[agents"); }).code() == errc::config_parse);
  }
}
