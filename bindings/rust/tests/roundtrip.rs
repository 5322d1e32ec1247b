// SPDX-License-Identifier: MIT
// The crate end to end on the repository's example install: export `researcher`, verify it,
// import it into a fresh install (a stale integrity refused, nothing written), a tampered
// bundle refused, and a cancelled export (before it starts, and in the middle of its
// workspace copy) that leaves no staging directory.
use clawport::{CancelFlag, ErrorCode, ExportOptions, ImportOptions, Operation, Options};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn example_config() -> PathBuf {
    repo().join("examples/zeroclaw-install/config.toml")
}

/// A fresh directory under the system temp directory, removed on drop.
struct Scratch(PathBuf);
impl Scratch {
    fn new(name: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "clawport-rs-{}-{}-{}",
            name,
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
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

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn fresh_install(dir: &Path) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    let config = dir.join("config.toml");
    fs::write(&config, "schema_version = 3\n").unwrap();
    config
}

fn export_example(out: &Path) -> clawport::ExportReport {
    clawport::export(
        &ExportOptions::new("researcher", out)
            .config(example_config())
            .no_sync(true),
        None,
    )
    .expect("the example install exports")
}

#[test]
fn export_verify_import_round_trip() {
    let t = Scratch::new("roundtrip");
    let bundle = t.0.join("bundle");

    let dry = clawport::export(
        &ExportOptions::new("researcher", &bundle)
            .config(example_config())
            .dry_run(true),
        None,
    )
    .unwrap();
    assert!(dry.dry_run);
    assert!(!bundle.exists(), "a dry run wrote the bundle");

    let report = export_example(&bundle);
    assert_eq!(report.alias, "researcher");
    assert!(!report.dry_run);
    assert!(report.workspace_files > 0);
    assert!(
        !report.required_secrets.is_empty(),
        "the example's secrets are scrubbed and listed"
    );
    assert!(report.json.contains("\"required_secrets\""));

    let verdict = clawport::verify(&bundle, None).unwrap();
    assert!(verdict.ok, "{:?}", verdict.findings);
    assert_eq!(verdict.root_agent, "researcher");

    let target = t.0.join("target");
    let config = fresh_install(&target);
    let mut o = ImportOptions::new(&bundle).config(&config);
    o.jobs = Some(3); // --jobs: the plan and its integrity do not depend on it
    let plan = clawport::import_plan(&o, None).unwrap();
    assert_eq!(plan.alias, "researcher");
    assert!(plan.plan_integrity.starts_with("sha256:"));
    assert!(plan
        .entries
        .iter()
        .any(|e| e.kind == "agent" && e.action == "add"));
    assert_eq!(names(&target), vec!["config.toml"], "planning wrote");

    let stale = clawport::import_apply(&o, "sha256:00", None).unwrap_err();
    assert_eq!(stale.code, ErrorCode::PlanIntegrityMismatch);
    assert_eq!(stale.subject, "plan_integrity");
    assert_eq!(
        names(&target),
        vec!["config.toml"],
        "a refused import wrote"
    );

    let applied = clawport::import_apply(&o, &plan.plan_integrity, None).unwrap();
    assert_eq!(applied.plan.plan_integrity, plan.plan_integrity);
    assert!(applied.files > 0);
    assert!(!applied.backup.is_empty());
    let text = fs::read_to_string(&config).unwrap();
    assert!(text.contains("[agents.researcher]"), "{}", text);
    assert!(target
        .join("agents/researcher/workspace/IDENTITY.md")
        .exists());

    // Issue 45 item 2: the hand-off after the import, as `secrets list` and `status` say it.
    let (fields, _) = clawport::secrets_list(Some(&config), None).unwrap();
    assert!(fields
        .iter()
        .any(|f| f.path == "providers.models.anthropic.main.api_key" && f.state == "blank"));
    let st = clawport::status(Some(&config), None).unwrap();
    let agents = st.value.get("agents").as_array();
    assert!(agents
        .iter()
        .any(|a| a.get("alias").as_str() == Some("researcher")
            && a.get("imported").get("source_alias").as_str() == Some("researcher")));
    assert_eq!(st.value.get("pending").as_bool(), Some(true), "{}", st.json);

    // `secrets set`: the value as bytes the caller owns; a refusal writes nothing and never
    // holds the value; the stored form is enc2: under a key made now.
    let before = fs::read(&config).unwrap();
    let entries = names(&target);
    let secret: &[u8] = b"sk-rs-crate-value-5e1d";
    let shown = String::from_utf8_lossy(secret).into_owned();
    let refused =
        clawport::secrets_set(Some(&config), "agents.researcher.model", secret, None).unwrap_err();
    assert_eq!(refused.code, ErrorCode::NotFound);
    assert!(!refused.message.contains(&shown) && !refused.subject.contains(&shown));
    let api_key = "providers.models.anthropic.main.api_key";
    let empty = clawport::secrets_set(Some(&config), api_key, b"", None).unwrap_err();
    assert_eq!(empty.code, ErrorCode::InvalidArgument);
    assert_eq!(
        fs::read(&config).unwrap(),
        before,
        "a refused secrets set wrote"
    );
    assert_eq!(names(&target), entries, "a refused secrets set left a file");
    let set = clawport::secrets_set(Some(&config), api_key, secret, None).unwrap();
    assert_eq!(set.path, api_key);
    assert_eq!(set.stored, "encrypted");
    assert!(set.key_created && set.key_file.ends_with("/.secret_key"));
    // The field was blank: nothing is lost, so no backup is kept (issue 44 item 8).
    assert!(set.backup.is_empty() && !set.json.contains(&shown));
    let text = fs::read_to_string(&config).unwrap();
    assert!(
        !text.contains(&shown) && text.contains("api_key = \"enc2:"),
        "{}",
        text
    );
    let (fields, _) = clawport::secrets_list(Some(&config), None).unwrap();
    assert!(fields
        .iter()
        .any(|f| f.path == api_key && f.state == "encrypted"));
}

#[test]
fn a_tampered_bundle_is_refused() {
    let t = Scratch::new("tampered");
    let bundle = t.0.join("bundle");
    export_example(&bundle);
    fs::write(bundle.join("workspace/IDENTITY.md"), "# someone else\n").unwrap();

    let verdict = clawport::verify(&bundle, None).unwrap();
    assert!(!verdict.ok);
    assert!(verdict
        .findings
        .iter()
        .any(|f| f.severity == clawport::Severity::Error && f.path.contains("IDENTITY.md")));

    let target = t.0.join("target");
    let config = fresh_install(&target);
    let refused =
        clawport::import_plan(&ImportOptions::new(&bundle).config(&config), None).unwrap_err();
    assert_eq!(refused.code, ErrorCode::BundleInvalid);
    assert_eq!(names(&target), vec!["config.toml"]);
    assert_eq!(fs::read_to_string(&config).unwrap(), "schema_version = 3\n");
}

#[test]
fn a_cancelled_export_leaves_nothing() {
    let t = Scratch::new("cancel-before");
    let cancel = CancelFlag::new();
    cancel.cancel();
    let err = clawport::export(
        &ExportOptions::new("researcher", t.0.join("bundle")).config(example_config()),
        Some(&cancel),
    )
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::Cancelled);
    assert!(names(&t.0).is_empty(), "left: {:?}", names(&t.0));
}

