// SPDX-License-Identifier: MIT
// Anchored and configured root opening (spec §7.3) on every backend: one table of
// hostile layouts, each with its exact outcome, most of them upstream §10.B tests.
#include "support/test.hpp"

#include "fixture.hpp"
#include "racing.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

using clawport::errc;
using clawport::error;
namespace fs = clawport::fs;
namespace bundle = clawport::bundle;

template <class F>
struct root_case {
  const char* name;  // the upstream test it ports, or what it adds
  std::function<void(F&)> layout;
  std::string relative;    // anchored: from <root>/install; empty = configured
  std::string family;      // "agents" or "shared"
  std::string configured;  // configured: path below <root>
  std::string race_on;     // entry whose classification triggers `race`
  std::function<void(F&)> race;
  fs::root_status status;  // expected when no error
  std::string error;       // expected substring of the thrown message, if any
  errc code = errc::io;    // expected code when `error` is set
  std::string refusal;     // expected substring of the workspace/skill refusal
};

template <class F>
std::vector<root_case<F>> root_cases() {
  using S = fs::root_status;
  auto workspace = [](F& f) {
    f.mkdir("install/agents/researcher/workspace");
    f.write("install/agents/researcher/workspace/IDENTITY.md", "me");
  };
  auto skills = [](F& f) {
    f.mkdir("install/shared/skills/research_tools/web_search");
    f.write("install/shared/skills/research_tools/web_search/SKILL.md", "skill");
  };
  auto outside = [](F& f) {
    f.mkdir("outside/researcher/workspace");
    f.write("outside/researcher/workspace/secret", "host");
    f.mkdir("outside/research_tools/web_search");
    f.write("outside/research_tools/web_search/SKILL.md", "host skill");
  };
  const std::string ws = "agents/researcher/workspace";
  const std::string sk = "shared/skills/research_tools";
  std::vector<root_case<F>> t;
  // clang-format off
  t.push_back({"default workspace present", [=](F& f) { workspace(f); },
               ws, "agents", "", "", {}, S::opened, "", errc::io, ""});
  t.push_back({"missing_workspace_is_not_an_error", [](F& f) { f.mkdir("install/agents"); },
               ws, "agents", "", "", {}, S::nothing, "", errc::io, ""});
  t.push_back({"missing install: agents absent is nothing", [](F& f) { f.mkdir("install"); },
               ws, "agents", "", "", {}, S::nothing, "", errc::io, ""});
  t.push_back({"a_skill_bundle_with_no_content_is_recorded... (bundle dir missing)",
               [](F& f) { f.mkdir("install/shared/skills"); },
               sk, "shared", "", "", {}, S::nothing, "", errc::io, ""});
  t.push_back({"a_skill_root_reached_through_a_symlinked_ancestor_is_refused",
               [=](F& f) { outside(f); f.mkdir("install/shared"); f.symlink("install/shared/skills", "../../outside"); },
               sk, "shared", "", "", {}, S::escaped, "", errc::io, "symlink"});
  t.push_back({"a_skill_root_redirected_inside_the_install_is_refused",
               [](F& f) { f.mkdir("install/private-skills/research_tools/web_search");
                          f.mkdir("install/shared"); f.symlink("install/shared/skills", "../private-skills"); },
               sk, "shared", "", "", {}, S::escaped, "", errc::io, "symlink"});
  t.push_back({"a_workspace_reached_through_a_symlinked_ancestor_is_refused",
               [=](F& f) { outside(f); f.mkdir("install"); f.symlink("install/agents", "../outside"); },
               ws, "agents", "", "", {}, S::escaped, "", errc::io, "symlink"});
  t.push_back({"a_default_workspace_redirected_inside_the_install_is_refused",
               [](F& f) { f.mkdir("install/elsewhere/researcher/workspace"); f.symlink("install/agents", "elsewhere"); },
               ws, "agents", "", "", {}, S::escaped, "", errc::io, "symlink"});
  t.push_back({"a_workspace_ancestor_replaced_mid_walk_fails_the_export (root seam)",
               [=](F& f) { workspace(f); outside(f); },
               ws, "agents", "", "agents",
               [](F& f) { f.rename("install/agents", "install/agents.moved"); f.symlink("install/agents", "../outside"); },
               S::nothing, "failed to open", errc::io, ""});
  t.push_back({"a_skill_ancestor_replaced_mid_walk_fails_the_export (root seam)",
               [=](F& f) { skills(f); outside(f); },
               sk, "shared", "", "skills",
               [](F& f) { f.rename("install/shared/skills", "install/shared/skills.moved");
                          f.symlink("install/shared/skills", "../../outside"); },
               S::nothing, "failed to open", errc::io, ""});
  t.push_back({"a_walk_component_replaced_by_another_directory_fails_the_export (root seam)",
               [=](F& f) { skills(f); f.mkdir("install/shared/other/research_tools"); },
               sk, "shared", "", "skills",
               [](F& f) { f.rename("install/shared/skills", "install/shared/skills.old");
                          f.rename("install/shared/other", "install/shared/skills"); },
               S::nothing, "was replaced while the export was opening it", errc::identity_changed, ""});
  t.push_back({"the bundle root itself swapped for another directory (root seam)",
               [=](F& f) { skills(f); f.mkdir("install/shared/skills/impostor/x"); },
               sk, "shared", "", "research_tools",
               [](F& f) { f.rename("install/shared/skills/research_tools", "install/shared/skills/old");
                          f.rename("install/shared/skills/impostor", "install/shared/skills/research_tools"); },
               S::nothing, "replaced", errc::identity_changed, ""});
  t.push_back({"a_file_where_the_workspace_should_be_fails_the_export",
               [](F& f) { f.mkdir("install/agents/researcher"); f.write("install/agents/researcher/workspace", "file"); },
               ws, "agents", "", "", {}, S::nothing, "exists but is not a directory", errc::unsafe_path, ""});
  t.push_back({"a file where an ancestor should be",
               [](F& f) { f.mkdir("install/agents"); f.write("install/agents/researcher", "file"); },
               ws, "agents", "", "", {}, S::nothing, "install/agents/researcher exists but is not a directory", errc::unsafe_path, ""});
  t.push_back({"a FIFO where the workspace should be",
               [](F& f) { f.mkdir("install/agents/researcher"); f.fifo("install/agents/researcher/workspace"); },
               ws, "agents", "", "", {}, S::nothing, "not a directory", errc::unsafe_path, ""});
  t.push_back({"a_symlinked_skill_bundle_root_is_refused",
               [=](F& f) { outside(f); f.mkdir("install/shared/skills"); f.symlink("install/shared/skills/research_tools", "../../../outside/research_tools"); },
               sk, "shared", "", "", {}, S::symlinked, "", errc::io, "resolves to the symlink"});
  t.push_back({"a symlinked default workspace root",
               [=](F& f) { outside(f); f.mkdir("install/agents/researcher"); f.symlink("install/agents/researcher/workspace", "/"); },
               ws, "agents", "", "", {}, S::symlinked, "", errc::io, "is a symlink"});
  t.push_back({"a relative outside its family escapes without opening anything",
               [=](F& f) { workspace(f); },
               ws, "shared", "", "", {}, S::escaped, "", errc::io, "leaves that tree"});
  t.push_back({"a `..` component escapes even when it stays inside",
               [=](F& f) { skills(f); },
               "shared/skills/../skills/research_tools", "shared", "", "", {}, S::escaped, "", errc::io, "leaves that tree"});
  t.push_back({"a component longer than the platform allows",
               [](F& f) { f.mkdir("install/agents"); },
               "agents/" + std::string(300, 'n'), "agents", "", "", {}, S::nothing, "failed to inspect", errc::limit_exceeded, ""});
  // Configured workspaces (workspace.path set).
  t.push_back({"configured workspace present",
               [](F& f) { f.mkdir("home/holder/workspace"); },
               "", "", "home/holder/workspace", "", {}, S::opened, "", errc::io, ""});
  t.push_back({"configured workspace with a trailing slash",
               [](F& f) { f.mkdir("home/holder/workspace"); },
               "", "", "home/holder/workspace/", "", {}, S::opened, "", errc::io, ""});
  t.push_back({"configured workspace missing",
               [](F& f) { f.mkdir("home/holder"); },
               "", "", "home/holder/workspace", "", {}, S::nothing, "", errc::io, ""});
  t.push_back({"configured workspace whose parent is missing",
               [](F& f) { f.mkdir("home"); },
               "", "", "home/holder/workspace", "", {}, S::nothing, "", errc::io, ""});
  t.push_back({"configured workspace below a symlinked ancestor (exempt from the walk)",
               [](F& f) { f.mkdir("real/workspace"); f.symlink("home", "real"); },
               "", "", "home/workspace", "", {}, S::opened, "", errc::io, ""});
  t.push_back({"a_configured_workspace_swapped_for_a_link_mid_open_fails_the_export (root seam)",
               [=](F& f) { outside(f); f.mkdir("home/holder/workspace"); },
               "", "", "home/holder/workspace", "workspace",
               [](F& f) { f.rename("home/holder/workspace", "home/holder/moved");
                          f.symlink("home/holder/workspace", "../../outside/researcher/workspace"); },
               S::nothing, "failed to open", errc::io, ""});
  t.push_back({"a_configured_workspace_path_ending_in_parent_dir_is_refused",
               [](F& f) { f.mkdir("home/workspace/inner"); },
               "", "", "home/workspace/inner/..", "", {}, S::nothing, "plain directory name", errc::unsafe_path, ""});
  t.push_back({"a_symlinked_workspace_root_is_refused",
               [=](F& f) { outside(f); f.mkdir("home"); f.symlink("home/workspace", "../outside/researcher/workspace"); },
               "", "", "home/workspace", "", {}, S::symlinked, "", errc::io, "is a symlink"});
  t.push_back({"a file where the configured workspace should be",
               [](F& f) { f.mkdir("home"); f.write("home/workspace", "x"); },
               "", "", "home/workspace", "", {}, S::nothing, "exists but is not a directory", errc::unsafe_path, ""});
  // clang-format on
  return t;
}

}  // namespace

