// SPDX-License-Identifier: MIT
// `import`'s copy: each bundle file read once and checked against the digest list as it is
// copied; bytes or a digest list changed between the verify and the copy are never installed.
#include "importer/rig.hpp"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

/// Runs `tamper` on the bundle once the apply has verified it again and is about to copy
/// the `nth` tree (its staging directory is being made): the window item 8 closes.
void tamper_before_copy(import_rig& r, std::size_t nth, std::function<void()> tamper) {
  auto seen = std::make_shared<std::size_t>(0);
  r.f.on_op([seen, nth, tamper](cp::fs::memory&, std::string_view op, std::string_view name) {
    if (op == "make_dir_at" && name.rfind(".clawport-import-", 0) == 0 && ++*seen == nth) tamper();
  });
}

/// Plans `r`'s import with `o`, runs `change` (which alters the bundle, or arms a hook that
/// does during the apply), then applies: refused as `identity_changed`, the message holding
/// each of `fragments` (and naming `subject` when given), and /dst as it was (nothing
/// written, nothing lost).
void refused_after_plan(import_rig& r, const im::import_options& o,
                        const std::function<void()>& change,
                        const std::vector<std::string>& fragments,
                        const std::string& subject = {}) {
  const auto p = r.plan(o);
  const auto snap = r.m().snapshot("/dst");
  change();
  im::apply_options a;
  a.sync = false;
  try {
    im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
    FAIL("installed bytes the plan and its digest list do not vouch for");
  } catch (const cp::error& e) {
    CHECK(e.code() == cp::errc::identity_changed);
    for (const std::string& f : fragments)
      CHECK(std::string(e.what()).find(f) != std::string::npos);
    if (!subject.empty()) CHECK(e.subject() == subject);
  }
  CHECK(r.m().snapshot("/dst") == snap);
}

/// A bundle changed after its verify: refused naming `names`.
void refused_as_changed(import_rig& r, const im::import_options& o,
                        const std::function<void()>& change, const std::string& names) {
  refused_after_plan(r, o, change, {names, "changed after it was verified"});
}

}  // namespace

TEST_CASE("issue 22 item 8: a bundle file changed between verify and copy is never installed") {
  struct tamper_case {
    const char* what;
    std::size_t tree;  // staged in path order: 1 = the skill bundle, 2 = the workspace
    std::function<void(cp::fs::memory&)> act;
    const char* names;
  };
  const std::vector<tamper_case> cases = {
      {"rewritten in place, same size", 1,
       [](cp::fs::memory& m) { m.write_file("/b/workspace/notes/plan.md", "the PLAN\n"); },
       "workspace/notes/plan.md"},
      {"grown", 1,
       [](cp::fs::memory& m) {
         m.write_file("/b/workspace/IDENTITY.md", "# researcher, longer\n");
       },
       "workspace/IDENTITY.md"},
      {"removed", 1, [](cp::fs::memory& m) { m.remove("/b/workspace/notes/plan.md"); },
       "workspace/notes/plan.md"},
      {"a file the list does not name", 1,
       [](cp::fs::memory& m) { m.write_file("/b/workspace/smuggled.sh", "rm -rf ~\n"); },
       "workspace/smuggled.sh"},
      {"the second tree, after the first was staged", 2,
       [](cp::fs::memory& m) { m.write_file("/b/workspace/notes/plan.md", "the PLAN\n"); },
       "workspace/notes/plan.md"},
      {"a skill file, before its tree is staged", 1,
       [](cp::fs::memory& m) {
         m.write_file("/b/skills/research_tools/web_search/SKILL.md", "# evil search\n");
       },
       "skills/research_tools/web_search/SKILL.md"},
  };
  // One thread, then the copy with jobs (issue 25): each tree's files are still checked
  // against the digest list in its order.
  for (const unsigned jobs : {1u, 3u})
    for (const tamper_case& c : cases) {
      CAPTURE(jobs);
      CAPTURE(c.what);
      import_rig r("schema_version = 3\n", {}, kSource, jobs > 1 ? 24 : 0);
      auto o = r.opts();
      o.jobs = jobs;
      refused_as_changed(
          r, o, [&r, &c] { tamper_before_copy(r, c.tree, [&r, &c] { c.act(r.m()); }); }, c.names);
    }
}

TEST_CASE("issue 25: apply reads each bundle file once, checking it as it copies it") {
  import_rig r;
  const auto o = r.opts();
  const auto p = r.plan(o);
  std::map<std::string, int> opened;
  r.f.on_op([&opened](cp::fs::memory&, std::string_view op, std::string_view name) {
    if (op == "open_file_at") ++opened[std::string(name)];
  });
  im::apply_options a;
  a.sync = false;
  im::apply_import(r.f, o, cp::plan::consented_to(p.plan_integrity), a);
  CHECK(opened["plan.md"] == 1);  // the verify and the copy were one read
  CHECK(opened["IDENTITY.md"] == 1);
  CHECK(opened["SKILL.md"] == 1);
  CHECK(opened["zeroclaw-agent.toml"] == 1);  // the files verify parses, read by it
  CHECK(r.m().read_file("/dst/agents/researcher/workspace/notes/plan.md") == "the plan\n");
}

