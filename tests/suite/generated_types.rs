//! Fails when `ui/src/generated/app.ts` does not match the app's IPC types or `ui/src/generated/commands.ts` the
//! command table (the protocol's own file is checked by the protocol crate's test); `scripts/generate-types` runs it
//! with `TANDEM_WRITE_GENERATED=1` to write the fresh files instead. And the command table names exactly the
//! commands the app registers.

use tandem_protocol::typescript::check_or_write;

fn check_fresh(relative: &str, fresh: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    if let Err(stale) = check_or_write(&path, fresh) {
        panic!("{stale}");
    }
}

#[test]
fn generated_app_typescript_is_fresh() {
    check_fresh(
        tandem_app::typescript::GENERATED_PATH,
        &tandem_app::typescript::render(),
    );
}

#[test]
fn generated_command_bindings_are_fresh() {
    let table = tandem_app::command_table::commands();
    check_fresh(
        tandem_app::typescript::COMMANDS_PATH,
        &tandem_app::typescript::render_commands(&table),
    );
}

#[test]
fn generated_command_table_names_every_registered_command_once() {
    let mut registered = tandem_app::registered_commands();
    let mut tabled: Vec<&str> = tandem_app::command_table::commands()
        .iter()
        .map(|c| c.name)
        .collect();
    assert!(
        registered.iter().all(
            |name| !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        ),
        "the invoke handler's list as read: {registered:?}"
    );
    registered.sort_unstable();
    tabled.sort_unstable();
    let mut unique = tabled.clone();
    unique.dedup();
    assert_eq!(unique, tabled, "a command is in the table twice");
    assert_eq!(
        tabled, registered,
        "the command table and the invoke handler disagree"
    );
}

#[test]
fn generated_wrapper_names_follow_tauri_argument_names() {
    for (snake, camel) in [
        ("session_id", "sessionId"),
        ("on_event", "onEvent"),
        ("tool_use_id", "toolUseId"),
        ("id", "id"),
    ] {
        assert_eq!(tandem_app::typescript::camel_case(snake), camel);
    }
}
