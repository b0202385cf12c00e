//! Builds the launcher (src/measure/launcher.c) as a small static executable
//! that the library embeds. See the docs of `measure::launcher` for why.
//!
//! The compiler and its flags come from the `cc` crate, so `CC`, `CFLAGS`
//! (and their per-target forms `CC_<target>`, `CFLAGS_<target>`) and
//! cross-compilation targets are honoured as for any C code in a Rust build.
//! `cc` is made for libraries, so this asks it for the configured compiler
//! and links the executable itself.
//!
//! The protocol's constants have one definition,
//! `src/measure/protocol/consts.rs`: this script includes it and writes
//! each constant into the header `launcher_protocol.h` (in `OUT_DIR`) that
//! the launcher includes.

use std::env;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The protocol's constants, as the library has them.
mod protocol {
    include!("src/measure/protocol/consts.rs");
}

const CONSTS: &str = "src/measure/protocol/consts.rs";

/// Every constant of `consts.rs`, by name, with its value.
macro_rules! constants {
    ($($name:ident),* $(,)?) => {
        [$((stringify!($name), protocol::$name as i64)),*]
    };
}

fn main() {
    let src = "src/measure/launcher.c";
    for file in [
        src,
        "src/measure/launcher_linux.c",
        "src/measure/launcher_posix.c",
        CONSTS,
    ] {
        println!("cargo:rerun-if-changed={file}");
    }
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write_protocol_header(&out_dir.join("launcher_protocol.h"));
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
    let out = out_dir.join("bestguess-launcher");
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
    build.include(&out_dir);
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

/// Write `launcher_protocol.h`: a `#define` per constant of `consts.rs`,
/// under the same name. A constant of `consts.rs` missing from the list
/// below stops the build, so the C side always has every one.
fn write_protocol_header(path: &Path) {
    let constants = constants![
        PROTOCOL_VERSION,
        HELLO_MAGIC,
        REQUEST_FD,
        RESPONSE_FD,
        OP_FLOOR,
        OP_PROGRAMS,
        OP_BATCH,
        OP_SETUP,
        FINISHED,
        SPAWN_ERROR,
        CANCELLED,
        FLOOR,
        PROTOCOL_ERROR,
        DEFINED,
        SET_UP,
        METRICS_ERROR,
        FLAG_NULL_STDIO,
        FLAG_NEW_GROUP,
        FLAG_MEASURED,
        INTS,
        RESPONSE_LEN,
        SLOT_VALUE,
        SLOT_START,
        SLOT_SPAWN_PATH,
        SLOT_SPAWN_ERRNO,
        SLOT_WALL_NS,
        SLOT_USER_US,
        SLOT_SYSTEM_US,
        SLOT_MAXRSS,
        SLOT_MINOR_FAULTS,
        SLOT_MAJOR_FAULTS,
        SLOT_VOLUNTARY_CSW,
        SLOT_INVOLUNTARY_CSW,
        SLOT_RUN_DELAY_NS,
        SPAWN_CLONE3,
        SPAWN_FORCED,
        SPAWN_REFUSED,
        SPAWN_NO_CLONE3,
        SPAWN_PORTABLE,
        MAX_COUNTERS,
        PAD_MAX,
        METRICS_MAX,
        EXTRA_FRAME_MAX,
        METRICS_WHOLE,
        METRICS_CUT,
        METRICS_NOT_A_FILE,
        METRICS_REMOVED,
    ];
    let text = std::fs::read_to_string(CONSTS).expect("the protocol's constants are readable");
    let declared: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("pub const "))
        .filter_map(|l| l.split(':').next())
        .collect();
    let listed: Vec<&str> = constants.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        declared, listed,
        "build.rs passes the constants of {CONSTS} to the launcher: list each one there, in order"
    );
    let mut header = format!(
        "/* The launcher protocol's constants, written by build.rs from {CONSTS}\n   \
         (their one definition, shared with the Rust side). */\n\
         #ifndef BESTGUESS_LAUNCHER_PROTOCOL_H\n#define BESTGUESS_LAUNCHER_PROTOCOL_H\n"
    );
    for (name, value) in constants {
        writeln!(header, "#define {name} {value}").expect("writing to a String");
    }
    header.push_str("#endif\n");
    std::fs::write(path, header).expect("OUT_DIR is writable");
}
