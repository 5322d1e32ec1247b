// SPDX-License-Identifier: MIT
// A miniature of the runtime's `agents` command on the clawport crate:
//
//   agents export <alias> --out <dir> [--config <config.toml>]
//   agents import <bundle> [--config <config.toml>] [--as <alias>] [--yes <plan_integrity>]
//
// `import` shows the plan and writes nothing; with `--yes <plan_integrity>` it applies the
// plan only if it is still the one shown. Ctrl-C is not wired here: a runtime would set the
// CancelFlag from its signal handling (tokio::signal, ctrlc, ...).
use clawport::{ExportOptions, ImportOptions};
use std::env;
use std::process::exit;

fn usage() -> ! {
    eprintln!("usage: agents export <alias> --out <dir> [--config <config.toml>]");
    eprintln!("       agents import <bundle> [--config <config.toml>] [--as <alias>] [--yes <plan_integrity>]");
    exit(2)
}

/// The value after `flag`, if given.
fn option(args: &[String], flag: &str) -> Option<String> {
    args.iter()
        .position(|a| a == flag)
        .map(|i| args.get(i + 1).cloned().unwrap_or_else(|| usage()))
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    if args.len() < 2 {
        usage();
    }
    let outcome = match args[0].as_str() {
        "export" => export(&args),
        "import" => import(&args),
        _ => usage(),
    };
    if let Err(e) = outcome {
        eprintln!("agents: error [{}]: {}", e.code.name(), e);
        exit(1);
    }
}

fn export(args: &[String]) -> clawport::Result<()> {
    let out = option(args, "--out").unwrap_or_else(|| usage());
    let mut o = ExportOptions::new(&args[1], &out);
    if let Some(config) = option(args, "--config") {
        o = o.config(config);
    }
    let report = clawport::export(&o, None)?;
    println!(
        "exported agent `{}` to {} ({} workspace files, {} bytes)",
        report.alias, report.out, report.workspace_files, report.workspace_bytes
    );
    for secret in &report.required_secrets {
        println!("  scrubbed secret (to supply on the target): {}", secret);
    }
    for flag in &report.risk_flags {
        println!("  risk: {} {}: {}", flag.kind, flag.path, flag.detail);
    }
    let verdict = clawport::verify(&out, None)?;
    println!(
        "verified: {} ({} files)",
        if verdict.ok { "ok" } else { "FAILED" },
        verdict.files
    );
    Ok(())
}

fn import(args: &[String]) -> clawport::Result<()> {
    let mut o = ImportOptions::new(&args[1]);
    if let Some(config) = option(args, "--config") {
        o = o.config(config);
    }
    if let Some(alias) = option(args, "--as") {
        o = o.as_alias(&alias);
    }
    if let Some(integrity) = option(args, "--yes") {
        let r = clawport::import_apply(&o, &integrity, None)?;
        println!(
            "imported agent `{}` as `{}` ({} files)",
            r.plan.source_alias, r.plan.alias, r.files
        );
        for secret in &r.plan.secrets {
            println!("  supply: zeroclaw config set {}", secret);
        }
        return Ok(());
    }
    let plan = clawport::import_plan(&o, None)?;
    println!(
        "import plan for `{}`, installed as `{}`:",
        plan.source_alias, plan.alias
    );
    for e in &plan.entries {
        println!("  {} {} {} -> {}", e.action, e.kind, e.from, e.to);
    }
    for p in &plan.placements {
        println!("  place {}/ -> {}/", p.from, p.to);
    }
    for f in &plan.risk_flags {
        println!("  grant: {} {}: {}", f.kind, f.path, f.detail);
    }
    println!(
        "nothing was written; to apply: agents import {} --yes {}",
        args[1], plan.plan_integrity
    );
    Ok(())
}
