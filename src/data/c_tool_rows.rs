//! What C BestGuess's raw CSV rows mean, where they differ from
//! BestGuess's own: Max RSS in bytes or KiB, and backslash escapes in text
//! fields. Every reader of those rows uses these: the general path
//! ([`super::csv_read`]), its fast path (`fast_read/`) and the C tool's
//! format, so they live apart from any one of them.

use std::borrow::Cow;

/// Max RSS as C BestGuess wrote it (`ru_maxrss`, under a "Bytes"
/// header) converted to bytes.
///
/// macOS reports bytes, Linux KiB, and the file does not say which. The
/// rule is on the value: macOS values are whole pages (multiples of 4096)
/// and never below 1 MiB for a program that has been exec'd (dyld and
/// libSystem alone take more), so a value of at least 1 MiB that is a
/// multiple of 4096 is bytes; anything else is Linux KiB and is multiplied
/// by 1024. A Linux command above 1 GiB whose KiB value happens to be a
/// multiple of 4096 (1 in 1024 of them) would be misread as bytes; every
/// smaller Linux command, and every macOS one, is read right. 0 is 0.
/// `None` if the bytes would not fit in 63 bits.
pub fn c_tool_rss(raw: i64) -> Option<i64> {
    const MIB: i64 = 1 << 20;
    if raw >= MIB && raw % 4096 == 0 {
        Some(raw)
    } else {
        raw.checked_mul(1024)
    }
}

/// Undoes C BestGuess's escaping of text fields (see [`super::csv_read`]'s module docs).
pub(crate) fn unescape_c_tool(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.contains(&b'\\') {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes.iter();
    while let Some(&b) = rest.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        out.push(match rest.next() {
            None => b'\\',
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            Some(b't') => b'\t',
            Some(&other) => other,
        });
    }
    Cow::Owned(out)
}
