// SPDX-License-Identifier: MIT
// `clawport completions fish`: the fish script, from the command description.
#pragma once

#include "reference_shell.hpp"

#include <string>

namespace clawport::cli {

namespace reference {

/// fish's own quoting of a word (single quotes, `\` and `'` escaped).
inline std::string fish_quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "'";
}

/// The fish script: one `complete` line per subcommand and option, each under the
/// condition that the words so far name its command (`__clawport_is PATH`).
inline std::string fish_script(const command& root) {
  std::vector<const command*> all;
  flatten(root, all);
  std::string s = "# fish completion for clawport\n";
  s += generated_note;
  s += "function __clawport_subs\n  switch $argv[1]\n";
  for (const command* c : all)
    if (!c->children.empty())
      s += "    case " + fish_quote(c->words()) + "\n      echo " + child_names(*c) + "\n";
  s += "  end\nend\nfunction __clawport_valopts\n  switch $argv[1]\n";
  for (const command* c : all) {
    std::string v;
    for (const param& p : c->params)
      if (!p.positional && p.takes_value)
        for (const auto& n : p.names) v += " " + n;
    if (!v.empty()) s += "    case " + fish_quote(c->words()) + "\n      echo" + v + "\n";
  }
  s += "  end\nend\n"
       "function __clawport_path  # the command the words before the cursor name\n"
       "  set -l path ''\n  set -l skip 0\n"
       "  set -l words (commandline -opc)\n  set -e words[1]\n"
       "  for w in $words\n"
       "    if test $skip = 1; set skip 0; continue; end\n"
       "    switch $w\n"
       "      case '--*=*'\n        continue\n"
       "      case '-*'\n"
       "        contains -- $w (string split ' ' -- (__clawport_valopts $path)); and set skip 1\n"
       "        continue\n"
       "    end\n"
       "    if contains -- $w (string split ' ' -- (__clawport_subs $path))\n"
       "      set path (string trim -- \"$path $w\")\n"
       "    end\n"
       "  end\n  echo $path\nend\n"
       "function __clawport_is\n  test (__clawport_path) = \"$argv[1]\"\nend\n"
       "function __clawport_dynamic  # clawport __complete KIND, with the line's --config\n"
       "  set -l words (commandline -opc)\n  set -l config\n"
       "  set -l i (contains -i -- --config $words); and set config --config $words[(math $i + "
       "1)]\n"
       "  $words[1] __complete $argv[1] $config 2>/dev/null\nend\n"
       "complete -c clawport -f\n";
  for (const command* c : all) {
    const std::string cond = " -n " + fish_quote("__clawport_is " + fish_quote(c->words()));
    for (const auto& k : c->children)
      s += "complete -c clawport" + cond + " -a " + fish_quote(k.path.back()) + " -d " +
           fish_quote(k.description.substr(0, k.description.find('\n'))) + "\n";
    for (const param& p : c->params) {
      std::string args;
      if (p.from == source::choices || p.from == source::none) {
        std::string w;
        for (const auto& v : p.choices) w += (w.empty() ? "" : " ") + v;
        args = p.takes_value ? " -x" + (w.empty() ? std::string() : " -a " + fish_quote(w)) : "";
      } else if (p.from == source::files) {
        args = p.takes_value ? " -r -F" : "";
      } else {
        args =
            " -x -a " + fish_quote(std::string("(__clawport_dynamic ") + source_word(p.from) + ")");
      }
      if (p.positional) {
        if (p.from != source::files)
          s += "complete -c clawport" + cond + args + "\n";
        else
          s += "complete -c clawport" + cond + " -F\n";
        continue;
      }
      std::string names;
      for (const auto& n : p.names)
        names += n.rfind("--", 0) == 0 ? " -l " + n.substr(2) : " -s " + n.substr(1);
      s += "complete -c clawport" + cond + names + args + " -d " +
           fish_quote(p.description.substr(0, p.description.find('\n'))) + "\n";
    }
  }
  return s;
}

}  // namespace reference

}  // namespace clawport::cli
