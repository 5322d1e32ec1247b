// SPDX-License-Identifier: MIT
// Issue 9 part B: what goes into a bundle. Each case is run on fs::memory and on the real
// filesystem (tests/exporter/rig.hpp) and proves what a hostile or careless layout can no
// longer leak, and that a refusal writes nothing.
#include "harness.hpp"

#include <algorithm>
#include <string>
#include <vector>

using clawport::basic_exporter;
using clawport::testing::children;
using clawport::testing::harness;
using clawport::testing::memory_rig;
using clawport::testing::posix_rig;
namespace cp = clawport;
namespace sk = clawport::skills;
using strings = std::vector<std::string>;

namespace {
[[maybe_unused]] bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

/// The names of the skills `agent_skills` says the agent loads from bundle `alias`.
template <class H>
strings loaded_from_bundle(H& h, const std::string& alias) {
  const sk::skills_config cfg = sk::parse_skills_config(h.config);
  const sk::skill_view view =
      sk::agent_skills(h.fsys(), cfg, sk::install_paths{h.path("install"), ""}, "researcher");
  strings out;
  for (const auto& e : view.entries)
    if (e.loaded() && e.bundle == alias) out.push_back(e.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::string skill_md(const std::string& name, const std::string& body) {
  return "---\nname: " + name + "\ndescription: a skill\n---\n" + body + "\n";
}
}  // namespace

#define RIGS memory_rig, posix_rig

// ---- item 13: include/exclude by the skill's logical name ----------------------------

TEST_CASE_TEMPLATE("item13: an excluded skill in a differently named directory stays behind", R,
                   RIGS) {
  harness<R> h;
  h.config +=
      "skill_bundles = [\"research_tools\"]\n\n[skill_bundles.research_tools]\n"
      "exclude = [\"internal_notes\"]\n";
  h.write(h.skills_dir + "/internal-notes/SKILL.md", skill_md("internal_notes", "secret runbook"));
  h.write(h.skills_dir + "/web-search/SKILL.md", skill_md("web_search", "search the web"));
  const auto r = h.run();
  CHECK(children(h, "out/bundle/skills/research_tools") == strings{"web-search"});
  CHECK_FALSE(h.bundle_contains("secret runbook"));
  CHECK(r.skills.files == 1);
  CHECK(loaded_from_bundle(h, "research_tools") == strings{"web_search"});
}

TEST_CASE_TEMPLATE("item13: an included skill in a differently named directory travels", R, RIGS) {
  harness<R> h;
  h.config +=
      "skill_bundles = [\"research_tools\"]\n\n[skill_bundles.research_tools]\n"
      "include = [\"web_search\"]\n";
  h.write(h.skills_dir + "/web-search/SKILL.toml",
          "[skill]\nname = \"web_search\"\ndescription = \"search\"\n");
  h.write(h.skills_dir + "/web_search/SKILL.md", skill_md("other_skill", "not included"));
  const auto r = h.run();
  CHECK(r.skill_bundles == 1);
  CHECK(children(h, "out/bundle/skills/research_tools") == strings{"web-search"});
  CHECK_FALSE(h.bundle_contains("not included"));
  CHECK(loaded_from_bundle(h, "research_tools") == strings{"web_search"});
}

TEST_CASE_TEMPLATE("item13: the dry run carries the same skills by logical name", R, RIGS) {
  harness<R> h;
  h.config +=
      "skill_bundles = [\"research_tools\"]\n\n[skill_bundles.research_tools]\n"
      "exclude = [\"internal_notes\"]\n";
  h.write(h.skills_dir + "/internal-notes/SKILL.md", skill_md("internal_notes", "secret runbook"));
  h.write(h.skills_dir + "/web-search/SKILL.md", skill_md("web_search", "search the web"));
  const auto dry = h.template run<cp::publish::none>();
  CHECK(dry.skills.files == 1);
  CHECK(dry.skill_bundles == 1);
  CHECK(children(h, "out").empty());
}

// ---- item 8: the hard-link race --------------------------------------------------------

/// The writer of issue 9 item 8: a hard link of an outside file is renamed over a
/// workspace file (nlink 2 when classified); its extra name is removed when the exporter
/// opens it, so the opened descriptor shows nlink 1 again.
template <class H>
void hard_link_race(H& h) {
  h.write("outside/host-secret.txt", "HOST SECRET BYTES");
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write(h.ws + "/notes.md", "my notes");
  h.hardlink("outside/host-secret.txt", "outside/link");
  h.rename("outside/link", h.ws + "/notes.md");
  h.once_before_open("notes.md", h.id_of(h.ws), [&h] { h.remove("outside/host-secret.txt"); });
}

TEST_CASE_TEMPLATE("item8: a hard link swapped in and unlinked after classification is skipped", R,
                   RIGS) {
  harness<R> h;
  hard_link_race(h);
  const auto r = h.run();
  CHECK(r.workspace.hard_links == 1);
  CHECK(r.workspace.files == 1);
  CHECK_FALSE(h.exists("out/bundle/workspace/notes.md"));
  CHECK_FALSE(h.bundle_contains("HOST SECRET"));
}

TEST_CASE_TEMPLATE("item8: the dry run counts the same hard link as skipped", R, RIGS) {
  harness<R> h;
  hard_link_race(h);
  const auto r = h.template run<cp::publish::none>();
  CHECK(r.workspace.hard_links == 1);
  CHECK(r.workspace.files == 1);
  CHECK(children(h, "out").empty());
}

// ---- item 9: a copied tree that holds the install --------------------------------------

TEST_CASE_TEMPLATE("item9: a workspace that is the install root is refused, naming the field", R,
                   RIGS) {
  harness<R> h;
  h.write("install/.secret_key", "KEY-THAT-DECRYPTS-ENC2");
  h.with_configured_workspace(h.path("install"));
  for (const bool dry : {false, true}) {
    std::string message;
    try {
      if (dry) {
        h.template run<cp::publish::none>(h.opts());
      } else {
        h.run(h.opts());
      }
      FAIL("not refused");
    } catch (const cp::error& e) {
      message = e.what();
      CHECK(e.code() == cp::errc::overlap);
      CHECK(e.subject() == "agents.researcher.workspace.path");
    }
    CHECK(has(message, "agents.researcher.workspace.path"));
    CHECK(has(message, "the install root"));
    CHECK(children(h, "out").empty());
  }
}

TEST_CASE_TEMPLATE("item9: a workspace that is an ancestor of the install is refused", R, RIGS) {
  // `workspace.path = $HOME` while the install is `~/.zeroclaw`.
  harness<R> h;
  h.write("home/.zeroclaw/.secret_key", "KEY-THAT-DECRYPTS-ENC2");
  h.write("home/notes.md", "home notes");
  h.with_configured_workspace(h.path("home"));
  h.write("home/.zeroclaw/config.toml", h.config);
  auto o = h.opts();
  o.config_path = h.path("home/.zeroclaw/config.toml");
  basic_exporter<typename R::backend> x(h.fsys());
  try {
    x.run(o);
    FAIL("not refused");
  } catch (const cp::error& e) {
    CHECK(e.subject() == "agents.researcher.workspace.path");
    CHECK(has(e.what(), "contains the install root"));
  }
  CHECK(children(h, "out").empty());
}

TEST_CASE_TEMPLATE("item9: a workspace holding the config file a symlink points at is refused", R,
                   RIGS) {
  harness<R> h;
  h.mkdir("install");
  h.mkdir("dotfiles");
  h.with_configured_workspace(h.path("dotfiles"));
  // The config lives in the workspace; install/config.toml is a dotfile manager's link.
  h.write("dotfiles/zeroclaw.toml", h.config);
  h.symlink("install/config.toml", h.path("dotfiles/zeroclaw.toml"));
  basic_exporter<typename R::backend, cp::zeroclaw::schema_v3, cp::publish::exchange> x(h.fsys());
  try {
    x.run(h.opts());
    FAIL("not refused");
  } catch (const cp::error& e) {
    CHECK(e.subject() == "agents.researcher.workspace.path");
    CHECK(has(e.what(), "contains the config file"));
  }
  CHECK(children(h, "out").empty());
}

// ---- item 10: setuid, setgid and sticky bits never travel -------------------------------

TEST_CASE_TEMPLATE("item10: setuid, setgid and sticky bits are stripped from carried files", R,
                   RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write(h.ws + "/tool", "#!/bin/sh\n", 06755);
  h.write(h.ws + "/sticky", "x", 01644);
  if (h.mode(h.ws + "/tool") != 06755) {
    MESSAGE("this filesystem or user cannot set setuid/setgid here; checked on fs::memory");
    return;
  }
  h.run();
  CHECK(h.mode("out/bundle/workspace/tool") == 0755);
  CHECK(h.mode("out/bundle/workspace/sticky") == 0644);
}

// ---- items 14, 15, 16 and the messages: the config as input -----------------------------

namespace {
std::string deep_dotted_key(std::size_t parts) {
  std::string k = "k";
  for (std::size_t i = 1; i < parts; ++i) k += ".k";
  return k;
}
template <class H>
std::string refusal_code(H& h, cp::errc code, bool dry = false) {
  try {
    if (dry) {
      h.template run<cp::publish::none>(h.opts());
    } else {
      h.run(h.opts());
    }
  } catch (const cp::error& e) {
    CHECK(e.code() == code);
    return e.what();
  }
  FAIL("not refused");
  return {};
}
}  // namespace

TEST_CASE_TEMPLATE("item14: a 20,000-component dotted key under another agent is limit_exceeded", R,
                   RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.config += "\n[agents.other]\n" + deep_dotted_key(20000) + " = 1\n";
  const std::string message = refusal_code(h, cp::errc::limit_exceeded);
  CHECK(has(message, h.path("install/config.toml")));
  CHECK(has(message, "CLAWPORT_MAX_TOML_DEPTH"));
  CHECK(children(h, "out").empty());
  CHECK(refusal_code(h, cp::errc::limit_exceeded, true) == message);
}

TEST_CASE_TEMPLATE("item14: a 20,000-component table header is limit_exceeded", R, RIGS) {
  harness<R> h;
  h.config += "\n[" + deep_dotted_key(20000) + "]\nx = 1\n";
  const std::string message = refusal_code(h, cp::errc::limit_exceeded);
  CHECK(has(message, h.path("install/config.toml")));
  CHECK(children(h, "out").empty());
}

TEST_CASE("item14: skills list's reader refuses a 1,000,000-component key, naming the file") {
  const std::string text = "[agents.a]\n" + deep_dotted_key(1000000) + " = 1\n";
  try {
    (void)sk::parse_skills_config(text, "/i/config.toml");
    FAIL("not refused");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::limit_exceeded);
    CHECK(e.subject() == "/i/config.toml");
    CHECK(has(e.what(), "/i/config.toml:2:"));
  }
}

TEST_CASE_TEMPLATE("item15: a config that is not a regular file is refused naming it", R, RIGS) {
  harness<R> h;
  h.write("install/config.toml", h.config);
  h.fifo("install/pipe.toml");
  auto o = h.opts();
  o.config_path = h.path("install/pipe.toml");
  basic_exporter<typename R::backend> x(h.fsys());
  std::string message;
  try {
    x.run(o);
    FAIL("not refused");
  } catch (const cp::error& e) {
    message = e.what();
    CHECK(e.code() == cp::errc::unsupported);
    CHECK(e.subject() == o.config_path);
  }
  CHECK(has(message, o.config_path));
  CHECK(has(message, "not a regular file"));
  CHECK(children(h, "out").empty());
  // `skills list` reads the config with the same function: the same words.
  try {
    (void)cp::zeroclaw::read_install_config(h.fsys(), o.config_path);
    FAIL("not refused");
  } catch (const cp::error& e) {
    CHECK(std::string(e.what()) == message);
  }
}

TEST_CASE("item15: /dev/zero, /dev/urandom and a link to them are refused, never read") {
  cp::fs::posix fs;
  for (const char* dev : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
    try {
      (void)cp::zeroclaw::read_install_config(fs, dev);
      FAIL("read ", dev);
    } catch (const cp::error& e) {
      CHECK(e.code() == cp::errc::unsupported);
      CHECK(has(e.what(), dev));
    }
  }
  posix_rig r;
  r.symlink("config.toml", "/dev/zero");
  try {
    (void)cp::zeroclaw::read_install_config(fs, r.path("config.toml"));
    FAIL("read a link to /dev/zero");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::unsupported);
    CHECK(has(e.what(), "a symlink to /dev/zero"));
  }
}

