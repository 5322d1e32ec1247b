// SPDX-License-Identifier: MIT
// Export safety at the destination, publish and recover edges (issue 9, items 1-7, 17, 18),
// each on fs::memory and on the real filesystem, each proving nothing was written or lost.
#include "harness.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

using clawport::testing::children;
using clawport::testing::harness;
using clawport::testing::memory_rig;
using clawport::testing::posix_rig;
namespace cp = clawport;
using strings = std::vector<std::string>;

namespace {

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

/// The error `run` throws (fails the test when it succeeds).
template <class P = cp::publish::exchange, class H>
cp::error refused(H& h, const cp::export_options& o) {
  try {
    h.template run<P>(o);
  } catch (const cp::error& e) {
    return e;
  }
  FAIL("the export succeeded but was expected to be refused");
  return cp::error(cp::errc::io, "");
}

/// Everything below the rig's root, after the config is written (the state to preserve).
template <class H>
std::map<std::string, std::string> state(H& h) {
  h.write("install/config.toml", h.config);
  return h.snapshot();
}

}  // namespace

#define RIGS memory_rig, posix_rig

// ---- item 1 -------------------------------------------------------------------------------

namespace {

/// An install whose workspace is configured outside it, with no skill bundles: no source
/// overlap stands between --force and the install, only the new check. `install` is where
/// the install lives below the rig's root.
template <class H>
void outside_workspace(H& h, const std::string& install) {
  h.config = cp::testing::kResearcherConfig +
             std::string("\n[agents.researcher.workspace]\npath = \"") + h.path("elsewhere/ws") +
             "\"\n";
  h.write("elsewhere/ws/notes.md", "notes");
  h.write(install + "/.secret_key", "key");
  h.write(install + "/agents/other/config.toml", "other agent");
  h.write(install + "/config.toml", h.config);
}

template <class H>
cp::error refused_at(H& h, const std::string& install, const std::string& out, bool force,
                     const std::string& home = "") {
  auto o = h.opts(force, out);
  o.config_path = h.path(install + "/config.toml");
  o.home = home.empty() ? "" : h.path(home);
  try {
    cp::basic_exporter<typename H::backend> ex(h.fsys());
    ex.run(o);
  } catch (const cp::error& e) {
    return e;
  }
  FAIL("the export succeeded but was expected to be refused");
  return cp::error(cp::errc::io, "");
}

}  // namespace

TEST_CASE_TEMPLATE("a destination that is or contains the install, its config or home is refused",
                   R, RIGS) {
  for (const bool force : {false, true}) {
    CAPTURE(force);
    {  // out_on_the_install_root_is_refused_before_anything_is_created
      harness<R> h;
      outside_workspace(h, "install");
      const auto before = h.snapshot();
      const cp::error e = refused_at(h, "install", "install", force);
      CHECK(e.code() == cp::errc::overlap);
      CHECK(has(e.what(), "is the install root"));
      CHECK(h.snapshot() == before);
    }
    {  // out_containing_the_install_root_is_refused
      harness<R> h;
      outside_workspace(h, "out/deeper/install");
      const auto before = h.snapshot();
      CHECK(has(refused_at(h, "out/deeper/install", "out", force).what(),
                "contains the install root"));
      CHECK(h.snapshot() == before);
    }
    {  // out_on_the_config_file_is_refused
      harness<R> h;
      outside_workspace(h, "install");
      const auto before = h.snapshot();
      CHECK(
          has(refused_at(h, "install", "install/config.toml", force).what(), "is the config file"));
      CHECK(h.snapshot() == before);
    }
    {  // out_on_or_above_the_home_directory_is_refused
      harness<R> h;
      outside_workspace(h, "install");
      h.write("home/me/precious", "mine");
      const auto before = h.snapshot();
      CHECK(has(refused_at(h, "install", "home/me", force, "home/me").what(),
                "is your home directory"));
      CHECK(has(refused_at(h, "install", "home", force, "home/me").what(),
                "contains your home directory"));
      CHECK(h.snapshot() == before);
    }
  }
}

// ---- item 2 -------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("an_empty_out_is_refused_not_taken_as_the_current_directory", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  const auto before = state(h);
  auto o = h.opts(true);
  o.out.clear();
  o.out_path.clear();
  const cp::error e = refused(h, o);
  CHECK(e.code() == cp::errc::invalid_argument);
  CHECK(has(e.what(), "destination is empty"));
  CHECK(h.snapshot() == before);
}

