// SPDX-License-Identifier: MIT
// Builds the C ABI of bindings/c/ (over the header-only library) into a static archive with
// the system C++17 compiler: no `cc` crate, nothing from a registry.
//
// - sources: the parts that bindings/c/clawport.cpp lists (`#include "abi_part_*.cpp"`),
//   each compiled as its own translation unit, on up to $NUM_JOBS threads at once (cargo's
//   -j). One part defines the default-policy instantiations (compiled/instantiations.hpp)
//   that the other declares `extern template` (docs/benchmarks.md, "The crate's first
//   build"). With one job (cargo -j1, one CPU) it compiles clawport.cpp, the one TU of
//   both, instead: the parts generate their shared code twice, which only pays in parallel;
// - compiler: $CXX (may carry a launcher: "ccache g++"), else `c++`, else `g++`;
// - flags: -std=c++17, -O0 for OPT_LEVEL 0 (tests), else -O2; -fvisibility=hidden
//   (only the clawport_v1_* entry points are exported from a shared object the archive ends
//   up in); $CLAWPORT_CXXFLAGS is appended;
// - archive: `ar crs` ($AR honoured) into $OUT_DIR/libclawport_c.a;
// - libstdc++: linked statically when the compiler has libstdc++.a (the program then needs no
//   libstdc++.so at run time), else dynamically; CLAWPORT_STDCXX=static|dynamic chooses;
//   libsodium (`secrets set`) dynamically.
// The compile is cached in OUT_DIR under a fingerprint of every input, the compiler and the
// flags, so cargo reruns this script without recompiling when nothing changed.
// CLAWPORT_SOURCE_DIR names the clawport checkout when the crate is not inside one.
use std::collections::hash_map::DefaultHasher;
use std::env;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::thread;

/// Changed whenever the steps below change, so that an archive built otherwise is rebuilt.
const RECIPE: &str = "clawport build.rs recipe 3";

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = match env::var_os("CLAWPORT_SOURCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => manifest.join("..").join(".."),
    };
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let tu = root.join("bindings/c/clawport.cpp");
    let include = root.join("include");
    if !tu.exists() {
        panic!(
            "clawport: {} is missing; vendor the whole clawport checkout or set \
             CLAWPORT_SOURCE_DIR (docs/vendoring.md)",
            tu.display()
        );
    }
    let parts = parts_of(&tu);
    // Every source of bindings/c/ (the parts include the files of entry points), not test.c.
    let c_dir = root.join("bindings/c");
    let mut inputs: Vec<PathBuf> = fs::read_dir(&c_dir)
        .unwrap_or_else(|e| panic!("clawport: reading {}: {}", c_dir.display(), e))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("cpp") | Some("hpp") | Some("h")
            )
        })
        .collect();
    inputs.sort();
    inputs.push(include.join("clawport"));
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
        // One thread (cargo -j1, one CPU): the one TU, which generates the shared code once.
        let units = if jobs() > 1 {
            parts.clone()
        } else {
            vec![tu.clone()]
        };
        let objects = compile_parts(&cxx, &flags, &units, &out);
        let _ = fs::remove_file(&lib);
        let ar = env::var("AR").unwrap_or_else(|_| "ar".to_string());
        run(Command::new(ar).arg("crs").arg(&lib).args(&objects), "ar");
        fs::write(&stamp, &print).expect("writing the fingerprint");
    }
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=clawport_c");
    // `secrets set` seals with libsodium (crypto/sodium.hpp), as the CLI does.
    println!("cargo:rustc-link-lib=dylib=sodium");
    link_stdcxx(&cxx);
}

/// The parts clawport.cpp includes (`#include "abi_part_*.cpp"`), in its order: the one list of
/// the C ABI's translation units.
fn parts_of(unity: &Path) -> Vec<PathBuf> {
    let text = fs::read_to_string(unity)
        .unwrap_or_else(|e| panic!("clawport: reading {}: {}", unity.display(), e));
    let dir = unity.parent().expect("clawport.cpp has a directory");
    let parts: Vec<PathBuf> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("#include \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|name| name.ends_with(".cpp"))
        .map(|name| dir.join(name))
        .collect();
    if parts.is_empty() {
        panic!(
            "clawport: {} lists no part (#include \"abi_part_*.cpp\")",
            unity.display()
        );
    }
    parts
}

/// The compiles that may run at once: $NUM_JOBS (cargo's -j), at least one.
fn jobs() -> usize {
    env::var("NUM_JOBS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1)
}

/// Compiles every part into OUT_DIR on up to $NUM_JOBS threads (cargo's -j; at least one),
/// each thread taking the next part of the list; the objects in the list's order.
fn compile_parts(cxx: &[String], flags: &[String], parts: &[PathBuf], out: &Path) -> Vec<PathBuf> {
    let jobs = jobs().clamp(1, parts.len());
    let objects: Vec<PathBuf> = parts
        .iter()
        .map(|p| {
            out.join(
                p.with_extension("o")
                    .file_name()
                    .expect("a part has a name"),
            )
        })
        .collect();
    // Popped from the end: the list's first part is compiled first (clawport.cpp lists the
    // longest first).
    let queue = Arc::new(Mutex::new((0..parts.len()).rev().collect::<Vec<usize>>()));
    let failures = Arc::new(Mutex::new(Vec::<String>::new()));
    let workers: Vec<_> = (0..jobs)
        .map(|_| {
            let (queue, failures) = (Arc::clone(&queue), Arc::clone(&failures));
            let (cxx, flags, parts, objects) = (
                cxx.to_vec(),
                flags.to_vec(),
                parts.to_vec(),
                objects.clone(),
            );
            thread::spawn(move || loop {
                let next = queue.lock().expect("the queue").pop();
                let i = match next {
                    Some(i) => i,
                    None => return,
                };
                let mut cmd = Command::new(&cxx[0]);
                cmd.args(&cxx[1..])
                    .args(&flags)
                    .arg("-c")
                    .arg(&parts[i])
                    .arg("-o")
                    .arg(&objects[i]);
                match cmd.status() {
                    Ok(s) if s.success() => {}
                    Ok(s) => failures.lock().expect("the failures").push(format!(
                        "compiling {} failed ({}): {:?}",
                        parts[i].display(),
                        s,
                        cmd
                    )),
                    Err(e) => failures
                        .lock()
                        .expect("the failures")
                        .push(format!("{:?} could not start: {}", cmd, e)),
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a compile thread panicked");
    }
    let failures = failures.lock().expect("the failures");
    if !failures.is_empty() {
        panic!("clawport: {}", failures.join("; "));
    }
    objects
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
