//! Writes `ui/src/generated/protocol.ts` from the protocol types.

fn main() -> std::io::Result<()> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join(tandem_protocol::typescript::GENERATED_PATH);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&path, tandem_protocol::typescript::render())?;
    println!("wrote {}", path.display());
    Ok(())
}