// ---- item 3 -------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("a destination whose last component is a symlink is refused, --force or not", R,
                   RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write("target/keep.txt", "mine");
  h.mkdir("empty-target");
  h.symlink("out/link", h.path("target"));
  h.symlink("out/empty-link", h.path("empty-target"));
  h.symlink("out/dangling", h.path("nowhere"));
  const auto before = state(h);
  for (const std::string name : {"link", "empty-link", "dangling"}) {
    for (const bool force : {false, true}) {
      CAPTURE(name);
      CAPTURE(force);
      const cp::error e = refused(h, h.opts(force, "out/" + name));
      CHECK(e.code() == cp::errc::unsafe_path);
      CHECK(has(e.what(), "is a symlink"));
      CHECK(has(refused<cp::publish::staged_swap>(h, h.opts(force, "out/" + name)).what(),
                "is a symlink"));
      CHECK(
          has(refused<cp::publish::none>(h, h.opts(force, "out/" + name)).what(), "is a symlink"));
      CHECK(h.snapshot() == before);
    }
  }
}

// ---- item 4 -------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("recover acts only on the exact names an export generates", R, RIGS) {
  harness<R> h;
  const strings foreign{".zeroclaw-export-AbC12",          ".zeroclaw-export-AbC1234",
                        ".zeroclaw-export-new-AbC123",     ".zeroclaw-export-old-",
                        ".zeroclaw-export-old-AbC-12",     ".zeroclaw-export-old-AbC1234",
                        ".zeroclaw-export-settings-backup"};
  for (const std::string& n : foreign) h.write("out/" + n + "/file", "keep");
  h.write("out/.zeroclaw-export-XyZ789/config.toml", "half");
  const auto keep = h.snapshot("out/.zeroclaw-export-settings-backup");
  const cp::recover_report rep =
      cp::recover_path(h.fsys().inner(), h.path("out/bundle"), "out/bundle");
  CHECK(rep.removed == 1);
  CHECK_FALSE(rep.restored);
  CHECK(rep.ignored == foreign);
  for (const std::string& n : foreign) {
    CAPTURE(n);
    CHECK(h.read("out/" + n + "/file") == "keep");
    bool named = false;
    for (const std::string& a : rep.actions) named = named || has(a, "left " + n + " alone");
    CHECK(named);
  }
  CHECK_FALSE(h.exists("out/.zeroclaw-export-XyZ789"));
  // and a retired name of the wrong grammar is never restored into a missing destination
  CHECK_FALSE(h.exists("out/bundle"));
}

TEST_CASE("the name grammar: exactly six of [A-Za-z0-9] after the prefix") {
  namespace pub = cp::publish;
  CHECK(pub::is_staging_name(".zeroclaw-export-AbC123"));
  CHECK(pub::is_staging_name(".zeroclaw-export-oldABC"));  // a token the generator can draw
  CHECK_FALSE(pub::is_staging_name(".zeroclaw-export-AbC12"));
  CHECK_FALSE(pub::is_staging_name(".zeroclaw-export-AbC1234"));
  CHECK_FALSE(pub::is_staging_name(".zeroclaw-export-AbC-12"));
  CHECK_FALSE(pub::is_staging_name(".zeroclaw-export-new-AbC123"));
  CHECK_FALSE(pub::is_staging_name(".zeroclaw-export-settings-backup"));
  CHECK(pub::is_retired_name(".zeroclaw-export-old-AbC123"));
  CHECK_FALSE(pub::is_retired_name(".zeroclaw-export-old-"));
  CHECK_FALSE(pub::is_retired_name(".zeroclaw-export-old-AbC1234"));
  for (int i = 0; i < 64; ++i) CHECK(pub::is_token(pub::random_token()));
}

