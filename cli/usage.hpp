// SPDX-License-Identifier: MIT
// Bad usage found before a command runs (exit 2): an unknown command (with the one it was
// probably meant to be), `clawport help <command>`, a command group given without its
// subcommand.
#pragma once

#include <CLI/CLI.hpp>
#include <clawport/clawport.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "output.hpp"

namespace clawport::cli {

/// Exit statuses of the contract in docs/cli.md (130/143: interrupted by SIGINT/SIGTERM).
enum exit_status : int { exit_ok = 0, exit_failed = 1, exit_usage = 2 };

/// `--json` anywhere among the arguments (before `--`): usage errors are JSON documents too.
inline bool wants_json(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") return false;
    if (a == "--json") return true;
  }
  return false;
}

/// The optimal string alignment distance of `a` and `b` (insertions, deletions,
/// substitutions and swaps of two neighbours, each 1: `exprot` is 1 from `export`).
inline std::size_t typo_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

/// `word` given where a subcommand of `cmd` (named `path`) was expected and naming none:
/// the message, with the closest visible subcommand when one is near (at most 2 edits, and
/// fewer than half the word: `clawport exprot` means `export`, as git and cargo suggest).
/// The name of `names` closest to `word` when one is near (at most 2 edits, and fewer than
/// half the word); empty otherwise. The one threshold of every "did you mean".
inline std::string nearest_name(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = 3;
  for (const std::string& n : names) {
    const std::size_t d = typo_distance(word, n);
    if (d < best_distance && 2 * d < std::max(word.size(), n.size())) {
      best = n;
      best_distance = d;
    }
  }
  return best;
}

inline std::string unknown_command_message(const CLI::App& cmd, const std::string& word,
                                           const std::string& path) {
  std::vector<std::string> names;
  for (const CLI::App* s : cmd.get_subcommands([](const CLI::App*) { return true; }))
    if (!s->get_group().empty()) names.push_back(s->get_name());  // not the hidden `__complete`
  const std::string best = nearest_name(word, names);
  std::string m = "unknown command '" + word + "' for `" + path + "`";
  if (!best.empty()) m += "; did you mean `" + path + " " + best + "`?";
  return m + " (see `" + path + " --help`)";
}

/// The first word that should name a subcommand and names none (`clawport bogus`,
/// `clawport skills bogus`): the usage message (unknown_command_message); nullopt when all
/// is well.
inline std::optional<std::string> unknown_subcommand(const CLI::App& root, int argc,
                                                     const char* const* argv) {
  const CLI::App* cur = &root;
  std::string path = root.get_name();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") return std::nullopt;
    if (!a.empty() && a.front() == '-') continue;
    const auto subs = cur->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) return std::nullopt;  // a leaf command: positionals are its own
    const CLI::App* next = nullptr;
    for (const CLI::App* s : subs) {
      if (s->check_name(a)) next = s;
    }
    if (next == nullptr) return unknown_command_message(*cur, a, path);
    cur = next;
    path += " " + next->get_name();
  }
  return std::nullopt;
}

/// Prints a usage error (exit 2), as a JSON document too when `--json` was given.
inline int usage_error(const std::string& message, bool json) {
  out::error(error(errc::invalid_argument, message), json);
  out::line("Run with --help for more information.", out::to::err);
  return exit_usage;
}

/// An option the parsed command does not take (CLI11's "arguments were not expected"):
/// `--confg` gets the nearest of the command's options, a `--config` the command has not
/// says it reads none. Nullopt when no word is such an option (CLI11's message stands).
inline std::optional<std::string> unknown_option_message(const CLI::App& app, int argc,
                                                         const char* const* argv) {
  const CLI::App* cur = &app;
  std::string path = app.get_name();
  while (!cur->get_subcommands().empty()) {
    cur = cur->get_subcommands().front();
    path += " " + cur->get_name();
  }
  std::vector<std::string> names;
  for (const CLI::Option* o : cur->get_options())
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  for (int i = 1; i < argc; ++i) {
    std::string w = argv[i];
    if (w == "--") break;
    if (w.size() < 3 || w.compare(0, 2, "--") != 0) continue;
    w = w.substr(0, w.find('='));
    if (std::find(names.begin(), names.end(), w) != names.end()) continue;
    if (w == "--config")
      return "`" + path + "` reads no config; drop --config (see `" + path + " --help`)";
    const std::string best = nearest_name(w, names);
    std::string m = "unknown option " + w + " for `" + path + "`";
    if (!best.empty()) m += "; did you mean " + best + "?";
    return m + " (see `" + path + " --help`)";
  }
  return std::nullopt;
}

/// `clawport help [command...]`: the help of the command named (the root's without one),
/// as `<command> --help` prints it; an unknown command is bad usage.
inline int help_command(const CLI::App& app, int argc, const char* const* argv, bool json) {
  const CLI::App* cur = &app;
  std::string path = app.get_name();
  std::string parents;  // what CLI11's own --help passes: the names above the command
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (!a.empty() && a.front() == '-') continue;
    const CLI::App* next = nullptr;
    for (const CLI::App* s : cur->get_subcommands([](const CLI::App*) { return true; }))
      if (s->check_name(a)) next = s;
    if (next == nullptr) return usage_error(unknown_command_message(*cur, a, path), json);
    cur = next;
    parents = path;
    path += " " + next->get_name();
  }
  out::rendered(cur->help(parents));
  return exit_ok;
}

/// A command group given without its subcommand (`clawport skills`, `clawport skills
/// bundle`): its help on stderr, which lists the subcommands, and bad usage. False when the
/// parse stopped elsewhere (a leaf's required option).
inline bool group_without_subcommand(CLI::App& app, bool json) {
  CLI::App* cur = &app;
  std::string parents;
  while (!cur->get_subcommands().empty()) {
    parents += (parents.empty() ? "" : " ") + cur->get_name();
    cur = cur->get_subcommands().front();
  }
  if (cur == &app || cur->get_subcommands([](const CLI::App*) { return true; }).empty())
    return false;
  const std::string path = parents + " " + cur->get_name();
  out::rendered(cur->help(parents), out::to::err);
  out::error(
      error(errc::invalid_argument, "`" + path + "` needs a subcommand, one of those listed above"),
      json);
  return true;
}

}  // namespace clawport::cli