TEST_CASE_TEMPLATE("roots: the hostile layout table (§7.3, §10.B)", F, CLAWPORT_FS_FIXTURES) {
  for (const root_case<F>& c : root_cases<F>()) {
    CAPTURE(c.name);
    F f;
    c.layout(f);
    clawport::testing::racing<typename F::backend> fs(f.fs);
    auto before = f.snapshot();
    if (c.race) {
      fs.after_classify(c.race_on, [&] {
        c.race(f);
        before = f.snapshot();
      });
    }
    const std::string install = f.root_path() + "/install";
    const std::string configured = f.root_path() + "/" + c.configured;
    auto open = [&] {
      return c.relative.empty() ? fs::open_configured_root(fs, configured, "workspace.path")
                                : fs::open_anchored_root(fs, install, c.relative, c.family);
    };
    if (!c.error.empty()) {
      try {
        open();
        FAIL("expected an error containing: " << c.error);
      } catch (const error& e) {
        CHECK_MESSAGE(std::string(e.what()).find(c.error) != std::string::npos, e.what());
        CHECK(e.code() == c.code);
      }
    } else {
      auto r = open();
      CHECK(r.status == c.status);
      if (r.status == fs::root_status::opened) {
        REQUIRE(r.handle);
        CHECK(fs.stat(*r.handle).id == r.id);
      } else {
        CHECK_FALSE(r.handle);
      }
      if (!c.refusal.empty()) {
        std::string text =
            c.family == "shared"
                ? bundle::skill_root_refusal(r, "research_tools", install + "/" + c.relative).what()
                : bundle::workspace_root_refusal(r, configured).what();
        CHECK_MESSAGE(text.find(c.refusal) != std::string::npos, text);
      }
    }
    if (c.race) CHECK(fs.fired());
    // Opening never writes and never disturbs what lies outside.
    CHECK(f.snapshot() == before);
  }
}