// ---- item 5 -------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("recover run before every operation of an export never breaks it", R, RIGS) {
  for (const bool previous : {false, true}) {
    for (const bool swap : {false, true}) {
      CAPTURE(previous);
      CAPTURE(swap);
      harness<R> h;
      h.write(h.ws + "/IDENTITY.md", "# me");
      h.write(h.ws + "/notes/plan.md", "plan");
      if (previous) h.write("out/bundle/zeroclaw-agent.toml", "old");
      std::size_t recovers = 0;
      bool inside = false;
      h.fsys().on_op([&](auto& inner, std::string_view, std::string_view) {
        if (inside) return;
        inside = true;
        const cp::recover_report rep = cp::recover_path(inner, h.path("out/bundle"), "out/bundle");
        CHECK(rep.removed == 0);
        CHECK_FALSE(rep.restored);
        ++recovers;
        inside = false;
      });
      const cp::export_result r = swap ? h.template run<cp::publish::staged_swap>(previous)
                                       : h.template run<cp::publish::exchange>(previous);
      h.fsys().on_op({});
      CHECK(recovers > 20);
      CHECK(r.workspace.files == 2);
      CHECK(h.read("out/bundle/workspace/notes/plan.md") == "plan");
      CHECK(children(h, "out") == strings{"bundle"});
    }
  }
}

// ---- item 6 -------------------------------------------------------------------------------

namespace {

/// A deep workspace (the walk holds descriptors per level) and a previous bundle.
template <class H>
void deep_install(H& h) {
  std::string d = h.ws;
  for (int i = 1; i <= 12; ++i) d += "/d" + std::to_string(i);
  h.write(d + "/deep.md", "deep");
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write("out/bundle/zeroclaw-agent.toml", "old");
  h.write("out/bundle/workspace/old.md", "old notes");
}

/// Open descriptors of this process.
std::size_t open_descriptors() {
  std::size_t n = 0;
  cp::fs::posix p;
  auto d = p.open_root("/proc/self/fd");
  p.for_each_entry(d, [&](std::string_view) { ++n; });
  return n - 1;  // the one listing it
}

}  // namespace

TEST_CASE("a descriptor limit hit mid-export leaves no staging tree (fs::memory)") {
  std::size_t failed = 0;
  for (std::size_t limit = 1; limit < 64; ++limit) {
    CAPTURE(limit);
    harness<memory_rig> h;
    deep_install(h);
    const auto before = state(h);
    h.m().settings().max_open_handles = limit;
    try {
      h.run(true);
      h.m().settings().max_open_handles = 0;
      CHECK(children(h, "out") == strings{"bundle"});
      break;
    } catch (const cp::error& e) {
      ++failed;
      h.m().settings().max_open_handles = 0;
      CHECK(e.code() == cp::errc::limit_exceeded);
      CHECK(h.snapshot() == before);
    }
  }
  CHECK(failed > 5);
}

TEST_CASE("a descriptor limit hit mid-export leaves no staging tree (fs::posix)") {
  struct rlimit saved {};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved) == 0);
  std::size_t failed = 0;
  for (rlim_t extra = 1; extra < 64; ++extra) {
    CAPTURE(extra);
    harness<posix_rig> h;
    deep_install(h);
    const auto before = state(h);
    struct rlimit tight = saved;
    tight.rlim_cur = static_cast<rlim_t>(open_descriptors()) + extra;
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &tight) == 0);
    bool ok = false;
    std::string what;
    try {
      h.run(true);
      ok = true;
    } catch (const cp::error& e) {
      what = e.what();
    }
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &saved) == 0);
    if (ok) {
      CHECK(children(h, "out") == strings{"bundle"});
      break;
    }
    ++failed;
    CAPTURE(what);
    CHECK(h.snapshot() == before);
  }
  CHECK(failed > 5);
}

TEST_CASE_TEMPLATE("cancelled at every poll: the staging tree goes, the previous bundle stays", R,
                   RIGS) {
  for (const bool swap : {false, true}) {
    for (const bool previous : {false, true}) {
      std::size_t polls_total = 0;
      bool finished = false;
      for (std::size_t k = 1; !finished && k < 400; ++k) {
        CAPTURE(swap);
        CAPTURE(previous);
        CAPTURE(k);
        harness<R> h;
        h.with_skill_bundle();
        h.write(h.ws + "/IDENTITY.md", "# me");
        h.write(h.ws + "/notes/plan.md", "plan");
        h.write(h.skills_dir + "/web_search/SKILL.md", "# web");
        if (previous) h.write("out/bundle/zeroclaw-agent.toml", "old");
        const auto before = state(h);
        std::size_t polls = 0;
        auto o = h.opts(previous);
        o.cancelled = [&] { return ++polls == k; };
        try {
          if (swap) {
            h.template run<cp::publish::staged_swap>(o);
          } else {
            h.template run<cp::publish::exchange>(o);
          }
          finished = true;  // k is past the last poll
          polls_total = polls;
          CHECK(children(h, "out") == strings{"bundle"});
        } catch (const cp::error& e) {
          CHECK(e.code() == cp::errc::cancelled);
          CHECK(h.snapshot() == before);
        }
      }
      CHECK(finished);
      CHECK(polls_total > 8);
    }
  }
}

