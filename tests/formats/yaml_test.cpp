// SPDX-License-Identifier: MIT
// The strict YAML subset (formats/yaml.hpp): Core schema resolution, the refused features with
// their kind, line and column, bounds, BOM/CRLF and block scalars. Named after the upstream
// tests of openclaw-claws.md §9 where there is one.
#include "support/test.hpp"

#include <string>
#include <vector>

namespace {

using value = nlohmann::ordered_json;

value Y(const std::string& text) {
  const auto r = clawport::yaml::parse(text);
  if (!r.ok()) FAIL("test YAML does not parse: " << r.error->where());
  return r.value;
}

clawport::yaml::failure yaml_error(const std::string& text) {
  const auto r = clawport::yaml::parse(text);
  REQUIRE_FALSE(r.ok());
  return *r.error;
}

}  // namespace

TEST_SUITE("formats.yaml") {
  TEST_CASE("block and flow collections, scalars, Core schema resolution") {
    const value v =
        Y("# comment\n"
          "a: 1\n"
          "b: [x, 'y', \"z\\u00e9\", {k: v}]\n"
          "c:\n  - yes\n  - off\n  - ~\n  - 0x1F\n  - 0o17\n  - 1.50\n  - 1e3\n  - TRUE\n"
          "d: |\n  line one\n  line two\n"
          "e: >-\n  folded\n  text\n"
          "f: plain\n  continued\n"
          "\"quoted key\": 'it''s'\n");
    CHECK(clawport::json::stable_stringify(v) ==
          "{\"a\":1,\"b\":[\"x\",\"y\",\"zé\",{\"k\":\"v\"}],\"c\":[\"yes\",\"off\",null,31,15,1.5,"
          "1000,true],\"d\":\"line one\\nline two\\n\",\"e\":\"folded text\",\"f\":\"plain "
          "continued\",\"quoted key\":\"it's\"}");
  }

  TEST_CASE("the example frontmatter and profile read as JSON data") {
    const value v = Y("schemaVersion: 1\nagent:\n  id: x\n  identity:\n    emoji: \"🚨\"\n");
    CHECK(v["agent"]["identity"]["emoji"] == "🚨");
    CHECK(v["schemaVersion"].is_number_integer());
  }

  TEST_CASE("each forbidden feature is refused with its kind, line and column") {
    struct row {
      const char* text;
      clawport::yaml::issue_kind kind;
      std::size_t line, column;
    };
    const row rows[] = {
        {"a: &x 1\nb: 2\n", clawport::yaml::issue_kind::anchor, 1, 4},
        {"a: 1\nb: *x\n", clawport::yaml::issue_kind::alias, 2, 4},
        {"a: !!str 1\n", clawport::yaml::issue_kind::tag, 1, 4},
        {"a: !custom x\n", clawport::yaml::issue_kind::tag, 1, 4},
        {"base: {a: 1}\nmerged:\n  <<: {b: 2}\n", clawport::yaml::issue_kind::merge_key, 3, 3},
        {"? complex\n: value\n", clawport::yaml::issue_kind::complex_key, 1, 1},
        {"[a, b]: c\n", clawport::yaml::issue_kind::complex_key, 1, 1},
        {"1: one\n", clawport::yaml::issue_kind::non_string_key, 1, 1},
        {"true: yes\n", clawport::yaml::issue_kind::non_string_key, 1, 1},
        {"~: nothing\n", clawport::yaml::issue_kind::non_string_key, 1, 1},
        {"a: .inf\n", clawport::yaml::issue_kind::non_finite, 1, 4},
        {"a: -.Inf\n", clawport::yaml::issue_kind::non_finite, 1, 4},
        {"a: .nan\n", clawport::yaml::issue_kind::non_finite, 1, 4},
        {"a: 1e999\n", clawport::yaml::issue_kind::non_finite, 1, 4},
        {"a: 1\na: 2\n", clawport::yaml::issue_kind::duplicate_key, 2, 1},
        {"{a: 1, \"a\": 2}\n", clawport::yaml::issue_kind::duplicate_key, 1, 8},
        {"a: 1\n---\nb: 2\n", clawport::yaml::issue_kind::multiple_documents, 2, 1},
        {"%YAML 1.2\n---\na: 1\n", clawport::yaml::issue_kind::syntax, 1, 1},
        {"a: [1, 2\n", clawport::yaml::issue_kind::syntax, 1, 4},
        {"a: b: c\n", clawport::yaml::issue_kind::syntax, 1, 4},
        {"a:\n\tb: 1\n", clawport::yaml::issue_kind::syntax, 2, 1},
        {"a: \"unterminated\n", clawport::yaml::issue_kind::syntax, 1, 4},
        {"a: 1\n  b: 2\n", clawport::yaml::issue_kind::syntax, 2, 4},
        {"a: \"\\q\"\n", clawport::yaml::issue_kind::syntax, 1, 5},
        {"a: \"\\ud800\"\n", clawport::yaml::issue_kind::syntax, 1, 5},
        {"a: @x\n", clawport::yaml::issue_kind::syntax, 1, 4},
        {"a: x\x01y\n", clawport::yaml::issue_kind::syntax, 1, 5},
    };
    for (const auto& r : rows) {
      INFO(r.text);
      const auto f = yaml_error(r.text);
      CHECK(f.kind == r.kind);
      CHECK(f.line == r.line);
      CHECK(f.column == r.column);
    }
  }

  TEST_CASE("unsupported features are the four OpenClaw names plus the JSON-less ones") {
    CHECK(clawport::yaml::feature_name(clawport::yaml::issue_kind::alias) == "aliases");
    CHECK(clawport::yaml::feature_name(clawport::yaml::issue_kind::anchor) == "anchors");
    CHECK(clawport::yaml::feature_name(clawport::yaml::issue_kind::tag) == "explicit tags");
    CHECK(clawport::yaml::feature_name(clawport::yaml::issue_kind::merge_key) == "merge keys");
    CHECK(clawport::yaml::is_unsupported_feature(clawport::yaml::issue_kind::non_finite));
    CHECK_FALSE(clawport::yaml::is_unsupported_feature(clawport::yaml::issue_kind::duplicate_key));
  }

  TEST_CASE("depth and size are bounded") {
    clawport::yaml::options opt;
    opt.max_depth = 4;
    CHECK(clawport::yaml::parse("a: [[[1]]]\n", opt).ok());
    auto r = clawport::yaml::parse("a: [[[[1]]]]\n", opt);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->kind == clawport::yaml::issue_kind::too_deep);
    std::string deep;
    for (int k = 0; k < 10000; ++k) deep += "- ";
    deep += "x\n";
    r = clawport::yaml::parse(deep);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->kind == clawport::yaml::issue_kind::too_deep);
    opt = {};
    opt.max_bytes = 8;
    CHECK(clawport::yaml::parse("a: 12345", opt).ok());
    r = clawport::yaml::parse("a: 123456", opt);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->kind == clawport::yaml::issue_kind::too_large);
  }

  TEST_CASE("a BOM, CRLF line breaks and an explicit document start are read") {
    CHECK(clawport::json::stable_stringify(
              Y("\xEF\xBB\xBF---\r\na: 1\r\nb:\r\n  - x\r\n...\r\n")) == "{\"a\":1,\"b\":[\"x\"]}");
    CHECK(Y("# only a comment\n").is_null());
  }

  TEST_CASE("block scalar chomping and indentation indicators") {
    CHECK(Y("a: |-\n  x\n\n")["a"] == "x");
    CHECK(Y("a: |+\n  x\n\n")["a"] == "x\n\n");
    CHECK(Y("a: |\n  x\n\n")["a"] == "x\n");
    CHECK(Y("a: |2\n    x\n  y\n")["a"] == "  x\ny\n");
    CHECK(Y("a: >\n  one\n  two\n\n  three\n    more\n")["a"] == "one two\nthree\n  more\n");
  }

  TEST_CASE("the writer's text reads back as the same document (yaml_writer.hpp)") {
    const value doc =
        value::parse(R"({"schemaVersion":1,"agent":{"id":"demo","name":"Demo: the one"},
      "flags":["yes","no","null","1.5","","~","a b","# not a comment","plain-word"],
      "empty":{},"none":[],"n":-2.5,"t":true,"z":null,
      "nested":[{"k":"v","list":[1,[2,3]]},["x"]]})");
    const std::string text = clawport::yaml::to_yaml(doc);
    CHECK(text.rfind("schemaVersion: 1\nagent:\n  id: demo\n", 0) == 0);
    CHECK(text.find("  - plain-word\n") != std::string::npos);  // a plain word stays plain
    CHECK(text.find("  - yes\n") != std::string::npos);         // YAML 1.2: `yes` is a string
    CHECK(text.find("  - \"null\"\n") != std::string::npos);    // a Core-schema word is quoted
    CHECK(Y(text) == doc);
    CHECK(clawport::yaml::to_yaml(value("x")) == "x\n");
  }

  TEST_CASE("strings are plain where OpenClaw's writer (the yaml package) writes them plain") {
    // What `claws export` of OpenClaw 2026.9.6 writes (issue 42 §2.5; the oracle suite
    // compares a whole CLAW.md): `${VAR}`, words with spaces, cron expressions stay plain.
    const value doc = value::parse(R"({"env":"${API_TOKEN}","cron":"0 9 * * 1-5",
      "text":"Summarize open incidents.","at":"@triage","num":"1.5","colon":"a: b",
      "quote":"say \"hi\"","lead":"\"q\" x","dash":"- x","hash":"a #b",
      "url":"https://x.example/mcp"})");
    CHECK(clawport::yaml::to_yaml(doc) ==
          "env: ${API_TOKEN}\ncron: 0 9 * * 1-5\ntext: Summarize open incidents.\n"
          "at: \"@triage\"\nnum: \"1.5\"\ncolon: \"a: b\"\nquote: say \"hi\"\n"
          "lead: '\"q\" x'\n"
          "dash: \"- x\"\nhash: \"a #b\"\nurl: https://x.example/mcp\n");
    CHECK(Y(clawport::yaml::to_yaml(doc)) == doc);
  }
}
