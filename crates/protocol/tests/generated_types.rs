//! Fails when `ui/src/generated/protocol.ts` does not match the protocol types (the app's own file is checked by the
//! app's test); `scripts/generate-types` runs it with `TANDEM_WRITE_GENERATED=1` to write the fresh file instead.

use tandem_protocol::typescript::{GENERATED_PATH, check_or_write, render};

#[test]
fn generated_typescript_is_fresh() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(GENERATED_PATH);
    if let Err(stale) = check_or_write(&path, &render()) {
        panic!("{stale}");
    }
}
