// SPDX-License-Identifier: MIT
// `skills audit`, `skills list`, `claw inspect`, `claw plan`.
#include "abi.hpp"

#include <clawport/openclaw.hpp>
#include <clawport/skills.hpp>
#include <optional>

namespace {

using namespace clawport_c;  // NOLINT: the part's own helpers and the shared ones

std::string do_skills_audit(const options& a, const volatile int* cancel) {
  const std::vector<std::string> dirs = a.list("dirs");
  if (dirs.empty())
    throw error(errc::invalid_argument, "option 'dirs' needs at least one skill directory", "dirs");
  const bool allow_scripts = a.flag("allow-scripts");
  const cp::host_environment h = host();
  cp::fs::posix backend;
  std::vector<cp::skills::audit_outcome> outcomes;
  for (const std::string& dir : dirs) {
    poll(cancel, "auditing " + dir);
    cp::skills::audit_outcome one{dir, std::nullopt, std::nullopt};
    try {
      one.report = cp::skills::audit_skill_directory(backend, h.absolute(dir),
                                                     cp::skills::audit_options{allow_scripts});
    } catch (const error& e) {
      one.failure = e;
    }
    outcomes.push_back(std::move(one));
  }
  return cp::json::dump(cp::skills::to_json(outcomes));
}

std::string do_skills_list(const options& a, const volatile int* cancel) {
  const cp::host_environment h = host();
  const std::string config = config_of(h, a);
  const std::string install = cp::zeroclaw::install_root_of(config);
  const cp::skills::list_request request{a.text("agent"), a.text("bundle")};
  poll(cancel, "listing skills");
  cp::fs::posix backend;
  const cp::skills::skills_config cfg =
      cp::skills::parse_skills_config(cp::zeroclaw::read_install_config(backend, config), config);
  const cp::skills::install_paths where = cp::skills::install_paths_of(h, config);
  return cp::json::dump(
      cp::skills::to_json(cp::skills::list_skills(backend, cfg, where, request), install));
}

std::string do_claw_inspect(const options& a, const volatile int* cancel) {
  const std::string package = a.text("package", true);
  const std::string codes = a.choice("codes", {"openclaw", "clawhub"}, "openclaw");
  poll(cancel, "reading the package");
  cp::fs::posix backend;
  cp::openclaw::claw_package pkg = cp::openclaw::read_package(backend, host().absolute(package));
  if (codes == "clawhub") pkg.diagnostics = cp::openclaw::to_clawhub(pkg.diagnostics);
  return cp::openclaw::json_text(cp::openclaw::inspect_document(pkg));
}

std::string do_claw_plan(const options& a, const volatile int* cancel) {
  const std::string package = a.text("package", true);
  const cp::host_environment h = host();
  cp::openclaw::destination_request req;
  static_cast<cp::openclaw::environment&>(req) =
      cp::openclaw::environment_of(h, a.text("state-dir"));
  if (const std::string v = a.text("agent-id"); !v.empty()) req.agent_id = v;
  if (const std::string v = a.text("workspace"); !v.empty()) req.workspace = v;
  cp::openclaw::add_options opt;
  opt.without_packages = a.flag("without-packages");
  poll(cancel, "reading the package");
  cp::fs::posix backend;
  const cp::openclaw::claw_package pkg = cp::openclaw::read_package(backend, h.absolute(package));
  if (!pkg.ok())
    return cp::openclaw::json_text(
        cp::openclaw::to_json(cp::openclaw::invalid_package{pkg.diagnostics}));
  poll(cancel, "planning the add");
  return cp::openclaw::json_text(
      cp::openclaw::to_json(cp::openclaw::plan_add(backend, pkg, req, opt)));
}

}  // namespace

extern "C" {

clawport_status clawport_v1_skills_audit(const char* o, const volatile int* cancel, char** result,
                                         clawport_error** err) {
  return entry(o, {"dirs", "allow-scripts"}, cancel, result, err, do_skills_audit);
}
clawport_status clawport_v1_skills_list(const char* o, const volatile int* cancel, char** result,
                                        clawport_error** err) {
  return entry(o, {"config", "agent", "bundle"}, cancel, result, err, do_skills_list);
}
clawport_status clawport_v1_claw_inspect(const char* o, const volatile int* cancel, char** result,
                                         clawport_error** err) {
  return entry(o, {"package", "codes"}, cancel, result, err, do_claw_inspect);
}
clawport_status clawport_v1_claw_plan(const char* o, const volatile int* cancel, char** result,
                                      clawport_error** err) {
  return entry(o, {"package", "state-dir", "agent-id", "workspace", "without-packages"}, cancel,
               result, err, do_claw_plan);
}

}  // extern "C"
