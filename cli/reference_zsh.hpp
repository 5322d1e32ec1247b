// SPDX-License-Identifier: MIT
// `clawport completions zsh`: the zsh script, from the command description.
#pragma once

#include "reference_shell.hpp"

#include <string>

namespace clawport::cli {

namespace reference {

/// `name:description` for zsh's _describe, with `:` in the name escaped.
inline std::string zsh_item(const std::string& name, const std::string& description) {
  std::string n;
  for (const char c : name) n += c == ':' ? std::string("\\:") : std::string(1, c);
  std::string d = description.substr(0, description.find('\n'));
  return sq(n + ":" + d);
}

/// The zsh script (`#compdef clawport`): the same tables, subcommands and options offered
/// with their descriptions.
inline std::string zsh_script(const command& root) {
  std::vector<const command*> all;
  flatten(root, all);
  std::string s = "#compdef clawport\n# zsh completion for clawport\n";
  s += generated_note;
  s += shell_tables(root);
  s += shell_walk;
  s += "_clawport_described() {  # $1: a command path, $2: subs or opts\n  case \"$2|$1\" in\n";
  for (const command* c : all) {
    std::string subs;
    for (const auto& k : c->children) subs += " " + zsh_item(k.path.back(), k.description);
    std::string opts;
    for (const param& p : c->params)
      if (!p.positional)
        for (const auto& n : p.names) opts += " " + zsh_item(n, p.description);
    if (!subs.empty()) s += "    " + sq("subs|" + c->words()) + ") items=(" + subs + ") ;;\n";
    if (!opts.empty()) s += "    " + sq("opts|" + c->words()) + ") items=(" + opts + ") ;;\n";
  }
  s += "    *) items=() ;;\n  esac\n}\n";
  s += "_clawport_value() {  # offers the value spec $1\n"
       "  local spec=\"$1\"\n"
       "  case \"$spec\" in\n"
       "    w:*) compadd -- ${=spec#w:} ;;\n"
       "    d:*)\n"
       "      local -a config found\n"
       "      config=(\"${(@f)$(_clawport_config \"${(@)words[2,CURRENT-1]}\")}\")\n"
       "      found=(\"${(@f)$(\"${words[1]}\" __complete \"${spec#d:}\" $config 2>/dev/null)}\")\n"
       "      compadd -- ${found:#} ;;\n"
       "    n:*) ;;\n"
       "    *) _files ;;\n"
       "  esac\n"
       "}\n"
       "_clawport() {\n"
       "  local cmdpath pending subs opts valopts\n"
       "  local -a items\n"
       "  _clawport_walk \"${(@)words[2,CURRENT-1]}\"\n"
       "  if [[ -n $pending ]]; then\n"
       "    _clawport_value \"$(_clawport_values \"$cmdpath\" \"$pending\")\"\n"
       "    return\n"
       "  fi\n"
       "  _clawport_spec \"$cmdpath\"\n"
       "  if [[ ${words[CURRENT]} == -* ]]; then\n"
       "    _clawport_described \"$cmdpath\" opts; _describe -t options option items; return\n"
       "  fi\n"
       "  if [[ -n $subs ]]; then\n"
       "    _clawport_described \"$cmdpath\" subs; _describe -t commands command items; return\n"
       "  fi\n"
       "  _clawport_value \"$(_clawport_values \"$cmdpath\" '#')\"\n"
       "}\n"
       "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
       "  _clawport \"$@\"\n"
       "else\n"
       "  compdef _clawport clawport\n"
       "fi\n";
  return s;
}

}  // namespace reference

}  // namespace clawport::cli