TEST_CASE_TEMPLATE("item15: a config larger than the limit is refused naming it", R, RIGS) {
  harness<R> h;
  h.config += "\n# " + std::string(cp::zeroclaw::max_config_bytes, 'x') + "\n";
  const std::string message = refusal_code(h, cp::errc::limit_exceeded);
  CHECK(has(message, h.path("install/config.toml")));
  CHECK(has(message, "CLAWPORT_MAX_CONFIG_BYTES"));
  CHECK(children(h, "out").empty());
}

TEST_CASE_TEMPLATE(
    "item16: a symlinked config.toml is followed; the install stays where the name is", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write("dotfiles/zeroclaw/config.toml", h.config);
  h.symlink("install/config.toml", h.path("dotfiles/zeroclaw/config.toml"));
  basic_exporter<typename R::backend> x(h.fsys());
  const auto r = x.run(h.opts());
  CHECK(r.workspace.files == 1);  // install/agents/researcher/workspace, not dotfiles/...
  CHECK(h.read("out/bundle/workspace/IDENTITY.md") == "# me");
  CHECK(cp::zeroclaw::read_install_config(h.fsys(), h.path("install/config.toml")) == h.config);
  // A dangling link is refused in the same words by both readers.
  h.remove("dotfiles");
  std::string message;
  try {
    basic_exporter<typename R::backend> y(h.fsys());
    y.run(h.opts(false, "out/second"));
    FAIL("not refused");
  } catch (const cp::error& e) {
    message = e.what();
    CHECK(e.code() == cp::errc::not_found);
  }
  CHECK(has(message, h.path("install/config.toml")));
  CHECK_THROWS_WITH_AS(
      (void)cp::zeroclaw::read_install_config(h.fsys(), h.path("install/config.toml")),
      message.c_str(), cp::error);
}