TEST_CASE_TEMPLATE("a cancellation between swap's renames moves the previous bundle back", R,
                   RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write("out/bundle/zeroclaw-agent.toml", "old");
  const auto before = state(h);
  auto o = h.opts(true);
  bool aside = false;
  o.cancelled = [&] {
    // true at the first poll that sees the previous bundle moved aside
    aside = h.exists("out/.zeroclaw-export-old-AbC123");
    return aside;
  };
  const cp::error e = refused<cp::publish::staged_swap>(h, o);
  CHECK(aside);
  CHECK(e.code() == cp::errc::cancelled);
  CHECK(has(e.what(), "holds what it held before"));
  CHECK(h.snapshot() == before);
}

// ---- item 7 -------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("--force over a directory that is not a bundle says so", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  h.write("out/bundle/photos/a.jpg", "pic");
  const auto dry = h.template run<cp::publish::none>(true);
  CHECK(dry.replaced_non_bundle);
  CHECK(has(cp::render_report(dry), "would replace out/bundle, which was not a bundle"));
  CHECK(h.read("out/bundle/photos/a.jpg") == "pic");
  const auto r = h.run(true);
  CHECK(r.replaced_non_bundle);
  CHECK(has(cp::render_report(r), "replaced out/bundle, which was not a bundle"));
  CHECK(cp::to_json(r)["replaced_non_bundle"] == true);
  // a bundle over a bundle is not flagged
  const auto again = h.run(true);
  CHECK_FALSE(again.replaced_non_bundle);
  CHECK_FALSE(has(cp::render_report(again), "not a bundle"));
  CHECK(cp::to_json(again)["replaced_non_bundle"] == false);
}

// ---- item 17 ------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("an export to a non-UTF-8 destination publishes and its JSON renders", R, RIGS) {
  harness<R> h;
  h.write(h.ws + "/IDENTITY.md", "# me");
  const std::string bad =
      "out/b\xff"
      "d";
  const auto r = h.run(h.opts(false, bad));
  CHECK(h.exists(bad + "/zeroclaw-agent.toml"));
  CHECK_THROWS(cp::to_json(r).dump());  // what the CLI used to print
  const std::string text = cp::render_json(r);
  CHECK(has(text,
            "\"out\": \"out/b\xef\xbf\xbd"
            "d\""));
  CHECK(nlohmann::json::parse(text)["alias"] == "researcher");
}

TEST_CASE("skills --json documents render names that are not UTF-8") {
  cp::skills::skill_view view;
  cp::skills::skill_entry e;
  e.name = "we\xfe";
  e.origin = cp::skills::skill_origin::bundle;
  e.bundle = "tools";
  e.path = "/inst/shared/skills/tools/we\xfe/SKILL.md";
  view.entries.push_back(e);
  const std::string text = cp::json::dump(cp::skills::to_json(view, "/inst"));
  CHECK(has(text, "\"path\": \"shared/skills/tools/we\xef\xbf\xbd/SKILL.md\""));
  CHECK(nlohmann::json::parse(text)["skills"][0]["bundle"] == "tools");
  cp::skills::audit_outcome o{"dir\xfe", cp::skills::audit_report{}, std::nullopt};
  o.report->findings.push_back({"f\xfe.sh", std::nullopt, "script", true});
  CHECK(has(cp::json::dump(cp::skills::to_json(std::vector<cp::skills::audit_outcome>{o})),
            "\"file\": \"f\xef\xbf\xbd.sh\""));
}

// ---- messages: recover names the tree it could not delete --------------------------------

