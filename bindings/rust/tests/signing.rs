// SPDX-License-Identifier: MIT
// Signatures through the crate (issue 45 item 1): export signs with a key ssh-keygen makes
// here, verify checks it against an allowed_signers file (and a requested signer), import
// requires it; the reports say `signed` and `signed_by` as the CLI's --json does. Also: a NUL
// in an option is refused (issue 41 item 18), and every library code has its name (45.3).
use clawport::{ErrorCode, ExportOptions, ImportOptions, Operation, Options, VerifyOptions};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// A fresh directory under the system temp directory, removed on drop.
struct Scratch(PathBuf);
impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("clawport-rs-{}-{}", name, std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn fresh_install(dir: &Path) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    let config = dir.join("config.toml");
    fs::write(&config, "schema_version = 3\n").unwrap();
    config
}

fn export(out: &Path, key: Option<&Path>) -> clawport::ExportReport {
    let mut o = ExportOptions::new("researcher", out)
        .config(repo().join("examples/zeroclaw-install/config.toml"))
        .no_sync(true);
    if let Some(k) = key {
        o = o.sign(k);
    }
    clawport::export(&o, None).expect("the example install exports")
}

#[test]
fn a_signed_bundle_verifies_and_imports_naming_its_signer() {
    if !Path::new("/usr/bin/ssh-keygen").exists() {
        eprintln!("SKIPPED: /usr/bin/ssh-keygen is not installed (apt-get install openssh-client)");
        return;
    }
    let t = Scratch::new("signing");
    let key = t.0.join("alice");
    let made = Command::new("/usr/bin/ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "alice", "-f"])
        .arg(&key)
        .output()
        .unwrap();
    assert!(made.status.success(), "{:?}", made);
    let public = fs::read_to_string(t.0.join("alice.pub")).unwrap();
    let allowed = t.0.join("allowed_signers");
    fs::write(&allowed, format!("alice@example.org {}", public)).unwrap();

    let signed = t.0.join("signed");
    assert!(export(&signed, Some(&key)).signed);
    let unsigned = t.0.join("unsigned");
    assert!(!export(&unsigned, None).signed);

    let r = clawport::verify_with(
        &VerifyOptions::new(&signed).allowed_signers(&allowed, None),
        None,
    )
    .unwrap();
    assert!(r.ok && r.authenticated && r.signed, "{}", r.json);
    assert_eq!(r.signed_by.as_deref(), Some("alice@example.org"));
    // Not checked: signed, but nobody named.
    let r = clawport::verify(&signed, None).unwrap();
    assert!(r.ok && r.signed && r.signed_by.is_none(), "{}", r.json);
    // Another signer asked for: does not verify, nobody named.
    let r = clawport::verify_with(
        &VerifyOptions::new(&signed).allowed_signers(&allowed, Some("bob@example.org")),
        None,
    )
    .unwrap();
    assert!(!r.ok && r.signed_by.is_none(), "{}", r.json);
    assert!(r.findings.iter().any(|f| f.code == "signer_untrusted"));
    // An unsigned bundle checked against allowed signers does not verify.
    let r = clawport::verify_with(
        &VerifyOptions::new(&unsigned).allowed_signers(&allowed, None),
        None,
    )
    .unwrap();
    assert!(!r.ok && !r.signed && r.findings.iter().any(|f| f.code == "unsigned"));

    let config = fresh_install(&t.0.join("dst"));
    let o = ImportOptions::new(&signed)
        .config(&config)
        .require_signature(&allowed, Some("alice@example.org"));
    let plan = clawport::import_plan(&o, None).unwrap();
    assert_eq!(plan.signed_by.as_deref(), Some("alice@example.org"));
    let done = clawport::import_apply(&o, &plan.plan_integrity, None).unwrap();
    assert_eq!(done.plan.signed_by.as_deref(), Some("alice@example.org"));
    assert!(fs::read_to_string(&config)
        .unwrap()
        .contains("[agents.researcher]"));

    // Required and absent: refused with the library's own code, nothing written.
    let config = fresh_install(&t.0.join("refusing"));
    let e = clawport::import_plan(
        &ImportOptions::new(&unsigned)
            .config(&config)
            .require_signature(&allowed, None),
        None,
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::NotSigned);
    assert_eq!(e.code.name(), "unsigned");
    assert_eq!(fs::read_dir(t.0.join("refusing")).unwrap().count(), 1);
}

#[test]
fn a_nul_in_an_option_is_refused_not_cut_short() {
    // "/tmp\0/x" once verified "/tmp".
    let e = clawport::verify("/tmp\0/x", None).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert_eq!(e.subject, "bundle");
    assert!(e.message.contains("NUL"), "{}", e.message);
    let e = clawport::skills_audit(&[PathBuf::from("/tmp\0/x")], false, None).unwrap_err();
    assert_eq!(
        (e.code, e.subject.as_str()),
        (ErrorCode::InvalidArgument, "dirs")
    );
    let e = clawport::run(
        Operation::Verify,
        &Options::new().text("bundle", "a\0b"),
        None,
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
}

#[test]
fn every_library_code_has_its_wire_name() {
    assert_eq!(ErrorCode::NotSigned.name(), "unsigned");
    assert_eq!(ErrorCode::SigningFailed.name(), "signing_failed");
    assert_eq!(
        ErrorCode::PlanIntegrityMismatch.name(),
        "plan_integrity_mismatch"
    );
    assert_eq!(ErrorCode::Cancelled.name(), "cancelled");
    assert_eq!(ErrorCode::Other(100_000).name(), "unknown");
}