TEST_CASE("issue 25: bytes changed after the shown plan, never read before the copy, refused") {
  // The apply's own verify leaves the trees' bytes to the copy (read once): a file rewritten
  // at its size after the plan was shown plans to the same integrity and is caught by the
  // copy (a size that changes changes the plan's integrity: refused before anything).
  struct change_case {
    const char* what;
    std::vector<std::string> maps;  // a mapped skill bundle is not placed, still checked
    const char* path;
    const char* bytes;
  };
  const std::vector<change_case> cases = {
      {"a workspace file, same size", {}, "/b/workspace/notes/plan.md", "the PLAN\n"},
      {"another workspace file", {}, "/b/workspace/IDENTITY.md", "# RESEARCHER\n"},
      {"a placed skill file", {}, "/b/skills/research_tools/web_search/SKILL.md", "# evil searc\n"},
      {"a skill bundle mapped to a local one",
       {"skill_bundle.research_tools=mine"},
       "/b/skills/research_tools/web_search/SKILL.md",
       "# evil searc\n"},
  };
  for (const unsigned jobs : {1u, 3u})
    for (const change_case& c : cases) {
      CAPTURE(jobs);
      CAPTURE(c.what);
      import_rig r("schema_version = 3\n\n[skill_bundles.mine]\n", {}, kSource, jobs > 1 ? 24 : 0);
      auto o = r.opts();
      o.maps = c.maps;
      o.jobs = jobs;
      refused_as_changed(
          r, o, [&r, &c] { r.m().write_file(c.path, c.bytes); }, std::string(c.path).substr(3));
      // Planned again, the full verify refuses the bundle outright.
      try {
        (void)r.plan(o);
        FAIL("a bundle that does not match its digest list was planned");
      } catch (const cp::error& e) {
        CHECK(e.code() == cp::errc::bundle_invalid);
      }
    }
}

TEST_CASE("issue 25: the plan carries the digest of the file stream, not the files") {
  // The canonical text names the bundle's files by the digest of their digest-list lines in
  // path order: for a list clawport wrote, the digest of the list file itself.
  import_rig r;
  const auto p = r.plan(r.opts());
  CHECK(p.files.streamed);
  CHECK(p.files.kept.empty());  // nothing per file held
  const std::string list = r.m().read_file("/b/zeroclaw-agent.sha256");
  CHECK(p.files.sha256 == cp::digest::sha256_hex(list));
  const std::string text = im::detail::canonical(p);
  CHECK(p.plan_integrity == cp::plan::integrity_of(text));
  const auto j = nlohmann::json::parse(text);
  CHECK(j["format"] == "clawport-import-plan-2");
  CHECK(j["files_sha256"] == p.files.sha256);
  CHECK_FALSE(j.contains("files"));
  CHECK(cp::json::dump(j, -1) == text);  // one JSON text, keys in order
  // A list a person wrote in another order names the same stream: the same digest (its
  // entries kept, sorted, to check the copy against), and the import applies.
  {
    import_rig hand;
    std::vector<std::string> lines;
    std::string rest = hand.m().read_file("/b/zeroclaw-agent.sha256");
    for (std::size_t nl; (nl = rest.find('\n')) != std::string::npos; rest.erase(0, nl + 1))
      lines.push_back(rest.substr(0, nl + 1));
    REQUIRE(lines.size() > 2);
    std::string reversed;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) reversed += *it;
    hand.m().write_file("/b/zeroclaw-agent.sha256", reversed);
    const auto q = hand.plan(hand.opts());
    CHECK_FALSE(q.files.streamed);
    CHECK(q.files.kept.size() == lines.size());
    CHECK(q.files.sha256 == p.files.sha256);
    hand.apply(hand.opts());
    CHECK(hand.m().read_file("/dst/agents/researcher/workspace/notes/plan.md") == "the plan\n");
  }
  // A bundle without a list (upstream's): its files as verify hashed them, the same stream.
  {
    import_rig bare;
    bare.m().remove("/b/zeroclaw-agent.sha256");
    const auto q = bare.plan(bare.opts());
    CHECK_FALSE(q.files.streamed);
    CHECK(q.files.sha256 == p.files.sha256);
    bare.apply(bare.opts());
    CHECK(bare.m().read_file("/dst/shared/skills/research_tools/web_search/SKILL.md") ==
          "# web search\n");
  }
}

