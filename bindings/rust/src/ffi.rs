// SPDX-License-Identifier: MIT
//! The one module with `unsafe`: the declarations of bindings/c/clawport.h and one safe
//! function, [`call`], that passes an options document in and takes the result document (or
//! the error object) out, releasing everything the library allocated before it returns.
#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};
use std::ptr;
use std::sync::atomic::AtomicI32;

#[repr(C)]
struct RawError {
    _private: [u8; 0],
}

type Operation = unsafe extern "C" fn(
    options: *const c_char,
    cancel: *const c_int,
    result: *mut *mut c_char,
    error: *mut *mut RawError,
) -> c_int;

extern "C" {
    fn clawport_v1_abi_version() -> c_int;
    fn clawport_v1_version() -> *const c_char;
    fn clawport_v1_free(document: *mut c_char);
    fn clawport_v1_error_code(error: *const RawError) -> c_int;
    fn clawport_v1_error_message(error: *const RawError) -> *const c_char;
    fn clawport_v1_error_subject(error: *const RawError) -> *const c_char;
    fn clawport_v1_error_errno(error: *const RawError) -> c_int;
    fn clawport_v1_error_free(error: *mut RawError);
    fn clawport_v1_export(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_verify(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_import_plan(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_import_apply(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_recover(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_skills_audit(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_skills_list(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_secrets_list(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_install_status(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_secrets_set(
        o: *const c_char,
        value: *const u8,
        value_length: usize,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_claw_inspect(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_claw_plan(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
    fn clawport_v1_convert(
        o: *const c_char,
        c: *const c_int,
        r: *mut *mut c_char,
        e: *mut *mut RawError,
    ) -> c_int;
}

/// The operations of the C ABI, one per CLI command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `clawport export`.
    Export,
    /// `clawport verify`.
    Verify,
    /// `clawport import` (the plan).
    ImportPlan,
    /// `clawport import --yes` (the apply).
    ImportApply,
    /// `clawport recover`.
    Recover,
    /// `clawport skills audit`.
    SkillsAudit,
    /// `clawport skills list`.
    SkillsList,
    /// `clawport secrets list`.
    SecretsList,
    /// `clawport status`.
    Status,
    /// `clawport claw inspect`.
    ClawInspect,
    /// `clawport claw plan`.
    ClawPlan,
    /// `clawport convert`.
    Convert,
}

fn entry(op: Op) -> Operation {
    match op {
        Op::Export => clawport_v1_export,
        Op::Verify => clawport_v1_verify,
        Op::ImportPlan => clawport_v1_import_plan,
        Op::ImportApply => clawport_v1_import_apply,
        Op::Recover => clawport_v1_recover,
        Op::SkillsAudit => clawport_v1_skills_audit,
        Op::SkillsList => clawport_v1_skills_list,
        Op::SecretsList => clawport_v1_secrets_list,
        Op::Status => clawport_v1_install_status,
        Op::ClawInspect => clawport_v1_claw_inspect,
        Op::ClawPlan => clawport_v1_claw_plan,
        Op::Convert => clawport_v1_convert,
    }
}

/// A failure as the library reported it: the status, message, subject and errno.
pub struct Failure {
    pub status: i32,
    pub message: String,
    pub subject: String,
    pub errno: i32,
}

fn owned(text: *const c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    // SAFETY: the library returns NUL-terminated strings that live as long as their owner
    // (the error object, or static storage), which outlives this copy.
    unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// Runs `op` with `options` (a JSON object). `cancel` is polled by the library while it
/// runs; AtomicI32 has the in-memory representation of an i32 (c_int here), and the
/// library reads it with an atomic load.
pub fn call(op: Op, options: &str, cancel: Option<&AtomicI32>) -> Result<String, Failure> {
    let f = entry(op);
    // SAFETY: `invoke` passes pointers valid for the call (see there).
    invoke(options, cancel, |o, c, r, e| unsafe { f(o, c, r, e) })
}

/// `clawport_v1_secrets_set` with `value` read in place: the library receives a pointer to
/// the caller's bytes and their length, and no copy of them is made here.
pub fn call_secrets_set(
    options: &str,
    value: &[u8],
    cancel: Option<&AtomicI32>,
) -> Result<String, Failure> {
    // SAFETY: `value` is borrowed for the call and its length is the slice's; the other
    // pointers are as `invoke` makes them.
    invoke(options, cancel, |o, c, r, e| unsafe {
        clawport_v1_secrets_set(o, value.as_ptr(), value.len(), c, r, e)
    })
}

/// Calls the library through `f` with the options as a C string, the flag, and the two
/// out-parameters, and takes the document (or the error object) out, releasing what the
/// library allocated.
fn invoke<F>(options: &str, cancel: Option<&AtomicI32>, f: F) -> Result<String, Failure>
where
    F: FnOnce(*const c_char, *const c_int, *mut *mut c_char, *mut *mut RawError) -> c_int,
{
    let text = CString::new(options).map_err(|_| Failure {
        status: 1,
        message: "the options hold a NUL character".to_string(),
        subject: "options".to_string(),
        errno: 0,
    })?;
    let flag: *const c_int = match cancel {
        Some(f) => f as *const AtomicI32 as *const c_int,
        None => ptr::null(),
    };
    let mut result: *mut c_char = ptr::null_mut();
    let mut error: *mut RawError = ptr::null_mut();
    // Every pointer is valid for the call: `text` outlives it, `flag` is null or points at
    // an AtomicI32 the caller borrows for the call, and the out-parameters are local. The
    // library catches every exception at its boundary.
    let status = f(text.as_ptr(), flag, &mut result, &mut error);
    if status == 0 && !result.is_null() {
        let doc = owned(result);
        // SAFETY: `result` was allocated by the library for us and is released once.
        unsafe { clawport_v1_free(result) };
        return Ok(doc);
    }
    let failure = if error.is_null() {
        Failure {
            status: if status == 0 { 2 } else { status },
            message: "the library reported a failure without an error object (out of memory?)"
                .to_string(),
            subject: String::new(),
            errno: 0,
        }
    } else {
        // SAFETY: `error` is a live error object we own; it is read, then released once.
        unsafe {
            let f = Failure {
                status: clawport_v1_error_code(error),
                message: owned(clawport_v1_error_message(error)),
                subject: owned(clawport_v1_error_subject(error)),
                errno: clawport_v1_error_errno(error),
            };
            clawport_v1_error_free(error);
            f
        }
    };
    Err(failure)
}

/// The ABI version of the library linked in.
pub fn abi_version() -> i32 {
    // SAFETY: no arguments, no state.
    unsafe { clawport_v1_abi_version() }
}

/// The library's version string.
pub fn version() -> String {
    // SAFETY: returns a pointer to static storage.
    owned(unsafe { clawport_v1_version() })
}
