// SPDX-License-Identifier: MIT
// The example is the hand-off (issue 45 item 6): `cargo test` runs examples/agents.rs's
// `handoff` (export signed -> verify with the signature -> import plan -> apply with the
// plan's integrity -> status) on a copy of the example install, as `agents handoff` does.
#[path = "../examples/agents.rs"]
#[allow(dead_code)]
mod agents;

use std::fs;
use std::path::Path;

#[test]
fn the_example_hands_an_agent_off_between_two_installs() {
    if !Path::new("/usr/bin/ssh-keygen").exists() {
        eprintln!("SKIPPED: /usr/bin/ssh-keygen is not installed (apt-get install openssh-client)");
        return;
    }
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let work = std::env::temp_dir().join(format!("clawport-rs-handoff-{}", std::process::id()));
    let _ = fs::remove_dir_all(&work);
    let h = agents::handoff(&work, &checkout).expect("the hand-off runs");
    assert_eq!(h.alias, "researcher");
    assert_eq!(h.signed_by, "alice@example.org");
    assert_eq!(h.imported_as, "researcher");
    assert!(h.plan_integrity.starts_with("sha256:"));
    let config = fs::read_to_string(&h.config).unwrap();
    assert!(config.contains("[agents.researcher]"), "{}", config);
    assert!(
        h.blank_secrets
            .iter()
            .any(|s| s == "providers.models.anthropic.main.api_key"),
        "{}",
        h.status_json
    );
    assert!(
        h.status_json.contains("\"pending\": true"),
        "{}",
        h.status_json
    );
    // The source install was a copy: the repository's example is untouched.
    assert!(work.join("source/config.toml").exists());
    let _ = fs::remove_dir_all(&work);
}
