//! The native menu on Tauri's mock runtime: Open Recent (inside File) follows the folders opened while the app runs.

use tandem_app::state::AppState;
use tauri::menu::MenuItemKind;
use tauri::test::{MockRuntime, mock_builder, mock_context, noop_assets};

/// The texts of the items of the submenu titled `title`, wherever it is in the menu bar.
fn submenu_texts(items: Vec<MenuItemKind<MockRuntime>>, title: &str) -> Option<Vec<String>> {
    items.into_iter().find_map(|item| {
        let MenuItemKind::Submenu(submenu) = item else {
            return None;
        };
        let children = submenu.items().expect("items");
        if submenu.text().expect("text") == title {
            return Some(
                children
                    .iter()
                    .filter_map(|child| match child {
                        MenuItemKind::MenuItem(item) => item.text().ok(),
                        _ => None,
                    })
                    .collect(),
            );
        }
        submenu_texts(children, title)
    })
}

#[test]
fn open_recent_lists_a_folder_opened_while_the_app_runs() {
    let data = tempfile::tempdir().expect("tempdir");
    let mut state = AppState::new(None);
    state.recent_file = Some(data.path().join("recent.json"));
    let app = tandem_app::build_app(mock_builder(), state)
        .build(mock_context(noop_assets()))
        .expect("app builds");
    // The mock runtime skips the app's setup: the menu bar is made here as setup makes it.
    if app.menu().is_none() {
        app.set_menu(tandem_app::menu::build(app.handle(), &[]).expect("menu"))
            .expect("set the menu");
    }
    let recent = || {
        let menu = app.menu().expect("a menu bar");
        submenu_texts(menu.items().expect("items"), "Open Recent").expect("Open Recent")
    };
    assert_eq!(recent(), vec!["No Recent Folders".to_string()]);

    tandem_app::menu::refresh_recent(app.handle(), &["/home/me/project".to_string()]);
    assert_eq!(recent(), vec!["/home/me/project".to_string()]);
}