TEST_CASE_TEMPLATE("roots: the identity of an opened root is the classified one", F,
                   CLAWPORT_FS_FIXTURES) {
  F f;
  f.mkdir("install/agents/a/workspace");
  f.mkdir("install/agents/b/workspace");
  auto a = fs::open_anchored_root(f.fs, f.root_path() + "/install", "agents/a/workspace", "agents");
  auto b = fs::open_anchored_root(f.fs, f.root_path() + "/install", "agents/b/workspace", "agents");
  REQUIRE(a.opened());
  REQUIRE(b.opened());
  CHECK(a.id != b.id);
  auto again = fs::open_configured_root(f.fs, f.root_path() + "/install/agents/a/workspace",
                                        "workspace.path");
  REQUIRE(again.opened());
  CHECK(again.id == a.id);
}

TEST_CASE_TEMPLATE("roots: exact refusal wording (§7.3)", F, CLAWPORT_FS_FIXTURES) {
  F f;
  f.mkdir("install/agents/researcher");
  f.write("install/agents/researcher/workspace", "x");
  const std::string install = f.root_path() + "/install";
  try {
    fs::open_anchored_root(f.fs, install, "agents/researcher/workspace", "agents");
    FAIL("expected a refusal");
  } catch (const error& e) {
    CHECK(std::string(e.what()) ==
          install +
              "/agents/researcher/workspace exists but is not a directory; the export refuses "
              "to publish a bundle that silently lacks the source it names");
    CHECK(e.subject() == install + "/agents/researcher/workspace");
  }
  try {
    fs::open_configured_root(f.fs, "/", "workspace.path");
    FAIL("expected a refusal");
  } catch (const error& e) {
    CHECK(std::string(e.what()) ==
          "the configured `workspace.path` / does not end in a plain directory name, so what "
          "is copied cannot be bound to what was checked; set `workspace.path` to the resolved "
          "directory and try again");
  }
  auto escaped = fs::open_anchored_root(f.fs, install, "shared/../agents", "agents");
  CHECK(escaped.status == fs::root_status::escaped);
  CHECK(escaped.at == install + "/shared/../agents");
  CHECK(std::string(bundle::workspace_root_refusal(escaped, "/ws").what()) ==
        "the agent workspace /ws is not reachable through real directories under the install's "
        "agents tree: " +
            install +
            "/shared/../agents is a symlink or leaves that tree, so the copy cannot prove what "
            "it would carry");
  fs::root_result<typename F::backend> sym;
  sym.status = fs::root_status::symlinked;
  CHECK(std::string(bundle::workspace_root_refusal(sym, "/ws").what()) ==
        "the agent workspace /ws is a symlink; the bundle would carry whatever it points at as "
        "the agent's own tree, so set `workspace.path` to the real directory and export again");
  CHECK(std::string(bundle::skill_root_refusal(sym, "tools", "/s/tools").what()) ==
        "skill bundle `tools` resolves to the symlink /s/tools; a bundle directory must be a "
        "real directory inside the install's shared tree");
  sym.status = fs::root_status::escaped;
  sym.at = "/s";
  CHECK(std::string(bundle::skill_root_refusal(sym, "tools", "/s/tools").what()) ==
        "skill bundle `tools` at /s/tools is not reachable through real directories under the "
        "install's shared tree: /s is a symlink or leaves that tree, so the copy cannot prove "
        "what it would carry");
  try {
    fs::open_configured_root(f.fs, "relative/workspace", "workspace.path");
    FAIL("expected a refusal");
  } catch (const error& e) {
    CHECK(e.code() == errc::invalid_argument);
  }
}
