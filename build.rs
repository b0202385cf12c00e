//! Builds the launcher (src/measure/launcher.c) as a small static executable
//! that the library embeds. See the docs of `measure::launcher` for why.

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let src = "src/measure/launcher.c";
    println!("cargo:rerun-if-changed={src}");
    println!("cargo:rerun-if-env-changed=CC");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("bestguess-launcher");
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    // -s: no symbol table, 10 % less to copy into the memfd at every start.
    let base = ["-Os", "-s", "-std=c11", "-Wall", "-Wextra", "-o"];
    // Static first: that is what keeps the launcher's peak RSS below the
    // commands it measures. A dynamic build still works, with a higher floor
    // that `--limits` reports.
    let static_ok = Command::new(&cc)
        .arg("-static")
        .args(base)
        .arg(&out)
        .arg(src)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !static_ok {
        println!("cargo:warning=could not link the launcher statically; its RSS floor will be higher (install libc6-dev)");
        let status = Command::new(&cc)
            .args(base)
            .arg(&out)
            .arg(src)
            .status()
            .unwrap_or_else(|e| {
                panic!("cannot run the C compiler '{cc}' to build the launcher: {e}")
            });
        assert!(status.success(), "the C compiler failed to build {src}");
    }
}
