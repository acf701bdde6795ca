//! The bound on the size of a settings file that is read. Real settings files are a few kilobytes; the bound keeps a
//! runaway file from taking the process down: every path rule becomes a compiled glob (about 5 KB each, more while
//! it is built), so 50 MB of `Read(...)` rules would need tens of gigabytes.

/// The largest settings file read, in bytes.
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// Why a settings file of `len` bytes is not read (`None` when it is small enough).
pub fn too_large(len: u64) -> Option<String> {
    (len > MAX_SETTINGS_BYTES).then(|| {
        format!(
            "is {:.1} MiB; settings files over {} MiB are not read",
            len as f64 / f64::from(1u32 << 20),
            MAX_SETTINGS_BYTES >> 20
        )
    })
}
