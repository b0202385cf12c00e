#![no_main]

include!("../targets.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    any_input(data);
});
