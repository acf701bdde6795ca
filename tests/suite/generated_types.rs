//! Fails when `ui/src/generated/app.ts` does not match the app's IPC types (the protocol's own file is checked by
//! the protocol crate's test); `scripts/generate-types` runs it with `TANDEM_WRITE_GENERATED=1` to write the fresh
//! file instead.

use tandem_protocol::typescript::check_or_write;

#[test]
fn generated_app_typescript_is_fresh() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(tandem_app::typescript::GENERATED_PATH);
    if let Err(stale) = check_or_write(&path, &tandem_app::typescript::render()) {
        panic!("{stale}");
    }
}