namespace {

/// The bundle's digest list with `edit` applied to its lines (each with its newline).
void edit_list(cp::fs::memory& m, const std::function<void(std::vector<std::string>&)>& edit) {
  std::vector<std::string> lines;
  std::string rest = m.read_file("/b/zeroclaw-agent.sha256");
  for (std::size_t nl; (nl = rest.find('\n')) != std::string::npos; rest.erase(0, nl + 1))
    lines.push_back(rest.substr(0, nl + 1));
  edit(lines);
  std::string text;
  for (const std::string& l : lines) text += l;
  m.write_file("/b/zeroclaw-agent.sha256", text);
}

std::string list_line(const std::string& path, const std::string& bytes) {
  return cp::digest::sha256_hex(bytes) + "  " + path + "\n";
}

/// Runs `tamper` just before the apply opens the bundle's digest list to copy against it:
/// after as many opens of the list as a plan makes (the apply's own plan).
void tamper_before_list_copy(import_rig& r, const im::import_options& o,
                             std::function<void()> tamper) {
  auto opens = std::make_shared<std::size_t>(0);
  const auto count = [opens](cp::fs::memory&, std::string_view op, std::string_view name) {
    if (op == "open_file_at" && name == "zeroclaw-agent.sha256") ++*opens;
  };
  r.f.on_op(count);
  (void)r.plan(o);
  const std::size_t planned = *opens;
  *opens = 0;
  r.f.on_op([opens, planned, count, tamper](cp::fs::memory& m, std::string_view op,
                                            std::string_view name) {
    count(m, op, name);
    if (op == "open_file_at" && name == "zeroclaw-agent.sha256" && *opens == planned + 1) tamper();
  });
}

}  // namespace

TEST_CASE("issue 25: a digest list rewritten between the apply's verify and its copy is refused") {
  // Each file the copy meets matches its line, but the list is not the stream the plan
  // (and the operator) hashed: refused once the list is read to its end, nothing published.
  struct list_case {
    const char* what;
    std::function<void(cp::fs::memory&)> act;
  };
  const std::vector<list_case> cases = {
      {"a file and its line removed",
       [](cp::fs::memory& m) {
         m.remove("/b/workspace/notes/plan.md");
         edit_list(m, [](std::vector<std::string>& lines) {
           lines.erase(std::remove_if(lines.begin(), lines.end(),
                                      [](const std::string& l) {
                                        return l.find("workspace/notes/plan.md") !=
                                               std::string::npos;
                                      }),
                       lines.end());
         });
       }},
      {"a file and its line added",
       [](cp::fs::memory& m) {
         m.write_file("/b/workspace/notes/extra.md", "more\n");
         edit_list(m, [](std::vector<std::string>& lines) {
           lines.push_back(list_line("workspace/notes/extra.md", "more\n"));
           std::sort(lines.begin(), lines.end(), [](const std::string& a, const std::string& b) {
             return a.substr(66) < b.substr(66);
           });
         });
       }},
      {"a file rewritten and its line with it",
       [](cp::fs::memory& m) {
         m.write_file("/b/workspace/IDENTITY.md", "# evil\n");
         edit_list(m, [](std::vector<std::string>& lines) {
           for (std::string& l : lines)
             if (l.find("workspace/IDENTITY.md") != std::string::npos)
               l = list_line("workspace/IDENTITY.md", "# evil\n");
         });
       }},
      {"a line of a file at the root changed",
       [](cp::fs::memory& m) {
         edit_list(m, [](std::vector<std::string>& lines) {
           for (std::string& l : lines)
             if (l.find("  config.toml") != std::string::npos) l = list_line("config.toml", "x");
         });
       }},
  };
  for (const list_case& c : cases) {
    CAPTURE(c.what);
    import_rig r;
    const auto o = r.opts();
    refused_after_plan(
        r, o, [&r, &o, &c] { tamper_before_list_copy(r, o, [&r, &c] { c.act(r.m()); }); },
        {"not the one the plan was made with"}, "zeroclaw-agent.sha256");
    im::apply_options a;
    a.sync = false;
    // The same change before the apply's verify: the plan itself changed, refused before
    // anything is copied.
    import_rig early;
    const auto q = early.plan(o);
    c.act(early.m());
    const auto before = early.m().snapshot("/dst");
    try {
      im::apply_import(early.f, o, cp::plan::consented_to(q.plan_integrity), a);
      FAIL("applied a plan of another bundle");
    } catch (const cp::error& e) {
      CHECK(
          (e.code() == cp::errc::plan_integrity_mismatch || e.code() == cp::errc::bundle_invalid));
    }
    CHECK(early.m().snapshot("/dst") == before);
  }
}
