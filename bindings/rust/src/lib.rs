// SPDX-License-Identifier: MIT
//! clawport from Rust: export a ZeroClaw agent as a scrubbed, self-validating bundle, verify
//! a bundle as hostile input, plan and apply its import into another install, and audit
//! skills, with the guarantees of the `clawport` CLI (docs/vendoring.md).
//!
//! Every operation takes its options, an optional [`CancelFlag`], and returns a typed result
//! built from the JSON document the CLI prints with `--json` (kept whole in `json`), or an
//! [`Error`] with the library's code, message and subject. A verdict is not an error:
//! a bundle that does not verify is `Ok(VerifyReport { ok: false, .. })`.
//!
//! All types here are plain data (`Send + Sync`); independent calls may run concurrently.
//! `unsafe` is denied everywhere but in the `ffi` module.
#![deny(unsafe_code)]
#![deny(missing_docs)]

mod codes;
mod ffi;
mod json;

pub use codes::ErrorCode;
use codes::CODES;

pub use json::Value;

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

impl ErrorCode {
    /// From the C status (1-based; 0 is success).
    fn from_status(status: i32) -> ErrorCode {
        if status >= 1 && (status as usize) <= CODES.len() {
            CODES[status as usize - 1].0
        } else {
            ErrorCode::Other(status)
        }
    }
    /// The wire name (`"unsafe_path"`), as in the CLI's JSON error document.
    pub fn name(self) -> &'static str {
        CODES
            .iter()
            .find(|(c, _)| *c == self)
            .map(|(_, n)| *n)
            .unwrap_or("unknown")
    }
}

/// A failure: nothing was written, or what was written was rolled back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The library's error code (the same in C and in the CLI's `--json` error document).
    pub code: ErrorCode,
    /// A message a person can act on.
    pub message: String,
    /// The path or config field concerned ("" when none).
    pub subject: String,
    /// The errno of the failing system call (0 when none).
    pub errno: i32,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if !self.subject.is_empty() && !self.message.contains(&self.subject) {
            write!(f, " ({})", self.subject)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

fn invalid(message: String, subject: &str) -> Error {
    Error {
        code: ErrorCode::InvalidArgument,
        message,
        subject: subject.to_string(),
        errno: 0,
    }
}

/// A clawport result: the value, or the library's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// A cancellation flag the caller owns: clone it to another thread (or a signal-handling
/// task) and call [`CancelFlag::cancel`]; the running operation stops and rolls back
/// ([`ErrorCode::Cancelled`]).
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicI32>);

impl CancelFlag {
    /// A flag no one has set yet.
    pub fn new() -> CancelFlag {
        CancelFlag::default()
    }
    /// Asks every operation polling this flag (and its clones) to stop and roll back.
    pub fn cancel(&self) {
        self.0.store(1, Ordering::Release);
    }
    /// True once [`CancelFlag::cancel`] was called on this flag or a clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Acquire) != 0
    }
}

/// An options object: the CLI's option names without dashes (`"dry-run"`), the positional
/// arguments by their CLI names (`"alias"`). A key the operation does not know is refused.
#[derive(Clone, Debug, Default)]
pub struct Options(Vec<(String, Value)>);

impl Options {
    /// An empty options object.
    pub fn new() -> Options {
        Options::default()
    }
    /// Adds a string option (`key` as the CLI names it, without dashes).
    pub fn text(mut self, key: &str, value: &str) -> Options {
        self.0
            .push((key.to_string(), Value::String(value.to_string())));
        self
    }
    /// Adds a path option; refused when the path is not UTF-8 (the library's options are JSON).
    pub fn path(self, key: &str, value: &Path) -> Result<Options> {
        match value.to_str() {
            Some(v) => Ok(self.text(key, v)),
            None => Err(invalid(
                format!("the path {} is not UTF-8", value.display()),
                key,
            )),
        }
    }
    /// Adds an integer option (`"jobs"`).
    pub fn number(mut self, key: &str, value: u64) -> Options {
        self.0
            .push((key.to_string(), Value::Number(value.to_string())));
        self
    }
    /// Adds a flag (`"dry-run"`) when `on`; absent otherwise, as the CLI's flags are.
    pub fn flag(mut self, key: &str, on: bool) -> Options {
        if on {
            self.0.push((key.to_string(), Value::Bool(true)));
        }
        self
    }
    /// Adds an array of strings (`"map"`, `"dirs"`).
    pub fn list(mut self, key: &str, values: &[String]) -> Options {
        let items = values.iter().map(|v| Value::String(v.clone())).collect();
        self.0.push((key.to_string(), Value::Array(items)));
        self
    }
    /// The options as the JSON object the C ABI reads.
    pub fn to_json(&self) -> String {
        Value::Object(self.0.clone()).to_json()
    }
}