TEST_CASE_TEMPLATE("recover that cannot delete a staging tree names it and keeps what it did", R,
                   RIGS) {
  harness<R> h;
  h.write("out/.zeroclaw-export-old-AbC123/zeroclaw-agent.toml", "old");
  h.write("out/.zeroclaw-export-XyZ789/zeroclaw-agent.toml", "half");
  h.fsys().fail_from("unlink_at", 1, EIO);
  const cp::recover_report rep = cp::recover_path(h.fsys(), h.path("out/bundle"), "out/bundle");
  h.fsys().clear_faults();
  CHECK(rep.restored);  // done before the failure, and not undone by it
  CHECK(h.read("out/bundle/zeroclaw-agent.toml") == "old");
  CHECK(rep.failed == strings{".zeroclaw-export-XyZ789"});
  bool named = false;
  for (const std::string& a : rep.actions) {
    named = named || has(a,
                         "failed to remove the incomplete staging tree .zeroclaw-export-XyZ789 "
                         "beside out/bundle");
  }
  CHECK(named);
  const cp::error e = cp::recover_failure(rep, "out/bundle");
  CHECK(has(e.what(), ".zeroclaw-export-XyZ789"));
  CHECK(e.subject() == ".zeroclaw-export-XyZ789");
  CHECK(h.read("out/.zeroclaw-export-XyZ789/zeroclaw-agent.toml") == "half");
}

// ---- issue 41 item 6 ----------------------------------------------------------------------

TEST_CASE_TEMPLATE("recover removes a dead export's empty, unlocked creation directory", R, RIGS) {
  harness<R> h;
  using base = std::decay_t<decltype(h.fsys().inner())>;
  h.write("out/keep", "keep");
  base& fs = h.fsys().inner();
  auto out = fs.open_root(h.path("out"));
  fs.make_dir_at(out, ".zeroclaw-export-new-Dead00", 0700);  // killed before its lock
  fs.make_dir_at(out, ".zeroclaw-export-new-Live00", 0700);  // an export holds it
  typename base::dir live = fs.open_dir_at(out, ".zeroclaw-export-new-Live00");
  REQUIRE(fs.try_lock(live));
  const cp::recover_report rep = cp::recover_path(fs, h.path("out/bundle"), "out/bundle");
  CHECK(rep.removed == 1);
  CHECK(rep.busy == 1);
  CHECK(rep.removed_trees == strings{".zeroclaw-export-new-Dead00"});
  CHECK(rep.ignored == strings{".zeroclaw-export-new-Live00"});
  CHECK(children(h, "out") == strings{".zeroclaw-export-new-Live00", "keep"});
  bool said = false;
  for (const std::string& a : rep.actions) {
    said = said || has(a, "removed the empty staging directory .zeroclaw-export-new-Dead00");
  }
  CHECK(said);
  // once its holder is gone (killed after the lock), the next recover removes it too
  { const typename base::dir gone = std::move(live); }
  const cp::recover_report again = cp::recover_path(fs, h.path("out/bundle"), "out/bundle");
  CHECK(again.removed_trees == strings{".zeroclaw-export-new-Live00"});
  CHECK(children(h, "out") == strings{"keep"});
}

TEST_CASE_TEMPLATE("an export whose creation directory is taken before its lock makes a fresh one",
                   R, RIGS) {
  for (const bool removed : {true, false}) {
    CAPTURE(removed);
    harness<R> h;
    using base = std::decay_t<decltype(h.fsys().inner())>;
    h.write(h.ws + "/IDENTITY.md", "# me");
    std::optional<typename base::dir> held;
    std::size_t struck = 0;
    // Between the export's mkdir and its lock: recover removes the directory, or another
    // process locks it (recover about to remove it).
    h.fsys().before_open([&](base& inner, const typename base::dir& parent, std::string_view n) {
      if (n.rfind(".zeroclaw-export-new-", 0) != 0 || struck++ > 0) return;
      if (removed) {
        CHECK(cp::recover_path(inner, h.path("out/bundle"), "out/bundle").removed == 1);
      } else {
        held.emplace(inner.open_dir_at(parent, n));
        CHECK(inner.try_lock(*held));
      }
    });
    auto o = h.opts();
    o.token.clear();  // fresh names, as a user's export draws them
    const cp::export_result r = h.template run<cp::publish::exchange>(o);
    h.fsys().before_open({});
    CHECK(struck >= 2);
    CHECK(r.workspace.files == 1);
    CHECK(h.read("out/bundle/workspace/IDENTITY.md") == "# me");
    held.reset();
    cp::recover_path(h.fsys().inner(), h.path("out/bundle"), "out/bundle");
    CHECK(children(h, "out") == strings{"bundle"});
  }
}
