// SPDX-License-Identifier: MIT
// Builds bindings/c/clawport.cpp (the C ABI over the header-only library) into a static
// archive with the system C++17 compiler: no `cc` crate, nothing from a registry.
//
// - compiler: $CXX (may carry a launcher: "ccache g++"), else `c++`, else `g++`;
// - flags: -std=c++17, -O0 for OPT_LEVEL 0 (tests), else -O2; -fvisibility=hidden
//   (only the clawport_v1_* entry points are exported from a shared object the archive ends
//   up in); $CLAWPORT_CXXFLAGS is appended;
// - archive: `ar crs` ($AR honoured) into $OUT_DIR/libclawport_c.a;
// - libstdc++: linked statically when the compiler has libstdc++.a (the program then needs no
//   libstdc++.so at run time), else dynamically; CLAWPORT_STDCXX=static|dynamic chooses.
// The compile (27 s of CPU at -O0, 74 s at -O2 with g++ 12) is cached in OUT_DIR under a
// fingerprint of every input, the compiler and the flags, so cargo reruns this script
// without recompiling when nothing changed. CLAWPORT_SOURCE_DIR names the clawport checkout
// when the crate is not inside one.
use std::collections::hash_map::DefaultHasher;
use std::env;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Changed whenever the steps below change, so that an archive built otherwise is rebuilt.
const RECIPE: &str = "clawport build.rs recipe 2";

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = match env::var_os("CLAWPORT_SOURCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => manifest.join("..").join(".."),
    };
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let tu = root.join("bindings/c/clawport.cpp");
    let include = root.join("include");
    let inputs = [
        tu.clone(),
        root.join("bindings/c/clawport.h"),
        include.join("clawport"),
    ];
    for p in &inputs {
        if !p.exists() {
            panic!(
                "clawport: {} is missing; vendor the whole clawport checkout or set \
                 CLAWPORT_SOURCE_DIR (docs/vendoring.md)",
                p.display()
            );
        }
        println!("cargo:rerun-if-changed={}", p.display());
    }
    for var in [
        "CXX",
        "AR",
        "CLAWPORT_CXXFLAGS",
        "CLAWPORT_STDCXX",
        "CLAWPORT_SOURCE_DIR",
    ] {
        println!("cargo:rerun-if-env-changed={}", var);
    }

    let cxx = compiler();
    let opt = env::var("OPT_LEVEL").unwrap_or_else(|_| "0".to_string());
    let mut flags: Vec<String> = vec![
        "-std=c++17".into(),
        if opt == "0" {
            "-O0".into()
        } else {
            "-O2".into()
        },
        "-g0".into(),
        "-fPIC".into(),
        "-fvisibility=hidden".into(),
        "-fvisibility-inlines-hidden".into(),
        "-Wall".into(),
        "-Wextra".into(),
        format!("-I{}", include.display()),
    ];
    if let Ok(extra) = env::var("CLAWPORT_CXXFLAGS") {
        flags.extend(extra.split_whitespace().map(String::from));
    }

    let lib = out.join("libclawport_c.a");
    let stamp = out.join("libclawport_c.fingerprint");
    let print = fingerprint(&cxx, &flags, &inputs);
    let fresh = lib.exists() && fs::read_to_string(&stamp).ok().as_deref() == Some(print.as_str());
    if !fresh {
        let obj = out.join("clawport.o");
        let mut cmd = Command::new(&cxx[0]);
        cmd.args(&cxx[1..])
            .args(&flags)
            .arg("-c")
            .arg(&tu)
            .arg("-o")
            .arg(&obj);
        run(&mut cmd, "compiling bindings/c/clawport.cpp");
        let _ = fs::remove_file(&lib);
        let ar = env::var("AR").unwrap_or_else(|_| "ar".to_string());
        run(Command::new(ar).arg("crs").arg(&lib).arg(&obj), "ar");
        fs::write(&stamp, &print).expect("writing the fingerprint");
    }
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=clawport_c");
    link_stdcxx(&cxx);
}

/// $CXX split into program and leading arguments, else the first of `c++`, `g++` that runs.
fn compiler() -> Vec<String> {
    if let Ok(cxx) = env::var("CXX") {
        let words: Vec<String> = cxx.split_whitespace().map(String::from).collect();
        if !words.is_empty() {
            return words;
        }
    }
    for candidate in ["c++", "g++"] {
        if Command::new(candidate).arg("--version").output().is_ok() {
            return vec![candidate.to_string()];
        }
    }
    panic!("clawport: no C++17 compiler found (set CXX, or install g++)");
}

fn run(cmd: &mut Command, what: &str) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("clawport: {} could not start: {}", what, e));
    if !status.success() {
        panic!("clawport: {} failed ({}): {:?}", what, status, cmd);
    }
}

/// Everything the archive depends on: the compiler and its version, the flags, and the
/// bytes of every input file (the include tree walked in sorted order).
fn fingerprint(cxx: &[String], flags: &[String], inputs: &[PathBuf]) -> String {
    let mut h = DefaultHasher::new();
    RECIPE.hash(&mut h);
    cxx.hash(&mut h);
    flags.hash(&mut h);
    if let Ok(v) = Command::new(&cxx[cxx.len() - 1]).arg("--version").output() {
        v.stdout.hash(&mut h);
    }
    for p in inputs {
        hash_tree(p, &mut h);
    }
    format!("{:016x}", h.finish())
}

fn hash_tree(p: &Path, h: &mut DefaultHasher) {
    p.to_string_lossy().hash(h);
    if p.is_dir() {
        let mut names: Vec<PathBuf> = fs::read_dir(p)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        names.sort();
        for n in names {
            hash_tree(&n, h);
        }
    } else if let Ok(bytes) = fs::read(p) {
        bytes.hash(h);
    }
}

fn link_stdcxx(cxx: &[String]) {
    let choice = env::var("CLAWPORT_STDCXX").unwrap_or_default();
    if choice != "dynamic" {
        let found = Command::new(&cxx[cxx.len() - 1])
            .arg("-print-file-name=libstdc++.a")
            .output()
            .ok()
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim().to_string()));
        if let Some(path) = found.filter(|p| p.is_absolute() && p.exists()) {
            let dir = path.parent().expect("libstdc++.a has a directory");
            println!("cargo:rustc-link-search=native={}", dir.display());
            println!("cargo:rustc-link-lib=static=stdc++");
            return;
        }
        if choice == "static" {
            panic!("clawport: CLAWPORT_STDCXX=static but the compiler has no libstdc++.a");
        }
    }
    println!("cargo:rustc-link-lib=dylib=stdc++");
}
