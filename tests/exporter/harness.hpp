// SPDX-License-Identifier: MIT
// An install, a destination and the exporter, on either rig (tests/exporter/rig.hpp).
#pragma once

#include "rig.hpp"

#include <functional>
#include <string>
#include <vector>

namespace clawport::testing {

/// The §10 fixture agent `researcher`, reduced to what the export half needs: a model
/// provider with a key (scrubbed), a risk profile, optionally a skill bundle and an
/// identity document.
inline const char* const kResearcherConfig = R"(schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-ant-realkey"
model = "claude-opus-5"

[risk_profiles.guarded]

[agents.researcher]
model_provider = "anthropic.main"
risk_profile = "guarded"
)";

inline const char* const kSkillsConfig = R"(skill_bundles = ["research_tools"]

[skill_bundles.research_tools]
exclude = ["internal_only"]
)";

template <class Rig>
struct harness : Rig {
  std::string config = kResearcherConfig;
  std::string ws = "install/agents/researcher/workspace";
  std::string skills_dir = "install/shared/skills/research_tools";

  harness() { this->mkdir("out"); }

  /// Adds the skill bundle `research_tools` (exclude internal_only) to the agent.
  void with_skill_bundle() { config += kSkillsConfig; }
  /// Adds an identity document reference.
  void with_identity(const std::string& rel) {
    config += "\n[agents.researcher.identity]\nformat = \"aieos\"\naieos_path = \"" + rel + "\"\n";
  }
  /// Configures `workspace.path` (absolute) instead of the default workspace.
  void with_configured_workspace(const std::string& abs) {
    config += "\n[agents.researcher.workspace]\npath = \"" + abs + "\"\n";
  }

  export_options opts(bool force = false, const std::string& out_rel = "out/bundle") {
    export_options o;
    o.alias = "researcher";
    o.config_path = this->path("install/config.toml");
    o.out = out_rel;
    o.out_path = this->path(out_rel);
    o.force = force;
    o.token = "AbC123";
    o.exported_at = timestamp{1786406400, 0};
    return o;
  }

  template <class P = publish::exchange>
  export_result run(const export_options& o) {
    this->write("install/config.toml", config);
    basic_exporter<typename Rig::backend, zeroclaw::schema_v3, P> exporter(this->fsys());
    return exporter.run(o);
  }
  template <class P = publish::exchange>
  export_result run(bool force = false) {
    return run<P>(opts(force));
  }

  /// The message of the refusal `run` throws (fails the test if it succeeds).
  template <class P = publish::exchange>
  std::string refusal(const export_options& o) {
    try {
      run<P>(o);
    } catch (const error& e) {
      return e.what();
    }
    FAIL("the export succeeded but was expected to be refused");
    return {};
  }
  template <class P = publish::exchange>
  std::string refusal(bool force = false) {
    return refusal<P>(opts(force));
  }

  /// "Parent clean": the destination's parent is empty or holds only `bundle`.
  bool parent_clean(const std::string& parent = "out") {
    for (const std::string& n : children(*this, parent)) {
      if (n != "bundle") return false;
    }
    return true;
  }

  /// Every regular file of the published bundle: path -> content.
  std::map<std::string, std::string> bundle_files(const std::string& rel = "out/bundle") {
    std::map<std::string, std::string> out;
    for (const auto& e : this->snapshot(rel)) {
      if (e.second.rfind("f:", 0) == 0) out[e.first] = e.second.substr(2);
    }
    return out;
  }
  bool bundle_contains(const std::string& needle, const std::string& rel = "out/bundle") {
    for (const auto& f : bundle_files(rel)) {
      if (f.second.find(needle) != std::string::npos) return true;
    }
    return false;
  }

  /// Runs `hook` once, the first time the exporter opens `name` inside the directory
  /// whose identity is `parent_id` (after it classified the entry: the entry seam).
  void once_before_open(const std::string& name, fs::file_id parent_id,
                        std::function<void()> hook) {
    auto fired = std::make_shared<bool>(false);
    this->fsys().before_open([name, parent_id, hook, fired](
                                 typename Rig::backend::backend& inner,
                                 const typename Rig::backend::dir& parent, std::string_view n) {
      if (*fired || n != name || inner.stat(parent).id != parent_id) return;
      *fired = true;
      hook();
    });
  }
};

inline bool running_as_root() { return ::geteuid() == 0; }

}  // namespace clawport::testing
