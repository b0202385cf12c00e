//! Builds the launcher (src/measure/launcher.c) as a small static executable
//! that the library embeds. See the docs of `measure::launcher` for why.
//!
//! The compiler and its flags come from the `cc` crate, so `CC`, `CFLAGS`
//! (and their per-target forms `CC_<target>`, `CFLAGS_<target>`) and
//! cross-compilation targets are honoured as for any C code in a Rust build.
//! `cc` is made for libraries, so this asks it for the configured compiler
//! and links the executable itself.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let src = "src/measure/launcher.c";
    for file in [
        src,
        "src/measure/launcher_linux.c",
        "src/measure/launcher_posix.c",
    ] {
        println!("cargo:rerun-if-changed={file}");
    }
    // The measurement path: Linux's (clone3, memfd, /proc, perf events,
    // affinity) when building for Linux with the `linux` feature (a
    // default one), else the portable one, POSIX only (what macOS and the
    // BSDs have). `cfg(bestguess_linux)` selects it in Rust, the macro
    // BESTGUESS_LINUX in the launcher.
    println!("cargo::rustc-check-cfg=cfg(bestguess_linux)");
    let linux = env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && env::var_os("CARGO_FEATURE_LINUX").is_some();
    if linux {
        println!("cargo:rustc-cfg=bestguess_linux");
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("bestguess-launcher");
    let mut build = cc::Build::new();
    // The same small, stripped program in every profile: -Os, no debug
    // information, no position-independent code (a static executable).
    build
        .opt_level_str("s")
        .debug(false)
        .pic(false)
        .flag_if_supported("-std=c11")
        .warnings(true)
        .extra_warnings(true);
    if linux {
        build.define("BESTGUESS_LINUX", None);
    }
    let compiler = build.get_compiler();
    // Static first: that is what keeps the launcher's peak RSS below the
    // commands it measures. A dynamic build still works, with a higher floor
    // that `--limits` reports.
    if link(&compiler, src, &out, true) {
        return;
    }
    println!(
        "cargo:warning=could not link the launcher statically; its RSS floor will be higher (install the static C library: libc6-dev on Debian, glibc-static on Fedora)"
    );
    assert!(
        link(&compiler, src, &out, false),
        "the C compiler {:?} failed to build {src}",
        compiler.path()
    );
}

/// Compile and link `src` into the executable `out`.
fn link(compiler: &cc::Tool, src: &str, out: &Path, static_: bool) -> bool {
    let mut cmd: Command = compiler.to_command();
    if static_ {
        cmd.arg("-static");
    }
    // -s: no symbol table, 10 % less to copy into the memfd at every start.
    cmd.arg("-s").arg("-o").arg(out).arg(src);
    match cmd.status() {
        Ok(status) => status.success(),
        Err(e) => panic!(
            "cannot run the C compiler {:?} to build the launcher: {e}",
            compiler.path()
        ),
    }
}
