// SPDX-License-Identifier: MIT
// A miniature of the runtime's `agents` command on the clawport crate:
//
//   agents export <alias> --out <dir> [--config <config.toml>]
//   agents import <bundle> [--config <config.toml>] [--as <alias>] [--yes <plan_integrity>]
//   agents handoff <empty work dir> [<clawport checkout>]
//
// `handoff` is the whole hand-off between two installs, on a copy of the repository's
// example install: export `researcher` signed with a key ssh-keygen makes, verify the bundle
// and its signature, plan the import into a new install requiring that signature, apply the
// plan with its integrity, and read the new install's status. `cargo test --offline` runs
// the same function (tests/example.rs).
//
// `import` shows the plan and writes nothing; with `--yes <plan_integrity>` it applies the
// plan only if it is still the one shown. Ctrl-C is not wired here: a runtime would set the
// CancelFlag from its signal handling (tokio::signal, ctrlc, ...).
use clawport::{ExportOptions, ImportOptions, VerifyOptions};
use std::env;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{exit, Command};

fn usage() -> ! {
    eprintln!("usage: agents export <alias> --out <dir> [--config <config.toml>]");
    eprintln!("       agents import <bundle> [--config <config.toml>] [--as <alias>] [--yes <plan_integrity>]");
    eprintln!("       agents handoff <empty work dir> [<clawport checkout>]");
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
    if args[0] == "handoff" {
        let checkout = args
            .get(2)
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
        match handoff(Path::new(&args[1]), &checkout) {
            Ok(h) => println!(
                "hand-off done: `{}` signed by {}, imported as `{}`; to supply: {}",
                h.alias,
                h.signed_by,
                h.imported_as,
                h.blank_secrets.join(", ")
            ),
            Err(e) => {
                eprintln!("agents: error: {}", e);
                exit(1);
            }
        }
        return;
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

/// What [`handoff`] did, for its caller (and the test) to check.
pub struct Handoff {
    /// The agent exported.
    pub alias: String,
    /// The principal whose signature verify and the import accepted.
    pub signed_by: String,
    /// The alias it was imported as.
    pub imported_as: String,
    /// The plan's integrity, which the apply was given.
    pub plan_integrity: String,
    /// The new install's config.toml.
    pub config: PathBuf,
    /// What `status` says is still to supply (the secrets the export scrubbed).
    pub blank_secrets: Vec<String>,
    /// `status`'s document.
    pub status_json: String,
}

/// export (signed) -> verify (with the signature) -> import plan -> apply with the plan's
/// integrity -> status, in `work` (empty or absent), on a copy of `checkout`'s example install.
pub fn handoff(work: &Path, checkout: &Path) -> Result<Handoff, String> {
    fs::create_dir_all(work).map_err(|e| format!("{}: {}", work.display(), e))?;
    let source = work.join("source");
    copy_tree(&checkout.join("examples/zeroclaw-install"), &source)
        .map_err(|e| format!("copying the example install: {}", e))?;
    let (key, allowed) = signing_key(work, "alice@example.org")?;

    // The source runtime: export, signed.
    let bundle = work.join("bundle");
    let o = ExportOptions::new("researcher", &bundle)
        .config(source.join("config.toml"))
        .sign(&key)
        .jobs(2);
    let report = clawport::export(&o, None).map_err(|e| e.to_string())?;
    println!(
        "exported `{}` ({} workspace files), signed: {}",
        report.alias, report.workspace_files, report.signed
    );

    // The target runtime: verify the bundle and who signed it.
    let v = clawport::verify_with(
        &VerifyOptions::new(&bundle).allowed_signers(&allowed, Some("alice@example.org")),
        None,
    )
    .map_err(|e| e.to_string())?;
    if !v.ok {
        return Err(format!("the bundle does not verify: {}", v.json));
    }
    let signed_by = v.signed_by.clone().unwrap_or_default();
    println!("verified: {} files, signed by {}", v.files, signed_by);

    // Plan the import into a new install (requiring the signature), then apply that plan.
    let target = work.join("target");
    fs::create_dir_all(&target).map_err(|e| e.to_string())?;
    let config = target.join("config.toml");
    fs::write(&config, "schema_version = 3\n").map_err(|e| e.to_string())?;
    let io = ImportOptions::new(&bundle)
        .config(&config)
        .require_signature(&allowed, Some("alice@example.org"))
        .jobs(2);
    let plan = clawport::import_plan(&io, None).map_err(|e| e.to_string())?;
    for e in &plan.entries {
        println!("  plan: {} {} {} -> {}", e.action, e.kind, e.from, e.to);
    }
    let applied =
        clawport::import_apply(&io, &plan.plan_integrity, None).map_err(|e| e.to_string())?;
    println!(
        "imported `{}` as `{}` ({} files)",
        applied.plan.source_alias, applied.plan.alias, applied.files
    );

    // What is left to do on the target: the status.
    let st = clawport::status(Some(&config), None).map_err(|e| e.to_string())?;
    let blank_secrets: Vec<String> = st
        .value
        .get("blank_secrets")
        .as_array()
        .iter()
        .map(|b| b.get("path").str_or_empty())
        .collect();
    for s in &blank_secrets {
        println!("  to supply: {}", s);
    }
    Ok(Handoff {
        alias: report.alias,
        signed_by,
        imported_as: applied.plan.alias,
        plan_integrity: plan.plan_integrity,
        config,
        blank_secrets,
        status_json: st.json,
    })
}

/// An ed25519 key made by ssh-keygen in `dir`, and an allowed_signers file naming it
/// `principal`.
fn signing_key(dir: &Path, principal: &str) -> Result<(PathBuf, PathBuf), String> {
    let key = dir.join("signing-key");
    let made = Command::new("/usr/bin/ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", principal, "-f"])
        .arg(&key)
        .output()
        .map_err(|e| {
            format!(
                "/usr/bin/ssh-keygen (apt-get install openssh-client): {}",
                e
            )
        })?;
    if !made.status.success() {
        return Err(format!("ssh-keygen failed: {:?}", made));
    }
    let public = fs::read_to_string(dir.join("signing-key.pub")).map_err(|e| e.to_string())?;
    let allowed = dir.join("allowed_signers");
    fs::write(&allowed, format!("{} {}", principal, public)).map_err(|e| e.to_string())?;
    Ok((key, allowed))
}

/// Copies a tree: directories, files and symbolic links (as links).
fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type()?;
        if kind.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(&src)?, &dst)?;
        } else if kind.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}
