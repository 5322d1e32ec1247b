// SPDX-License-Identifier: MIT
// libFuzzer target for the closure planner: the first line is the agent alias, the rest the
// config.toml text. Properties: the planner either refuses with clawport::error or plans a
// closure whose rendered config.toml re-parses to it and validates standing alone (or whose
// rendering is refused by validation, never as a rendering bug); the rendered manifest
// re-parses; and no value of a secret field reaches config.toml, the manifest, the JSON
// document or a refusal message (checked by planning again with every secret value replaced
// by a distinct sentinel).
#include <clawport/zeroclaw.hpp>

#include "common.hpp"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace {

namespace zc = clawport::zeroclaw;
using clawport_fuzz::check;

constexpr std::string_view sentinel = "clawportSENTINEL";

/// Replaces every string leaf whose path the plan listed as a required secret with a distinct
/// sentinel; returns how many. Paths are built as the scrubber builds them. A path through a
/// key holding '.' is ambiguous, so such keys are left alone.
std::size_t plant(zc::value& v, const std::string& path, const std::set<std::string>& secrets,
                  std::size_t& next) {
  std::size_t planted = 0;
  if (v.is_string()) {
    if (secrets.count(path) != 0 && !v.text.empty()) {
      v.text = std::string(sentinel) + std::to_string(next++) + "x";
      ++planted;
    }
  } else if (v.is_table()) {
    for (zc::member& m : v.members) {
      if (m.key.find('.') != std::string::npos) continue;
      planted += plant(m.val, path.empty() ? m.key : path + "." + m.key, secrets, next);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.items.size(); ++i)
      planted += plant(v.items[i], path + "." + zc::element_segment(v.items[i], i), secrets, next);
  }
  return planted;
}

/// Everything a plan puts where a user or a bundle can read it. A rendering refused by
/// validation contributes its message.
std::string rendered(const zc::export_plan& p, bool& config_ok) {
  const clawport::timestamp t0{1786493040, 0};
  std::string out;
  config_ok = false;
  try {
    const std::string config = zc::render_config_toml(p);
    config_ok = true;
    // Independent of render's own check: it parses back to the closure and validates.
    const zc::value back = zc::parse_toml(config, "config.toml");
    check(back == p.closure, "rendered config.toml parses back to the closure");
    check(!zc::validate_config<zc::schema_v3>(back).has_value(),
          "rendered config.toml validates standing alone");
    out += config;
  } catch (const clawport::error& e) {
    const std::string what = e.what();
    check(what.find("rendering bug") == std::string::npos, "config.toml rendering bug");
    check(e.code() == clawport::errc::config_invalid, "render refuses with config_invalid");
    out += what;
  }
  const std::string manifest = zc::render_manifest(p, t0);
  (void)zc::parse_toml(manifest, "zeroclaw-agent.toml");
  out += manifest;
  out += zc::to_json(p).dump();
  for (const auto& d : p.dropped) out += d.path + d.detail;
  for (const auto& f : p.risk_flags) out += f.path + f.detail;
  for (const auto& n : p.host_local) out += n.path + n.detail;
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto [alias, config] = clawport_fuzz::first_line(text);

  zc::export_plan plan;
  try {
    plan = zc::plan_export(config, alias);
  } catch (const clawport::error&) {
    return 0;  // refused: the only way out besides a plan
  }
  check(plan.root_alias == alias, "the plan is for the alias asked");
  bool config_ok = false;
  (void)rendered(plan, config_ok);

  // Secrets: plant sentinels in every secret field that held a value, plan again, search.
  if (plan.required_secrets.empty() || text.find(sentinel) != std::string_view::npos) return 0;
  zc::value doc = zc::parse_toml(config, "config.toml");
  const std::set<std::string> secrets(plan.required_secrets.begin(), plan.required_secrets.end());
  std::size_t next = 0;
  if (plant(doc, "", secrets, next) == 0) return 0;
  std::string planted;
  try {
    planted = clawport::toml_writer::write(doc, false);
  } catch (const clawport::error&) {
    return 0;
  }
  zc::export_plan again;
  try {
    again = zc::plan_export(planted, alias);
  } catch (const clawport::error& e) {
    check(std::string(e.what()).find(sentinel) == std::string::npos,
          "a refusal message names no secret value");
    return 0;
  }
  bool again_ok = false;
  const std::string out = rendered(again, again_ok);
  check(out.find(sentinel) == std::string::npos, "no secret value in the rendered output");
  for (const std::string& s : again.required_secrets)
    check(s.find(sentinel) == std::string::npos, "no secret value in required_secrets");
  return 0;
}
