// SPDX-License-Identifier: MIT
// `--map KIND.ALIAS=LOCAL` (docs/cli.md, `clawport import`): the words split and checked,
// each mapping checked against the bundle and the target, and the choices a plan offers.
#pragma once

#include "../core/config.hpp"
#include "../core/error.hpp"
#include "../verify/verify.hpp"
#include "../zeroclaw/entries.hpp"
#include "import_plan.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clawport {
inline namespace CLAWPORT_ABI_NAMESPACE {
namespace importer {

namespace detail {

namespace zc = clawport::zeroclaw;

/// (target kind, bundle name) -> target name.
using rename_map = std::map<std::pair<zc::ref_target, std::string>, std::string>;

/// (kind, bundle name) of every entry `--map` points at a local one.
using mapped_set = std::set<std::pair<std::string, std::string>>;

/// One `--map KIND.ALIAS=LOCAL` as typed, split.
struct map_choice {
  std::string kind, from, to;
};

/// Splits `--map KIND.ALIAS=LOCAL` (errc::invalid_argument naming it when it is not of that
/// shape or KIND is not a kind an agent refers to): a check of the words alone, which a
/// command line may make before planning.
inline map_choice parse_map(const std::string& m) {
  const std::size_t dot = m.find('.');
  const std::size_t eq = m.find('=');
  if (dot == std::string::npos || eq == std::string::npos || eq < dot || dot == 0 ||
      eq == dot + 1 || eq + 1 == m.size())
    throw error(errc::invalid_argument,
                "--map " + m + ": expected KIND.ALIAS=LOCAL (e.g. risk_profile.default=calm)", m);
  map_choice c{m.substr(0, dot), m.substr(dot + 1, eq - dot - 1), m.substr(eq + 1)};
  const zc::entry_kind* k = zc::entry_kind_named(c.kind);
  if (k == nullptr || k->ref == zc::ref_target::agent)
    throw error(errc::invalid_argument,
                "--map " + m + ": unknown kind `" + c.kind +
                    "` (risk_profile, runtime_profile, skill_bundle, knowledge_bundle, "
                    "mcp_bundle, mcp_server, model_provider, tts_provider, "
                    "transcription_provider)",
                m);
  return c;
}

/// Step 3: each `--map KIND.ALIAS=LOCAL`, checked against the bundle and the target.
inline void apply_maps(const import_options& o, const verify::report& rep, const zc::value& target,
                       rename_map& names, mapped_set& mapped, import_plan& p) {
  for (const std::string& m : o.maps) {
    const map_choice c = parse_map(m);
    const std::string& kind = c.kind;
    const std::string& from = c.from;
    const std::string& to = c.to;
    const zc::entry_kind* k = zc::entry_kind_named(kind);
    bool incoming = false;
    for (const auto& e : zc::entries_of(rep.closure, *k)) incoming |= e.first == from;
    if (!incoming)
      throw error(errc::invalid_argument,
                  "--map " + m + ": the bundle carries no " + kind + " `" + from + "`", m);
    bool local = false;
    for (const auto& e : zc::entries_of(target, *k)) local |= e.first == to;
    if (!local)
      throw error(errc::not_found,
                  "--map " + m + ": the target install has no " + kind + " `" + to + "`", m);
    names[{k->ref, from}] = to;
    mapped.insert({kind, from});
    p.entries.push_back({kind, from, to, "map", ""});
  }
}

/// The `--map` choices shown with the plan: each model provider it adds (or renames),
/// with the target's own model providers.
inline void offer_maps(const zc::value& target, import_plan& p) {
  const zc::entry_kind* k = zc::entry_kind_named("model_provider");
  std::vector<std::string> local;
  for (const auto& e : zc::entries_of(target, *k)) local.push_back(e.first);
  if (local.empty()) return;
  for (const entry_change& e : p.entries)
    if (e.kind == k->name && (e.action == "add" || e.action == "rename"))
      p.map_options.push_back({e.kind, e.from, local});
}

}  // namespace detail

/// `--map KIND.ALIAS=LOCAL` split and its kind checked (the part a command line checks).
using detail::map_choice;
using detail::parse_map;

}  // namespace importer
}  // namespace CLAWPORT_ABI_NAMESPACE
}  // namespace clawport