/// An install whose agent has a workspace of many files, so the copy takes a while.
fn big_install(dir: &Path, files: usize) -> PathBuf {
    let ws = dir.join("agents/researcher/workspace/notes");
    fs::create_dir_all(&ws).unwrap();
    for i in 0..files {
        fs::write(
            ws.join(format!("note-{:05}.md", i)),
            format!("note {}\n", i),
        )
        .unwrap();
    }
    let config = dir.join("config.toml");
    fs::write(
        &config,
        "schema_version = 3\n\n[providers.models.anthropic.main]\nmodel = \"claude-opus-5\"\n\n\
         [risk_profiles.guarded]\n\n[agents.researcher]\nmodel_provider = \"anthropic.main\"\n\
         risk_profile = \"guarded\"\n",
    )
    .unwrap();
    config
}

#[test]
fn an_export_cancelled_while_copying_removes_its_staging_directory() {
    let t = Scratch::new("cancel-during");
    let config = big_install(&t.0.join("install"), 1500);
    let parent = t.0.join("out");
    fs::create_dir_all(&parent).unwrap();
    let cancel = CancelFlag::new();
    // The watcher cancels as soon as the staging directory appears beside the destination.
    let watcher = {
        let (cancel, parent) = (cancel.clone(), parent.clone());
        thread::spawn(move || {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(60) {
                if names(&parent)
                    .iter()
                    .any(|n| n.starts_with(".zeroclaw-export"))
                {
                    cancel.cancel();
                    return true;
                }
                thread::yield_now();
            }
            false
        })
    };
    let result = clawport::export(
        &ExportOptions::new("researcher", parent.join("bundle"))
            .config(&config)
            .no_sync(true),
        Some(&cancel),
    );
    cancel.cancel(); // stops the watcher if the export ended first
    let saw_staging = watcher.join().unwrap();
    assert!(saw_staging, "the watcher never saw a staging directory");
    let err = result.expect_err("the export finished before the cancellation was seen");
    assert_eq!(err.code, ErrorCode::Cancelled);
    assert!(
        names(&parent).is_empty(),
        "left behind: {:?}",
        names(&parent)
    );
}

#[test]
fn options_are_checked_and_types_are_send() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<clawport::Error>();
    send_sync::<clawport::CancelFlag>();
    send_sync::<clawport::ExportReport>();
    send_sync::<clawport::VerifyReport>();
    send_sync::<clawport::ImportPlan>();
    send_sync::<clawport::ImportResult>();
    assert_eq!(clawport::abi_version(), 1);
    assert!(clawport::version().starts_with(char::is_numeric));
    let err =
        clawport::run(Operation::Verify, &Options::new().text("bundel", "x"), None).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert_eq!(err.subject, "bundel");
    assert_eq!(err.code.name(), "invalid_argument");
    let missing = clawport::verify("/nonexistent/bundle", None);
    match missing {
        Ok(r) => assert!(!r.ok),
        Err(e) => assert_ne!(e.code, ErrorCode::InvalidArgument),
    }
    let audit = clawport::skills_audit(
        &[repo().join("examples/zeroclaw-install/shared/skills/research_tools/arxiv_search")],
        false,
        None,
    )
    .unwrap();
    assert!(audit.json.contains("\"findings\""));
}
