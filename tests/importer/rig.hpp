// SPDX-License-Identifier: MIT
// The import tests' rig: one memory filesystem holding a source install, its bundle and a
// target install, with the plan, apply and refusal helpers every import test file uses.
#pragma once

#include "support/test.hpp"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cp = clawport;
namespace im = clawport::importer;

namespace {

const char* const kSource = R"(schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-ant-import-test-secret"
model = "claude-opus-5"

[risk_profiles.guarded]

[skill_bundles.research_tools]

[agents.researcher]
model_provider = "anthropic.main"
risk_profile = "guarded"
skill_bundles = ["research_tools"]
)";

/// One memory filesystem holding a source install (/src), its bundle (/b) and a target
/// install (/dst) whose config is given. `notes`: more workspace files, in nested
/// directories (for the copies with jobs).
struct import_rig {
  cp::fs::faulty<cp::fs::memory> f;
  cp::fs::memory& m() { return f.inner(); }

  explicit import_rig(const std::string& target_config = "schema_version = 3\n",
                      const cp::fs::memory::options& mo = {}, const std::string& source = kSource,
                      std::size_t notes = 0)
      : f(mo) {
    m().write_file("/src/config.toml", source);
    m().write_file("/src/agents/researcher/workspace/IDENTITY.md", "# researcher\n");
    m().write_file("/src/agents/researcher/workspace/notes/plan.md", "the plan\n");
    for (std::size_t i = 0; i < notes; ++i)
      m().write_file("/src/agents/researcher/workspace/notes/d" + std::to_string(i % 4) + "/n" +
                         std::to_string(i) + ".md",
                     std::string(i * 97 % 5000, static_cast<char>('a' + i % 26)));
    m().write_file("/src/shared/skills/research_tools/web_search/SKILL.md", "# web search\n");
    cp::export_options o;
    o.alias = "researcher";
    o.config_path = "/src/config.toml";
    o.out = "/b";
    o.sync = false;
    o.token = "export";
    o.exported_at = cp::timestamp{1786493040, 0};
    cp::basic_exporter<cp::fs::memory> ex(m());
    ex.run(o);
    m().mkdirs("/dst");
    if (!target_config.empty()) m().write_file("/dst/config.toml", target_config);
  }

  im::import_options opts(const std::string& config = "/dst/config.toml") {
    im::import_options o;
    o.bundle = "/b";
    o.config_path = config;
    o.now = cp::timestamp{1786500000, 0};
    return o;
  }
  im::import_plan plan(const im::import_options& o) { return im::plan_import(f, o); }
  im::import_result apply(const im::import_options& o) {
    const auto p = plan(o);
    im::apply_options a;
    a.sync = false;
    return im::apply_import(f, o, cp::plan::consented_to(p.plan_integrity), a);
  }
  std::string refusal(const im::import_options& o, cp::errc want) {
    try {
      apply(o);
    } catch (const cp::error& e) {
      CHECK(e.code() == want);
      return e.what();
    }
    return "accepted";
  }
};

inline const im::entry_change* change(const im::import_plan& p, const std::string& kind,
                                      const std::string& from) {
  for (const auto& e : p.entries)
    if (e.kind == kind && e.from == from) return &e;
  return nullptr;
}

}  // namespace