/// The operations, for [`run`].
pub use ffi::Op as Operation;

/// A result document: the `--json` text and its parsed value.
#[derive(Clone, Debug)]
pub struct Document {
    /// The document's text, exactly as the CLI's `--json` prints it.
    pub json: String,
    /// The document parsed.
    pub value: Value,
}

/// The first string value holding U+0000 (which every path and name would end at, in the
/// library's system calls), by the key of its option.
fn nul_in(options: &Options) -> Option<&str> {
    fn holds(v: &Value) -> bool {
        match v {
            Value::String(s) => s.contains('\0'),
            Value::Array(items) => items.iter().any(holds),
            Value::Object(members) => members.iter().any(|(k, v)| k.contains('\0') || holds(v)),
            _ => false,
        }
    }
    options
        .0
        .iter()
        .find(|(k, v)| k.contains('\0') || holds(v))
        .map(|(k, _)| k.as_str())
}

/// Refuses a string option holding a NUL character ([`ErrorCode::InvalidArgument`]).
fn refuse_nul(options: &Options) -> Result<()> {
    if let Some(key) = nul_in(options) {
        return Err(invalid(
            format!(
                "option '{}' holds a NUL character, which no path or name may hold",
                key.replace('\0', "\\0")
            ),
            key,
        ));
    }
    Ok(())
}

/// Runs any operation with any options; the typed functions below are built on it. A string
/// option holding a NUL character is refused ([`ErrorCode::InvalidArgument`]), never cut short.
pub fn run(op: Operation, options: &Options, cancel: Option<&CancelFlag>) -> Result<Document> {
    refuse_nul(options)?;
    let flag = cancel.map(|c| &*c.0);
    document(ffi::call(op, &options.to_json(), flag))
}

/// `secrets set`: [`run`]'s checks, and the value passed to the library as the caller's
/// bytes (no copy).
fn run_secrets_set(
    options: &Options,
    value: &[u8],
    cancel: Option<&CancelFlag>,
) -> Result<Document> {
    refuse_nul(options)?;
    let flag = cancel.map(|c| &*c.0);
    document(ffi::call_secrets_set(&options.to_json(), value, flag))
}

/// The library's answer as a [`Document`] or an [`Error`].
fn document(answer: std::result::Result<String, ffi::Failure>) -> Result<Document> {
    match answer {
        Ok(json) => match Value::parse(&json) {
            Ok(value) => Ok(Document { json, value }),
            Err(e) => Err(Error {
                code: ErrorCode::Io,
                message: format!("the library's document did not parse: {}", e),
                subject: String::new(),
                errno: 0,
            }),
        },
        Err(f) => Err(Error {
            code: ErrorCode::from_status(f.status),
            message: f.message,
            subject: f.subject,
            errno: f.errno,
        }),
    }
}

/// The ABI version of the library linked in, and the library's version.
pub fn abi_version() -> i32 {
    ffi::abi_version()
}
/// The version of the library linked in (`"0.9.0"`).
pub fn version() -> String {
    ffi::version()
}

/// `{kind, path, detail}`: a risk flag (a capability the agent is granted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RiskFlag {
    /// The capability (`shell`, `network`, `filesystem`, ...).
    pub kind: String,
    /// The config path that grants it.
    pub path: String,
    /// What it allows, in words.
    pub detail: String,
}

fn risk_flags(v: &Value) -> Vec<RiskFlag> {
    v.as_array()
        .iter()
        .map(|f| RiskFlag {
            kind: f.get("kind").str_or_empty(),
            path: f.get("path").str_or_empty(),
            detail: f.get("detail").str_or_empty(),
        })
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .iter()
        .filter_map(|s| s.as_str().map(String::from))
        .collect()
}

mod ops;
pub use ops::*;
