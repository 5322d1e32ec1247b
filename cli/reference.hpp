// SPDX-License-Identifier: MIT
// The command line described from the one definition, the CLI11 app (issue 44 items 13,
// 14): `clawport completions bash|zsh|fish` prints a completion script and the hidden
// `clawport __man` a manual page per command, both generated from the registered
// subcommands, options, positionals and the value sets of their IsMember checks. Agent
// aliases, bundles, skill names and secret fields are completed from the install's config
// by the hidden `clawport __complete <kind> [--config F]`, which the scripts call. This file
// holds the description; reference_shell/bash/zsh/fish.hpp the scripts, reference_man.hpp
// the pages.
#pragma once

#include "app.hpp"

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

}  // namespace reference

}  // namespace clawport::cli
