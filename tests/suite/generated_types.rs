//! Fails when `ui/src/generated/app.ts` does not match the app's IPC types (the protocol's own file is checked by
//! the protocol crate's test); with `TANDEM_WRITE_GENERATED=1` it writes the fresh file instead.

#[test]
fn generated_app_typescript_is_fresh() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(tandem_app::typescript::GENERATED_PATH);
    let fresh = tandem_app::typescript::render();
    if std::env::var_os("TANDEM_WRITE_GENERATED").is_some() {
        std::fs::write(&path, &fresh).expect("write the generated file");
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == fresh,
        "{} is stale: run `TANDEM_WRITE_GENERATED=1 cargo test --features tandem/custom-protocol --test app generated`",
        path.display()
    );
}
