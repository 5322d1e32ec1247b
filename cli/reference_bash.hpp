// SPDX-License-Identifier: MIT
// `clawport completions bash`: the bash script, from the command description.
#pragma once

#include "reference_shell.hpp"

#include <string>

namespace clawport::cli {

namespace reference {

/// The bash script: `_clawport` bound to `clawport` with `complete -F`.
inline std::string bash_script(const command& root) {
  std::string s = "# bash completion for clawport\n";
  s += generated_note;
  s += shell_tables(root);
  s += shell_walk;
  s +=
      "_clawport_value() {  # completes $cur as the value spec $1\n"
      "  local spec=\"$1\" words\n"
      "  case \"$spec\" in\n"
      "    w:*) COMPREPLY=($(compgen -W \"${spec#w:}\" -- \"$cur\")) ;;\n"
      "    d:*)\n"
      "      local IFS=$'\\n' config\n"
      "      config=($(_clawport_config \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"))\n"
      "      words=$(\"${COMP_WORDS[0]}\" __complete \"${spec#d:}\" \"${config[@]}\" 2>/dev/null)\n"
      "      COMPREPLY=($(compgen -W \"$words\" -- \"$cur\")) ;;\n"
      "    n:*) COMPREPLY=() ;;\n"
      "    *) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
      "  esac\n"
      "}\n"
      "_clawport() {\n"
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" cmdpath pending subs opts valopts\n"
      "  _clawport_walk \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"\n"
      "  if [ -n \"$pending\" ]; then\n"
      "    _clawport_value \"$(_clawport_values \"$cmdpath\" \"$pending\")\"\n"
      "    return\n"
      "  fi\n"
      "  _clawport_spec \"$cmdpath\"\n"
      "  case \"$cur\" in\n"
      "    -*) COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")); return ;;\n"
      "  esac\n"
      "  if [ -n \"$subs\" ]; then COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\")); return; fi\n"
      "  _clawport_value \"$(_clawport_values \"$cmdpath\" '#')\"\n"
      "}\n"
      "complete -F _clawport clawport\n";
  return s;
}

}  // namespace reference

}  // namespace clawport::cli