TEST_CASE_TEMPLATE("messages: a parse error names the config's real path", R, RIGS) {
  harness<R> h;
  h.mkdir("install");
  h.write("install/agent-one.toml", "schema_version = [\n");
  auto o = h.opts();
  o.config_path = h.path("install/agent-one.toml");
  basic_exporter<typename R::backend> x(h.fsys());
  try {
    x.run(o);
    FAIL("not refused");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::config_parse);
    CHECK(std::string(e.what()).rfind(o.config_path + ":", 0) == 0);
    CHECK_FALSE(has(e.what(), "config.toml"));
  }
  CHECK(children(h, "out").empty());
}

TEST_CASE("messages: temperature is printed as written") {
  const std::string config =
      "schema_version = 3\n[providers.models.openai.m]\nmodel = \"x\"\ntemperature = 2.0000001\n"
      "[risk_profiles.r]\n[agents.a]\nmodel_provider = \"openai.m\"\nrisk_profile = \"r\"\n";
  const auto p = cp::zeroclaw::plan_export(config, "a");
  CHECK_THROWS_WITH_AS((void)cp::zeroclaw::render_config_toml(p),
                       doctest::Contains("temperature 2.0000001 is out of range"), cp::error);
}

TEST_CASE_TEMPLATE("messages: the dry run and the export word the tree-depth refusal alike", R,
                   RIGS) {
  harness<R> h;
  std::string deep = h.ws;
  for (int i = 0; i <= CLAWPORT_MAX_TREE_DEPTH; ++i) deep += "/d";
  h.write(deep + "/f.md", "deep");
  const std::string real = refusal_code(h, cp::errc::limit_exceeded);
  const std::string dry = refusal_code(h, cp::errc::limit_exceeded, true);
  CHECK(real == dry);
  CHECK(has(real, "a bundle nests at most 64 levels"));  // the bundle limit verify reads with
  CHECK(children(h, "out").empty());
}

