// SPDX-License-Identifier: MIT
//! The typed operations: export, verify, import (plan and apply) and skills audit with
//! typed results; recover, skills list, claw inspect and plan, convert with the document.

use super::{
    invalid, risk_flags, run, run_secrets_set, strings, CancelFlag, Document, Operation, Options,
    Result, RiskFlag, Value,
};
use std::path::{Path, PathBuf};

/// `clawport export <alias> --out <dir>`.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// The agent to export (its alias in the config).
    pub alias: String,
    /// The bundle directory to write.
    pub out: PathBuf,
    /// The install's config.toml (None: $ZEROCLAW_CONFIG_DIR/config.toml, else
    /// ~/.zeroclaw/config.toml, as the CLI).
    pub config: Option<PathBuf>,
    /// Replace a non-empty destination directory.
    pub force: bool,
    /// Check and report what would travel; write nothing.
    pub dry_run: bool,
    /// Skip flushing the bundle to disk (scratch exports only).
    pub no_sync: bool,
    /// "exchange" (default) or "swap".
    pub publish: Option<String>,
    /// Sign the digest list with this SSH key (`--sign`): a private key file, or a `.pub`
    /// whose private half is in ssh-agent ($SSH_AUTH_SOCK).
    pub sign: Option<PathBuf>,
    /// `--jobs`: threads that read, hash and copy files (None: the CLI's default).
    pub jobs: Option<u32>,
}

impl ExportOptions {
    /// Export `alias` into `out`, every other option as the CLI's default.
    pub fn new(alias: &str, out: impl AsRef<Path>) -> ExportOptions {
        ExportOptions {
            alias: alias.to_string(),
            out: out.as_ref().to_path_buf(),
            config: None,
            force: false,
            dry_run: false,
            no_sync: false,
            publish: None,
            sign: None,
            jobs: None,
        }
    }
    /// The install's config.toml (else the CLI's default).
    pub fn config(mut self, path: impl AsRef<Path>) -> ExportOptions {
        self.config = Some(path.as_ref().to_path_buf());
        self
    }
    /// Check and report only; write nothing.
    pub fn dry_run(mut self, on: bool) -> ExportOptions {
        self.dry_run = on;
        self
    }
    /// Replace a non-empty destination directory.
    pub fn force(mut self, on: bool) -> ExportOptions {
        self.force = on;
        self
    }
    /// Skip flushing the bundle to disk (scratch exports only).
    pub fn no_sync(mut self, on: bool) -> ExportOptions {
        self.no_sync = on;
        self
    }
    /// Signs the bundle with `key` (ssh-keygen -Y sign, namespace `clawport-bundle`).
    pub fn sign(mut self, key: impl AsRef<Path>) -> ExportOptions {
        self.sign = Some(key.as_ref().to_path_buf());
        self
    }
    /// `--jobs`: `n` threads (1 to 256) read, hash and copy files; the documents are the
    /// same for every value.
    pub fn jobs(mut self, n: u32) -> ExportOptions {
        self.jobs = Some(n);
        self
    }
    fn options(&self) -> Result<Options> {
        let mut o = Options::new()
            .text("alias", &self.alias)
            .path("out", &self.out)?;
        if let Some(c) = &self.config {
            o = o.path("config", c)?;
        }
        if let Some(p) = &self.publish {
            o = o.text("publish", p);
        }
        if let Some(k) = &self.sign {
            o = o.path("sign", k)?;
        }
        if let Some(n) = self.jobs {
            o = o.number("jobs", u64::from(n));
        }
        Ok(o.flag("force", self.force)
            .flag("dry-run", self.dry_run)
            .flag("no-sync", self.no_sync))
    }
}

