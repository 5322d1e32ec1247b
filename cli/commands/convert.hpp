// SPDX-License-Identifier: MIT
// `clawport convert <source> --to claw|zeroclaw|agent-plugin --out <dir> [--dry-run]
// [--allow-narrowing] [--jobs <n>] [--json]`: a ZeroClaw agent bundle to an OpenClaw Claw
// package, or back, with the loss report (docs/convert.md); `clawport convert
// --from-openclaw-agent <id> [--state-dir <dir>] [--with-memory] --to zeroclaw --out <dir>`:
// an installed OpenClaw agent, its Markdown memory with it. Exit 0 converted, 1 refused, 2 bad
// usage.
#pragma once

#include "../app.hpp"

#include <iostream>
#include <memory>
#include <string>

namespace clawport::cli {

struct convert_args {
  std::string source;
  std::string to;
  std::string out;
  bool dry_run = false;
  bool allow_narrowing = false;
  bool json = false;
  unsigned jobs = 1;
  std::string openclaw_agent;  ///< --from-openclaw-agent (issue 47 item 7)
  std::string state_dir;       ///< its OpenClaw state directory (--state-dir)
  bool with_memory = false;    ///< its MEMORY.md and memory/*.md travel (bundle format 2)
};

inline int run_convert(const convert_args& a, const host_environment& host) {
  if (a.source.empty() == a.openclaw_agent.empty())
    return usage_error(
        "convert: give the source directory, or --from-openclaw-agent <id>, not "
        "both",
        a.json);
  fs::posix backend;
  convert::options o;
  o.source = a.source.empty() ? std::string() : host.absolute(a.source);
  o.out = host.absolute(a.out);
  o.source_display = a.source.empty() ? "openclaw agent " + a.openclaw_agent : a.source;
  if (!a.openclaw_agent.empty()) {
    o.openclaw_agent = a.openclaw_agent;
    o.openclaw_env = openclaw::environment_of(host, a.state_dir);
  }
  o.with_memory = a.with_memory;
  o.out_display = a.out;
  o.to = a.to == "claw"           ? convert::direction::to_claw
         : a.to == "agent-plugin" ? convert::direction::to_agent_plugin
                                  : convert::direction::to_zeroclaw;
  o.dry_run = a.dry_run;
  o.allow_narrowing = a.allow_narrowing;
  o.jobs = a.jobs;
  // Reproducible output: SOURCE_DATE_EPOCH wins over the clock when set.
  o.at = host.now();
  const convert::conversion c = convert::run(backend, o);
  if (a.json) {
    out::document(
        json::dump(c.refusal ? with_error(convert::to_json(c), *c.refusal) : convert::to_json(c)));
  } else {
    // Each line through the one terminal-safe renderer (a path or value may hold a
    // control character).
    out::rendered(text::terminal_block(convert::render_text(c)));
  }
  // A dry run the real one would refuse: the report above, then the refusal (exit 1).
  if (!c.refusal) return exit_ok;
  out::error(*c.refusal, false);
  return exit_failed;
}

inline void add_convert_command(CLI::App& app, action& selected, const host_environment& host) {
  auto args = std::make_shared<convert_args>();
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "Convert a ZeroClaw agent bundle to an OpenClaw Claw package (--to claw) or an Agent "
      "Plugins 1.0.0 plugin (--to agent-plugin), a Claw package to a bundle (--to "
      "zeroclaw), an installed OpenClaw agent to a bundle (--from-openclaw-agent, its memory "
      "with --with-memory), or an Agent Plugin to a bundle or a Claw package, reporting every "
      "loss");
  cmd->add_option("source", args->source,
                  "the bundle, Claw package or Agent Plugin directory (or --from-openclaw-agent)")
      ->check(non_empty());
  cmd->add_option("--from-openclaw-agent", args->openclaw_agent,
                  "convert the installed OpenClaw agent with this id (--to zeroclaw), as "
                  "`claw migrate` would package it; reads, never changes, the OpenClaw state")
      ->check(non_empty());
  add_state_dir_option(cmd, args->state_dir);
  cmd->add_flag("--with-memory", args->with_memory,
                "with --from-openclaw-agent: the agent's MEMORY.md and memory/*.md travel as "
                "memory/entries.jsonl (bundle format 2; may hold personal data), read only "
                "inside its workspace, never through a link");
  cmd->add_option("--to", args->to, "the target: claw, zeroclaw or agent-plugin")
      ->required()
      ->check(CLI::IsMember({"claw", "zeroclaw", "agent-plugin"}));
  cmd->add_option("--out", args->out, "the new directory to publish (must not exist, or be empty)")
      ->required()
      ->check(non_empty());
  cmd->add_flag("--dry-run", args->dry_run,
                "read, verify and map; print the report, write nothing");
  cmd->add_flag("--allow-narrowing", args->allow_narrowing,
                "accept a stricter target setting where none is exactly as strict as the source");
  add_jobs_option(cmd, args->jobs, "read, hash and write files");
  cmd->add_flag("--json", args->json, "print the conversion report as one JSON document");
  cmd->callback([args, &selected, &host] {
    selected = action{[args, &host] { return run_convert(*args, host); }, args->json};
  });
}

}  // namespace clawport::cli
