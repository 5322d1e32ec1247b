// SPDX-License-Identifier: MIT
// The fault-injection sweep and the crash sweep over a whole export on fs::faulty<memory>:
// count the export's operations once, then fail each one (ENOSPC, then EIO), and crash
// after each one (on 3 threads, every k-th one with CLAWPORT_SWEEP_STRIDE=k: test.hpp). A
// reported failure must leave the previous bundle byte-identical with no staging or retired
// directory beside it; a crash must leave the old bundle, the new one, or (swap only) the
// documented pair that `recover` turns back into the old bundle.
#include "harness.hpp"

#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

using clawport::testing::children;
using clawport::testing::harness;
using clawport::testing::memory_rig;
using clawport::testing::swept;
namespace cp = clawport;
using snapshot_t = std::map<std::string, std::string>;

namespace {

/// A full install: workspace with notes, memory store, identity document, a skill bundle
/// with an excluded skill; and (when `previous`) an earlier bundle at the destination.
void install(harness<memory_rig>& h, bool previous) {
  h.with_skill_bundle();
  h.with_identity("identity/aieos.json");
  h.write(h.ws + "/IDENTITY.md", "# researcher");
  h.write(h.ws + "/identity/aieos.json", "{\"name\": \"researcher\"}");
  h.write(h.ws + "/notes/plan.md", "the plan");
  h.write(h.ws + "/notes/deep/todo.md", "todo");
  h.write(h.ws + "/memory/brain.db", "SQLite format 3");
  h.write(h.ws + "/MEMORY_SNAPSHOT.md", "core memories");
  h.write(h.skills_dir + "/web_search/SKILL.md", "# web search");
  h.write(h.skills_dir + "/web_search/run.sh", "#!/bin/sh\n", 0755);
  h.write(h.skills_dir + "/internal_only/SKILL.md", "internal runbook");
  if (previous) {
    h.write("out/bundle/config.toml", "# the previous bundle");
    h.write("out/bundle/zeroclaw-agent.toml", "format_version = 1");
    h.write("out/bundle/workspace/old.md", "old notes");
  }
}

struct reference {
  std::size_t ops = 0;
  snapshot_t new_bundle;
};

/// The export's options; `jobs` threads copy and hash (issue 25: the sweeps cover them).
cp::export_options options(harness<memory_rig>& h, bool previous, unsigned jobs) {
  cp::export_options o = h.opts(previous);
  o.jobs = jobs;
  return o;
}

template <class P>
reference baseline(bool previous, unsigned jobs) {
  harness<memory_rig> h;
  install(h, previous);
  h.fsys().reset_counts();
  h.run<P>(options(h, previous, jobs));
  reference ref;
  ref.ops = h.fsys().count();
  ref.new_bundle = h.snapshot("out/bundle");
  REQUIRE(children(h, "out") == std::vector<std::string>{"bundle"});
  return ref;
}

}  // namespace

TEST_CASE_TEMPLATE("fault injection sweep: every operation of an export fails in turn", P,
                   cp::publish::exchange, cp::publish::staged_swap) {
  std::size_t points = 0;
  std::size_t refused = 0;
  std::size_t committed = 0;
  for (const auto& run : std::vector<std::pair<bool, unsigned>>{{true, 1}, {false, 1}, {true, 3}}) {
    const bool previous = run.first;
    const unsigned jobs = run.second;
    CAPTURE(jobs);
    const reference ref = baseline<P>(previous, jobs);
    for (const int err : {ENOSPC, EIO}) {
      for (std::size_t n = 1; n <= ref.ops; ++n) {
        if (!swept(n, jobs)) continue;
        CAPTURE(previous);
        CAPTURE(err);
        CAPTURE(n);
        harness<memory_rig> h;
        install(h, previous);
        const snapshot_t before = h.snapshot("out");
        h.fsys().reset_counts();
        h.fsys().fail_at(n, err);
        ++points;
        try {
          const cp::export_result r = h.run<P>(options(h, previous, jobs));
          // Only cleanup after the publish committed can fail without failing the export
          // (it is retried once); the new bundle is then complete and nothing is left.
          ++committed;
          CHECK(r.publish.warnings.empty());
          CHECK(h.snapshot("out/bundle") == ref.new_bundle);
          CHECK(children(h, "out") == std::vector<std::string>{"bundle"});
        } catch (const cp::error& e) {
          ++refused;
          CHECK(h.fsys().failures() == 1);
          // The previous bundle is byte-identical; no staging or retired directory remains.
          CHECK(h.snapshot("out") == before);
          // The error names what failed: the injected errno and its text.
          CHECK(e.sys_errno() == err);
          CHECK(std::string(e.what()).find(std::strerror(err)) != std::string::npos);
        }
      }
    }
  }
  MESSAGE("fault injection (" << P::name << "): " << points << " injection points, " << refused
                              << " refused cleanly, " << committed
                              << " failed only in post-commit cleanup and recovered");
  CHECK(points > 0);
}