/// What an export carried, dropped and flagged (`clawport export --json`).
#[derive(Clone, Debug)]
pub struct ExportReport {
    /// The agent exported.
    pub alias: String,
    /// The destination as given.
    pub out: String,
    /// The destination made absolute.
    pub destination: String,
    /// Nothing was written (a dry run).
    pub dry_run: bool,
    /// Workspace files carried.
    pub workspace_files: u64,
    /// Their bytes.
    pub workspace_bytes: u64,
    /// Skill files carried.
    pub skill_files: u64,
    /// The capabilities the agent is granted.
    pub risk_flags: Vec<RiskFlag>,
    /// Config fields whose secrets were scrubbed and must be supplied on the target.
    pub required_secrets: Vec<String>,
    /// `{path, reason, detail}` of every entry left behind.
    pub dropped: Vec<Dropped>,
    /// When the bundle was made (RFC 3339; `SOURCE_DATE_EPOCH` when set).
    pub exported_at: String,
    /// The publish strategy used ("exchange", "swap", "none" for a dry run).
    pub publish_strategy: String,
    /// The bundle carries a signature (`sign` was given).
    pub signed: bool,
    /// The document as the library rendered it.
    pub json: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// An entry the export left behind, and why.
pub struct Dropped {
    /// The path left behind.
    pub path: String,
    /// Why (a stable reason code).
    pub reason: String,
    /// The detail, in words.
    pub detail: String,
}

/// Exports an agent; polls `cancel` for every workspace entry and skill and before
/// publishing (a cancelled export leaves no staging directory).
pub fn export(o: &ExportOptions, cancel: Option<&CancelFlag>) -> Result<ExportReport> {
    let d = run(Operation::Export, &o.options()?, cancel)?;
    let v = &d.value;
    Ok(ExportReport {
        alias: v.get("alias").str_or_empty(),
        out: v.get("out").str_or_empty(),
        destination: v.get("destination").str_or_empty(),
        dry_run: v.get("dry_run").as_bool().unwrap_or(false),
        workspace_files: v.get("workspace").get("files").as_u64().unwrap_or(0),
        workspace_bytes: v.get("workspace").get("bytes").as_u64().unwrap_or(0),
        skill_files: v.get("skills").get("files").as_u64().unwrap_or(0),
        risk_flags: risk_flags(v.get("risk_flags")),
        required_secrets: strings(v.get("required_secrets")),
        dropped: v
            .get("dropped")
            .as_array()
            .iter()
            .map(|x| Dropped {
                path: x.get("path").str_or_empty(),
                reason: x.get("reason").str_or_empty(),
                detail: x.get("detail").str_or_empty(),
            })
            .collect(),
        exported_at: v.get("exported_at").str_or_empty(),
        publish_strategy: v.get("publish").get("strategy").str_or_empty(),
        signed: v.get("signed").as_bool().unwrap_or(false),
        json: d.json,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// How serious a finding is.
pub enum Severity {
    /// The bundle does not verify.
    Error,
    /// Worth a look; the bundle still verifies.
    Warning,
}

/// One finding of `verify` (or a warning of an import plan).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The finding's code (`digest_mismatch`, `unsigned`, ...).
    pub code: String,
    /// The path concerned.
    pub path: String,
    /// What was found, in words.
    pub detail: String,
    /// Error or warning.
    pub severity: Severity,
}

fn findings(v: &Value) -> Vec<Finding> {
    v.as_array()
        .iter()
        .map(|f| Finding {
            code: f.get("code").str_or_empty(),
            path: f.get("path").str_or_empty(),
            detail: f.get("detail").str_or_empty(),
            severity: if f.get("severity").as_str() == Some("error") {
                Severity::Error
            } else {
                Severity::Warning
            },
        })
        .collect()
}

/// The verdict of `clawport verify --json`.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// The bundle as given.
    pub bundle: String,
    /// True when no finding is an error (warnings allowed).
    pub ok: bool,
    /// The digest list is signed and the signature was checked and accepted.
    pub authenticated: bool,
    /// The agent the bundle carries.
    pub root_agent: String,
    /// Files checked.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
    /// The digest of the bundle's manifest (`sha256:<hex>`).
    pub manifest_sha256: String,
    /// The bundle carries a signature file (checked or not: see `signed_by`).
    pub signed: bool,
    /// The principal whose signature was checked and accepted (None when no signature was
    /// checked, or it was refused: a finding says why).
    pub signed_by: Option<String>,
    /// Every finding.
    pub findings: Vec<Finding>,
    /// The document as the library rendered it.
    pub json: String,
}

/// `clawport verify <bundle> [--allowed-signers F [--signer P]]`.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// The bundle directory.
    pub bundle: PathBuf,
    /// Check the signature against this allowed_signers file (ssh-keygen's format): an
    /// unsigned bundle, or one no allowed signer signed, then does not verify.
    pub allowed_signers: Option<PathBuf>,
    /// The principal that must have signed (default: any allowed signer); needs
    /// `allowed_signers`.
    pub signer: Option<String>,
    /// `--jobs`: threads that read and hash files (None: the CLI's default).
    pub jobs: Option<u32>,
}

impl VerifyOptions {
    /// Verify `bundle`, without a signature check.
    pub fn new(bundle: impl AsRef<Path>) -> VerifyOptions {
        VerifyOptions {
            bundle: bundle.as_ref().to_path_buf(),
            allowed_signers: None,
            signer: None,
            jobs: None,
        }
    }
    /// Checks the signature against `allowed_signers`; `signer`: who must have signed.
    pub fn allowed_signers(
        mut self,
        allowed_signers: impl AsRef<Path>,
        signer: Option<&str>,
    ) -> VerifyOptions {
        self.allowed_signers = Some(allowed_signers.as_ref().to_path_buf());
        self.signer = signer.map(String::from);
        self
    }
    /// `--jobs`: `n` threads (1 to 256) read, hash and copy files; the documents are the
    /// same for every value.
    pub fn jobs(mut self, n: u32) -> VerifyOptions {
        self.jobs = Some(n);
        self
    }
    fn options(&self) -> Result<Options> {
        let mut o = Options::new().path("bundle", &self.bundle)?;
        if let Some(a) = &self.allowed_signers {
            o = o.path("allowed-signers", a)?;
        }
        if let Some(s) = &self.signer {
            o = o.text("signer", s);
        }
        if let Some(n) = self.jobs {
            o = o.number("jobs", u64::from(n));
        }
        Ok(o)
    }
}

/// Verifies a bundle as hostile input. The verdict is in the report; `Err` only when the
/// verification could not run.
pub fn verify(bundle: impl AsRef<Path>, cancel: Option<&CancelFlag>) -> Result<VerifyReport> {
    verify_with(&VerifyOptions::new(bundle), cancel)
}

/// [`verify`], and the signature when `allowed_signers` is given.
pub fn verify_with(o: &VerifyOptions, cancel: Option<&CancelFlag>) -> Result<VerifyReport> {
    let d = run(Operation::Verify, &o.options()?, cancel)?;
    let v = &d.value;
    Ok(VerifyReport {
        bundle: v.get("bundle").str_or_empty(),
        ok: v.get("ok").as_bool().unwrap_or(false),
        authenticated: v.get("authenticated").as_bool().unwrap_or(false),
        root_agent: v.get("root_agent").str_or_empty(),
        files: v.get("files").as_u64().unwrap_or(0),
        bytes: v.get("bytes").as_u64().unwrap_or(0),
        manifest_sha256: v.get("manifest_sha256").str_or_empty(),
        signed: v.get("signed").as_bool().unwrap_or(false),
        signed_by: v.get("signed_by").as_str().map(String::from),
        findings: findings(v.get("findings")),
        json: d.json,
    })
}

/// `clawport import <bundle> [--config] [--as] [--map]...`.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The bundle directory.
    pub bundle: PathBuf,
    /// The target install's config.toml (None: the CLI's default).
    pub config: Option<PathBuf>,
    /// The agent's alias on the target.
    pub as_alias: Option<String>,
    /// `KIND.ALIAS=LOCAL`: point references to a bundle entry at a local one.
    pub maps: Vec<String>,
    /// `--require-signature --allowed-signers F`: refuse the bundle unless a signer this
    /// allowed_signers file lists signed it.
    pub allowed_signers: Option<PathBuf>,
    /// `--signer P`: the principal that must have signed (default: any allowed signer).
    pub signer: Option<String>,
    /// `--jobs`: threads that read, hash and copy files (None: the CLI's default).
    pub jobs: Option<u32>,
}