// ---- item 11: control characters in human-readable output --------------------------------

TEST_CASE("item11: escape_for_terminal escapes controls, C1, bidi and non-UTF-8 bytes") {
  using cp::text::escape_for_terminal;
  CHECK(escape_for_terminal("ls\r\x1b[2Khidden") == "ls\\x0d\\x1b[2Khidden");
  CHECK(escape_for_terminal("tab\tnl\n") == "tab\\x09nl\\x0a");
  CHECK(escape_for_terminal("a\\b") == "a\\\\b");
  CHECK(escape_for_terminal("\xc2\x9b"
                            "31m") == "\\u{9b}31m");
  CHECK(escape_for_terminal("x\xe2\x80\xaey") == "x\\u{202e}y");
  CHECK(escape_for_terminal("\xff\xfe") == "\\xff\\xfe");
  CHECK(escape_for_terminal("caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x94\x91") ==
        "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x94\x91");
}

TEST_CASE_TEMPLATE("item11: the export report escapes a command line and a file name", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.config +=
      "mcp_bundles = [\"b\"]\n[mcp_bundles.b]\nservers = [\"srv\"]\n"
      "[[mcp.servers]]\nname = \"srv\"\ncommand = \"rm -rf ~\\r\\u001b[2Kls\"\n";
  const auto r = h.run();
  const std::string report = cp::render_report(r);
  CHECK_FALSE(has(report, "\x1b"));
  CHECK_FALSE(has(report, "\r"));
  CHECK(has(report, "rm -rf ~\\x0d\\x1b[2Kls"));
  // JSON is left to JSON's own escaping: the value is intact there.
  CHECK(has(cp::to_json(r).dump(), "\\r\\u001b[2Kls"));
}
