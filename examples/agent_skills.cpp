// SPDX-License-Identifier: MIT
// Read an agent's skills as ZeroClaw would load them: its workspace skills, then each skill
// bundle it lists, through the bundle's include/exclude filter, with shadowing and the audit.
//   agent_skills /abs/path/config.toml <agent>
#include <clawport/clawport.hpp>

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: agent_skills /abs/config.toml <agent>\n";
    return 2;
  }
  namespace sk = clawport::skills;
  const std::string config = argv[1];
  const std::string install_root = clawport::zeroclaw::install_root_of(config);
  clawport::fs::posix fs;
  try {
    const sk::skills_config cfg =
        sk::parse_skills_config(clawport::zeroclaw::read_install_config(fs, config));
    const sk::skill_view view = sk::agent_skills(fs, cfg, {install_root, ""}, argv[2]);
    for (const sk::skill_entry& e : view.entries) {
      std::cout << e.name << "  " << sk::to_string(e.status) << "  " << sk::to_string(e.origin)
                << (e.bundle.empty() ? "" : " " + e.bundle)
                << (e.reason.empty() ? "" : "  (" + e.reason + ")") << "\n";
    }
    for (const std::string& w : view.warnings) std::cout << "warning: " << w << "\n";
    return 0;
  } catch (const clawport::error& e) {
    std::cerr << "refused (" << clawport::to_string(e.code()) << "): " << e.what() << "\n";
    return 1;
  }
}