impl ImportOptions {
    /// Import `bundle`, every other option as the CLI's default.
    pub fn new(bundle: impl AsRef<Path>) -> ImportOptions {
        ImportOptions {
            bundle: bundle.as_ref().to_path_buf(),
            config: None,
            as_alias: None,
            maps: Vec::new(),
            allowed_signers: None,
            signer: None,
            jobs: None,
        }
    }
    /// Requires a signature by a signer `allowed_signers` lists (`signer`: that one).
    pub fn require_signature(
        mut self,
        allowed_signers: impl AsRef<Path>,
        signer: Option<&str>,
    ) -> ImportOptions {
        self.allowed_signers = Some(allowed_signers.as_ref().to_path_buf());
        self.signer = signer.map(String::from);
        self
    }
    /// The target install's config.toml (else the CLI's default).
    pub fn config(mut self, path: impl AsRef<Path>) -> ImportOptions {
        self.config = Some(path.as_ref().to_path_buf());
        self
    }
    /// The agent's alias on the target.
    pub fn as_alias(mut self, alias: &str) -> ImportOptions {
        self.as_alias = Some(alias.to_string());
        self
    }
    /// `--jobs`: `n` threads (1 to 256) read, hash and copy files; the documents are the
    /// same for every value.
    pub fn jobs(mut self, n: u32) -> ImportOptions {
        self.jobs = Some(n);
        self
    }
    fn options(&self) -> Result<Options> {
        let mut o = Options::new().path("bundle", &self.bundle)?;
        if let Some(c) = &self.config {
            o = o.path("config", c)?;
        }
        if let Some(a) = &self.as_alias {
            o = o.text("as", a);
        }
        if !self.maps.is_empty() {
            o = o.list("map", &self.maps);
        }
        if let Some(a) = &self.allowed_signers {
            o = o
                .flag("require-signature", true)
                .path("allowed-signers", a)?;
        }
        if let Some(s) = &self.signer {
            o = o.text("signer", s);
        }
        if let Some(n) = self.jobs {
            o = o.number("jobs", u64::from(n));
        }
        Ok(o)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// A config entry of the import and what happens to it.
pub struct EntryChange {
    /// The kind (`agent`, `provider`, `mcp_server`, ...).
    pub kind: String,
    /// Its name in the bundle.
    pub from: String,
    /// Its name in the target.
    pub to: String,
    /// add, rename, reuse, map
    pub action: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// A tree the import places in the target install.
pub struct Placement {
    /// What it is (`workspace`, `skill`).
    pub kind: String,
    /// Where it is in the bundle.
    pub from: String,
    /// Where it goes in the target.
    pub to: String,
}

/// What an import would do (`clawport import --json` without `--yes`); nothing written.
#[derive(Clone, Debug)]
pub struct ImportPlan {
    /// The bundle as given.
    pub bundle: String,
    /// The target's config.toml.
    pub config: String,
    /// The agent's alias in the bundle.
    pub source_alias: String,
    /// The alias it gets in the target.
    pub alias: String,
    /// The digest of the bundle's manifest (`sha256:<hex>`).
    pub manifest_sha256: String,
    /// The principal whose signature the plan checked (`require_signature`); None when none
    /// was required.
    pub signed_by: Option<String>,
    /// Every config entry and what happens to it.
    pub entries: Vec<EntryChange>,
    /// Every tree placed.
    pub placements: Vec<Placement>,
    /// The capabilities the agent is granted.
    pub risk_flags: Vec<RiskFlag>,
    /// Config fields whose credentials must be supplied after the import.
    pub secrets: Vec<String>,
    /// Warnings about the bundle.
    pub warnings: Vec<Finding>,
    /// `sha256:<hex>`: pass it to [`import_apply`] to apply exactly this plan.
    pub plan_integrity: String,
    /// The document as the library rendered it.
    pub json: String,
}

fn plan_of(v: &Value, json: String) -> ImportPlan {
    ImportPlan {
        bundle: v.get("bundle").str_or_empty(),
        config: v.get("config").str_or_empty(),
        source_alias: v.get("source_alias").str_or_empty(),
        alias: v.get("alias").str_or_empty(),
        manifest_sha256: v.get("manifest_sha256").str_or_empty(),
        signed_by: v.get("signed_by").as_str().map(String::from),
        entries: v
            .get("entries")
            .as_array()
            .iter()
            .map(|e| EntryChange {
                kind: e.get("kind").str_or_empty(),
                from: e.get("from").str_or_empty(),
                to: e.get("to").str_or_empty(),
                action: e.get("action").str_or_empty(),
            })
            .collect(),
        placements: v
            .get("placements")
            .as_array()
            .iter()
            .map(|p| Placement {
                kind: p.get("kind").str_or_empty(),
                from: p.get("from").str_or_empty(),
                to: p.get("to").str_or_empty(),
            })
            .collect(),
        risk_flags: risk_flags(v.get("risk_flags")),
        secrets: v
            .get("secrets")
            .as_array()
            .iter()
            .map(|s| s.get("path").str_or_empty())
            .collect(),
        warnings: findings(v.get("warnings")),
        plan_integrity: v.get("plan_integrity").str_or_empty(),
        json,
    }
}

/// Verifies the bundle and plans its import; writes nothing.
pub fn import_plan(o: &ImportOptions, cancel: Option<&CancelFlag>) -> Result<ImportPlan> {
    let d = run(Operation::ImportPlan, &o.options()?, cancel)?;
    Ok(plan_of(&d.value, d.json))
}

/// An applied import (`clawport import --yes --json`).
#[derive(Clone, Debug)]
pub struct ImportResult {
    /// The plan that was applied (recomputed, and hashing to the integrity given).
    pub plan: ImportPlan,
    /// The previous config, kept beside it.
    pub backup: String,
    /// Files placed.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// Applies the import only if its plan, recomputed now, hashes to `plan_integrity`
/// (else [`super::ErrorCode::PlanIntegrityMismatch`], nothing written).
pub fn import_apply(
    o: &ImportOptions,
    plan_integrity: &str,
    cancel: Option<&CancelFlag>,
) -> Result<ImportResult> {
    let d = run(
        Operation::ImportApply,
        &o.options()?.text("plan-integrity", plan_integrity),
        cancel,
    )?;
    let v = &d.value;
    Ok(ImportResult {
        backup: v.get("backup").str_or_empty(),
        files: v.get("files").as_u64().unwrap_or(0),
        bytes: v.get("bytes").as_u64().unwrap_or(0),
        plan: plan_of(v, d.json.clone()),
    })
}

/// One row of `clawport skills audit --json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditFinding {
    /// The skill.
    pub skill: String,
    /// The file, when the finding is about one.
    pub file: Option<String>,
    /// The line, when it is about one.
    pub line: Option<u64>,
    /// What was found, in words.
    pub reason: String,
    /// The finding blocks the skill (unless scripts are allowed).
    pub blocking: bool,
}

#[derive(Clone, Debug)]
/// What `clawport skills audit --json` found.
pub struct AuditReport {
    /// Every finding.
    pub findings: Vec<AuditFinding>,
    /// The document as the library rendered it.
    pub json: String,
}

impl AuditReport {
    /// True when a finding blocks (the CLI exits 1).
    pub fn blocked(&self) -> bool {
        self.findings.iter().any(|f| f.blocking)
    }
}

/// Statically audits skill directories.
pub fn skills_audit(
    dirs: &[PathBuf],
    allow_scripts: bool,
    cancel: Option<&CancelFlag>,
) -> Result<AuditReport> {
    let mut names = Vec::new();
    for d in dirs {
        match d.to_str() {
            Some(s) => names.push(s.to_string()),
            None => {
                return Err(invalid(
                    format!("the path {} is not UTF-8", d.display()),
                    "dirs",
                ))
            }
        }
    }
    let o = Options::new()
        .list("dirs", &names)
        .flag("allow-scripts", allow_scripts);
    let d = run(Operation::SkillsAudit, &o, cancel)?;
    Ok(AuditReport {
        findings: d
            .value
            .get("findings")
            .as_array()
            .iter()
            .map(|f| AuditFinding {
                skill: f.get("skill").str_or_empty(),
                file: f.get("file").as_str().map(String::from),
                line: f.get("line").as_u64(),
                reason: f.get("reason").str_or_empty(),
                blocking: f.get("blocking").as_bool().unwrap_or(true),
            })
            .collect(),
        json: d.json,
    })
}

/// `clawport recover <dir>`: restores the previous bundle a crashed export left, removes
/// dead staging trees.
pub fn recover(dir: impl AsRef<Path>, cancel: Option<&CancelFlag>) -> Result<Document> {
    run(
        Operation::Recover,
        &Options::new().path("dir", dir.as_ref())?,
        cancel,
    )
}

/// `clawport skills list --json` (options: "config", "agent", "bundle").
pub fn skills_list(options: &Options, cancel: Option<&CancelFlag>) -> Result<Document> {
    run(Operation::SkillsList, options, cancel)
}

/// The state of one secret field (`clawport secrets list --json`); never its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretField {
    /// The config path (`providers.models.anthropic.main.api_key`).
    pub path: String,
    /// "blank", "set", "encrypted" (`enc2:`) or "reference" (`op://`).
    pub state: String,
}

/// Every secret field of an install's config and its state (`clawport secrets list`);
/// `config`: None is the CLI's default.
pub fn secrets_list(
    config: Option<&Path>,
    cancel: Option<&CancelFlag>,
) -> Result<(Vec<SecretField>, Document)> {
    let mut o = Options::new();
    if let Some(c) = config {
        o = o.path("config", c)?;
    }
    let d = run(Operation::SecretsList, &o, cancel)?;
    let fields = d
        .value
        .get("secrets")
        .as_array()
        .iter()
        .map(|s| SecretField {
            path: s.get("path").str_or_empty(),
            state: s.get("state").str_or_empty(),
        })
        .collect();
    Ok((fields, d))
}

/// What [`secrets_set`] wrote (`clawport secrets set --json`); never the value.
#[derive(Clone, Debug)]
pub struct SecretSet {
    /// The install's config.toml.
    pub config: String,
    /// The field set (`providers.models.anthropic.main.api_key`).
    pub path: String,
    /// How the value is stored: "encrypted" (`enc2:` under the install's key), "reference"
    /// (an `op://` reference, as given) or "set" (plain text: `[secrets] encrypt = false`).
    pub stored: String,
    /// The previous config, kept beside it.
    pub backup: String,
    /// The install's key file (`.secret_key`; "" when the value is not encrypted).
    pub key_file: String,
    /// The key file was created by this call.
    pub key_created: bool,
    /// The document as the library rendered it.
    pub json: String,
}

/// `clawport secrets set <path>`: supplies the secret field `path` of an install's config
/// (`config`: None is the CLI's default) as ZeroClaw stores it. `value` stays the caller's:
/// the library reads the bytes in place (no copy is made by the crate or the C binding; wipe
/// them when this returns), and they are never in an error or the result. Only that value
/// changes; the previous config is kept. Refused, nothing written: a path that is not a
/// secret field ([`super::ErrorCode::NotFound`]), an empty value or one that is already
/// ciphertext ([`super::ErrorCode::InvalidArgument`]).
pub fn secrets_set(
    config: Option<&Path>,
    path: &str,
    value: &[u8],
    cancel: Option<&CancelFlag>,
) -> Result<SecretSet> {
    let mut o = Options::new().text("path", path);
    if let Some(c) = config {
        o = o.path("config", c)?;
    }
    let d = run_secrets_set(&o, value, cancel)?;
    let v = &d.value;
    Ok(SecretSet {
        config: v.get("config").str_or_empty(),
        path: v.get("path").str_or_empty(),
        stored: v.get("stored").str_or_empty(),
        backup: v.get("backup").str_or_empty(),
        key_file: v.get("key_file").str_or_empty(),
        key_created: v.get("key_created").as_bool().unwrap_or(false),
        json: d.json,
    })
}

/// `clawport status --json`: the install's agents (and which were imported), its blank
/// secrets, whether it validates, the leftovers of interrupted commands, and `pending`.
pub fn status(config: Option<&Path>, cancel: Option<&CancelFlag>) -> Result<Document> {
    let mut o = Options::new();
    if let Some(c) = config {
        o = o.path("config", c)?;
    }
    run(Operation::Status, &o, cancel)
}

/// `clawport claw inspect --json` (options: "package", "codes").
pub fn claw_inspect(options: &Options, cancel: Option<&CancelFlag>) -> Result<Document> {
    run(Operation::ClawInspect, options, cancel)
}

/// `clawport claw plan --json` (options: "package", "state-dir", "agent-id", "workspace",
/// "without-packages").
pub fn claw_plan(options: &Options, cancel: Option<&CancelFlag>) -> Result<Document> {
    run(Operation::ClawPlan, options, cancel)
}

/// `clawport convert --json` (options: "source", "to", "out", "dry-run", "allow-narrowing").
pub fn convert(options: &Options, cancel: Option<&CancelFlag>) -> Result<Document> {
    run(Operation::Convert, options, cancel)
}
