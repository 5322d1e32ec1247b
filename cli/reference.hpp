// SPDX-License-Identifier: MIT
// The command line described from the one definition, the CLI11 app (issue 44 items 13,
// 14): `clawport completions bash|zsh|fish` prints a completion script and the hidden
// `clawport __man` a manual page per command, both generated from the registered
// subcommands, options, positionals and the value sets of their IsMember checks. Agent
// aliases, bundles, skill names and secret fields are completed from the install's config
// by the hidden `clawport __complete <kind> [--config F]`, which the scripts call.
#pragma once

#include "app.hpp"

#include <cctype>
#include <memory>
#include <string>
#include <vector>

namespace clawport::cli {

namespace reference {

/// What a value is completed from.
enum class source {
  files,    ///< a path (the default)
  none,     ///< nothing to offer (a number)
  choices,  ///< the option's value set
  aliases,  ///< the ZeroClaw agents of the install's config
  bundles,  ///< its skill bundles
  skills,   ///< its skills
  secrets,  ///< its secret fields
};

/// One option or positional of a command.
struct param {
  std::vector<std::string> names;  ///< `-h`, `--help`; a positional: its name alone
  bool positional = false;
  bool takes_value = false;
  bool required = false;
  bool many = false;       ///< a positional taking several values
  std::string value_name;  ///< TEXT, UINT, …
  std::string description;
  std::vector<std::string> choices;
  source from = source::files;
};

/// One command: its words after `clawport`, what it does, its parameters and commands.
struct command {
  std::vector<std::string> path;
  std::string description;
  std::vector<param> params;
  std::vector<command> children;
  std::string words() const {
    std::string w;
    for (const auto& p : path) w += (w.empty() ? "" : " ") + p;
    return w;
  }
};

/// The value set of an IsMember check, from CLI11's type name (`TEXT:{swap,exchange}`).
inline std::vector<std::string> choices_of(const std::string& type_name) {
  std::vector<std::string> out;
  const auto open = type_name.find(":{");
  const auto close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return out;
  std::string item;
  for (const char c : type_name.substr(open + 2, close - open - 2) + ",") {
    if (c != ',') {
      item += c;
      continue;
    }
    if (!item.empty()) out.push_back(item);
    item.clear();
  }
  return out;
}

/// Which values of the install a parameter names, by command and name: the one table of
/// what `__complete` offers where.
inline source dynamic_source(const std::vector<std::string>& path, const std::string& name) {
  const std::string first = path.empty() ? std::string() : path.front();
  const std::string last = path.empty() ? std::string() : path.back();
  if (first == "export" && name == "alias") return source::aliases;
  if (first == "skills" && name == "--agent") return source::aliases;
  if (first == "skills" && name == "--bundle") return source::bundles;
  if (first == "skills" && (last == "remove" || last == "test") && name == "name")
    return path.size() == 2 ? source::skills : source::bundles;  // `skills bundle remove`
  if (first == "secrets" && last == "set" && name == "path") return source::secrets;
  return source::files;
}

inline param param_of(const CLI::Option& o, const std::vector<std::string>& path) {
  param p;
  p.positional = o.get_positional();
  if (p.positional) {
    p.names.push_back(o.get_name(true));
  } else {
    for (const auto& s : o.get_snames()) p.names.push_back("-" + s);
    for (const auto& l : o.get_lnames()) p.names.push_back("--" + l);
  }
  p.takes_value = p.positional || o.get_items_expected_max() > 0;  // a flag expects none
  p.required = o.get_required();
  p.many = o.get_items_expected_max() > 1;
  const std::string type = o.get_type_name();
  p.value_name = type.substr(0, type.find(':'));
  p.description = o.get_description();
  p.choices = choices_of(type);
  if (!p.choices.empty()) {
    p.from = source::choices;
  } else if (p.value_name == "INT" || p.value_name == "UINT" || p.value_name == "FLOAT") {
    p.from = source::none;
  } else {
    p.from = dynamic_source(path, p.names.back());
  }
  return p;
}

/// The command `app` (reached by `path`) and every visible command below it; a command in
/// no help group (`group("")`) is hidden and left out, as `--help` leaves it out.
inline command describe(const CLI::App& app, std::vector<std::string> path = {}) {
  command c;
  c.path = path;
  c.description = app.get_description();
  for (const CLI::Option* o : app.get_options()) {
    if (!o->get_group().empty()) c.params.push_back(param_of(*o, path));
  }
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (s->get_group().empty()) continue;
    std::vector<std::string> sub = path;
    sub.push_back(s->get_name());
    c.children.push_back(describe(*s, sub));
  }
  return c;
}

/// Every command, depth first (the root first).
inline void flatten(const command& c, std::vector<const command*>& out) {
  out.push_back(&c);
  for (const auto& k : c.children) flatten(k, out);
}

inline const char* source_word(source s) {
  switch (s) {
    case source::aliases:
      return "aliases";
    case source::bundles:
      return "bundles";
    case source::skills:
      return "skills";
    case source::secrets:
      return "secrets";
    case source::none:
      return "none";
    case source::choices:
      return "choices";
    case source::files:
      break;
  }
  return "files";
}

/// `a b c` of the names of `c`'s children.
inline std::string child_names(const command& c) {
  std::string s;
  for (const auto& k : c.children) s += (s.empty() ? "" : " ") + k.path.back();
  return s;
}

/// A word list for a single-quoted shell string (descriptions never hold `'`, but a quote
/// is closed and escaped should one appear).
inline std::string sq(const std::string& s) {
  std::string out = "'";
  for (const char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

/// The value spec of a parameter in the scripts: `w:<words>`, `d:<kind>`, `n:` or `f:`.
inline std::string value_spec(const param& p) {
  std::string words;
  switch (p.from) {
    case source::choices:
      for (const auto& v : p.choices) words += (words.empty() ? "" : " ") + v;
      return "w:" + words;
    case source::none:
      return "n:";
    case source::files:
      return "f:";
    default:
      return std::string("d:") + source_word(p.from);
  }
}

/// The shell functions both bash and zsh scripts share: the command's subcommands,
/// options and options that take a value (`_clawport_spec PATH`), and the value spec of
/// an option or of the positionals (`#`) of a command (`_clawport_values PATH OPTION`).
inline std::string shell_tables(const command& root) {
  std::vector<const command*> all;
  flatten(root, all);
  std::string spec = "_clawport_spec() {  # $1: a command path; sets subs, opts, valopts\n";
  spec += "  subs=\"\" opts=\"\" valopts=\"\"\n  case \"$1\" in\n";
  std::string values = "_clawport_values() {  # $1: a command path; $2: an option, or #\n";
  values += "  case \"$1|$2\" in\n";
  for (const command* c : all) {
    std::string opts;
    std::string valopts;
    for (const param& p : c->params) {
      if (p.positional) {
        if (p.from != source::files)
          values += "    " + sq(c->words() + "|#") + ") echo " + sq(value_spec(p)) + " ;;\n";
        continue;
      }
      for (const auto& n : p.names) {
        opts += (opts.empty() ? "" : " ") + n;
        if (p.takes_value) valopts += (valopts.empty() ? "" : " ") + n;
        if (p.takes_value)
          values += "    " + sq(c->words() + "|" + n) + ") echo " + sq(value_spec(p)) + " ;;\n";
      }
    }
    spec += "    " + sq(c->words()) + ") subs=" + sq(child_names(*c)) + " opts=" + sq(opts) +
            " valopts=" + sq(valopts) + " ;;\n";
  }
  spec += "  esac\n}\n";
  values += "    *) echo f: ;;\n  esac\n}\n";
  return spec + values;
}

/// Walks the words before the cursor (`$@`): sets `cmdpath` (the command they name) and
/// `pending` (the option whose value the cursor is on, if any).
inline const char* shell_walk =
    "_clawport_walk() {\n"
    "  cmdpath=\"\" pending=\"\"\n"
    "  local w\n"
    "  for w in \"$@\"; do\n"
    "    if [ -n \"$pending\" ]; then pending=\"\"; continue; fi\n"
    "    _clawport_spec \"$cmdpath\"\n"
    "    case \"$w\" in\n"
    "      --*=*) continue ;;\n"
    "      -*) case \" $valopts \" in *\" $w \"*) pending=\"$w\" ;; esac; continue ;;\n"
    "    esac\n"
    "    case \" $subs \" in *\" $w \"*) cmdpath=\"${cmdpath:+$cmdpath }$w\" ;; esac\n"
    "  done\n"
    "}\n"
    "# The `--config F` among the words, for `clawport __complete`.\n"
    "_clawport_config() {\n"
    "  local prev=\"\" w\n"
    "  for w in \"$@\"; do\n"
    "    if [ \"$prev\" = --config ]; then printf '%s\\n' --config \"$w\"; return; fi\n"
    "    case \"$w\" in --config=*) printf '%s\\n' \"$w\"; return ;; esac\n"
    "    prev=\"$w\"\n"
    "  done\n"
    "}\n";

inline const char* generated_note =
    "# Generated by `clawport completions` from clawport's command definition; do not edit.\n";

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

/// Text for roff: `\` as `\e`, a line starting with `.` or `'` guarded by `\&`.
inline std::string roff(const std::string& s, bool minus = false) {
  std::string out;
  bool line_start = true;
  for (const char c : s) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-' && minus) {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

/// `clawport-skills-install`: the page of a command.
inline std::string page_name(const command& c) {
  std::string n = "clawport";
  for (const auto& p : c.path) n += "-" + p;
  return n;
}

/// The SYNOPSIS words after the command, as `--help`'s `Usage:` line has them:
/// `[OPTIONS]`, each positional (`[name]` when optional, `name...` when several), and
/// `SUBCOMMAND` for a command that has commands.
inline std::string synopsis_tail(const command& c) {
  std::string s = "[\\fIOPTIONS\\fR]";
  for (const param& p : c.params) {
    if (!p.positional) continue;
    const std::string n = "\\fI" + roff(p.names.front(), true) + "\\fR" + (p.many ? "..." : "");
    s += " " + (p.required ? n : "[" + n + "]");
  }
  if (!c.children.empty()) s += " \\fISUBCOMMAND\\fR";
  return s;
}

/// The `.TP` entries of `c`'s positionals and options.
inline std::string page_params(const command& c, bool positional) {
  std::string s;
  for (const param& p : c.params) {
    if (p.positional != positional) continue;
    std::string head;
    for (const auto& n : p.names)
      head += std::string(head.empty() ? "" : ", ") + (positional ? "\\fI" : "\\fB") +
              roff(n, true) + "\\fR";
    if (!positional && p.takes_value) head += " \\fI" + roff(p.value_name, true) + "\\fR";
    std::string text = p.description;
    if (!p.choices.empty()) {
      std::string w;
      for (const auto& v : p.choices) w += (w.empty() ? "" : ", ") + v;
      text += " (one of: " + w + ")";
    }
    if (p.required && !positional) text += " (required)";
    s += ".TP\n" + head + "\n" + roff(text) + "\n";
  }
  return s;
}

/// The manual page of `c` (roff, `man -l` renders it): NAME, SYNOPSIS, DESCRIPTION,
/// ARGUMENTS, OPTIONS, COMMANDS, EXIT STATUS, SEE ALSO. No date: the same CLI gives the
/// same page.
inline std::string man_page(const command& c, const std::string& version) {
  std::string upper = page_name(c);
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const std::string words = "clawport" + (c.path.empty() ? std::string() : " " + c.words());
  std::string s = ".\\\" Generated by clawport __man from its command definition; do not edit.\n";
  s +=
      ".TH " + roff(upper, true) + " 1 \"\" \"clawport " + roff(version) + "\" \"User Commands\"\n";
  s += ".SH NAME\n" + roff(page_name(c), true) + " \\- " + roff(c.description) + "\n";
  s += ".SH SYNOPSIS\n.B " + roff(words, true) + "\n" + synopsis_tail(c) + "\n";
  s += ".SH DESCRIPTION\n" + roff(c.description) + ".\n";
  if (c.path.empty())
    s += ".PP\nclawport exports, verifies and imports ZeroClaw agents as bundles, manages "
         "ZeroClaw skills and OpenClaw Claw packages, and converts between them. Each command "
         "has its own page, named below.\n";
  const std::string positionals = page_params(c, true);
  if (!positionals.empty()) s += ".SH ARGUMENTS\n" + positionals;
  s += ".SH OPTIONS\n" + page_params(c, false);
  if (!c.children.empty()) {
    s += ".SH COMMANDS\n";
    for (const auto& k : c.children)
      s += ".TP\n\\fB" + roff("clawport " + k.words(), true) + "\\fR\n" + roff(k.description) +
           " See \\fB" + roff(page_name(k), true) + "\\fR(1).\n";
  }
  s += ".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\nthe command failed or found a problem\n.TP\n"
       "2\nbad usage\n.TP\n130, 143\ninterrupted by SIGINT or SIGTERM\n";
  s += ".SH SEE ALSO\n";
  std::string see = c.path.empty() ? std::string() : "\\fBclawport\\fR(1)";
  if (c.path.size() > 1) {
    command parent;
    parent.path.assign(c.path.begin(), c.path.end() - 1);
    see += ", \\fB" + roff(page_name(parent), true) + "\\fR(1)";
  }
  s += see + (see.empty() ? "" : "; ") + "docs/cli.md in the clawport sources\n";
  return s;
}

}  // namespace reference

}  // namespace clawport::cli