TEST_CASE_TEMPLATE("crash sweep: the export stops after every operation", P, cp::publish::exchange,
                   cp::publish::staged_swap) {
  const bool exchange = std::string(P::name) == "exchange";
  std::size_t points = 0;
  std::size_t pairs = 0;
  std::size_t dead_creations = 0;
  for (const auto& run : std::vector<std::pair<bool, unsigned>>{{true, 1}, {false, 1}, {true, 3}}) {
    const bool previous = run.first;
    const unsigned jobs = run.second;
    CAPTURE(jobs);
    const reference ref = baseline<P>(previous, jobs);
    harness<memory_rig> original;
    install(original, previous);
    const snapshot_t old_bundle = previous ? original.snapshot("out/bundle") : snapshot_t{};
    for (std::size_t n = 0; n <= ref.ops; ++n) {
      if (!swept(n, jobs)) continue;
      CAPTURE(previous);
      CAPTURE(n);
      harness<memory_rig> h;
      install(h, previous);
      h.fsys().reset_counts();
      h.fsys().crash_after(n);
      ++points;
      bool crashed = false;
      try {
        h.run<P>(options(h, previous, jobs));
      } catch (const cp::fs::simulated_crash&) {
        crashed = true;
      }
      CHECK(crashed == (n < ref.ops));
      h.fsys().clear_crash();
      const bool present = h.exists("out/bundle");
      const snapshot_t now = present ? h.snapshot("out/bundle") : snapshot_t{};
      const std::string retired = "out/.zeroclaw-export-old-AbC123";
      const bool is_old = previous ? (present && now == old_bundle) : !present;
      const bool is_new = present && now == ref.new_bundle;
      const bool is_pair =
          !present && previous && h.exists(retired) && h.snapshot(retired) == old_bundle;
      CHECK((is_old || is_new || (!exchange && is_pair)));
      if (exchange && previous) CHECK(present);  // never missing with exchange
      if (is_pair) ++pairs;
      // recover puts the old bundle back (or keeps the new one) and removes what the
      // dead export staged.
      const cp::recover_report rep = cp::recover_path(h.m(), h.path("out/bundle"), "out/bundle");
      if (is_pair) CHECK(rep.restored);
      // A crash between creating the staging directory and locking it leaves it empty and
      // unlocked as `.zeroclaw-export-new-AbC123`: recover removes it (issue 41 item 6).
      for (const std::string& t : rep.removed_trees)
        dead_creations += t == ".zeroclaw-export-new-AbC123";
      CHECK(rep.ignored.empty());
      const bool after_present = h.exists("out/bundle");
      const snapshot_t after = after_present ? h.snapshot("out/bundle") : snapshot_t{};
      if (is_new) {
        CHECK(after == ref.new_bundle);
      } else if (previous) {
        CHECK(after == old_bundle);
      } else {
        CHECK_FALSE(after_present);
      }
      for (const std::string& name : children(h, "out")) {
        // Only a retired tree of a committed swap may remain (recover leaves it alone
        // because the destination exists, and says so).
        if (name == "bundle") continue;
        CHECK(name == ".zeroclaw-export-old-AbC123");
        CHECK(is_new);
        CHECK(!exchange);
      }
    }
  }
  MESSAGE("crash sweep (" << P::name << "): " << points << " crash points, " << pairs
                          << " left the documented recoverable pair, " << dead_creations
                          << " an empty creation directory recover removed");
  CHECK(points > 0);
  CHECK(dead_creations > 0);
}
