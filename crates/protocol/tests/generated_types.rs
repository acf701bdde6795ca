//! Fails when `ui/src/generated/protocol.ts` does not match the protocol types.

#[test]
fn generated_typescript_is_fresh() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join(tandem_protocol::typescript::GENERATED_PATH);
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == tandem_protocol::typescript::render(),
        "{} is stale: run `cargo run -p tandem-protocol --bin gen-ts`",
        path.display()
    );
}
