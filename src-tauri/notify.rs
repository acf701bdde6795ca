//! Desktop notifications: the window asks for one when a dialog waits for the person or a turn ends while it is not
//! focused (and the person has not turned them off in the settings).

use tauri::{AppHandle, Runtime};
use tauri_plugin_notification::NotificationExt;

use crate::error::{CommandError, ErrorCode};

/// The most characters of a notification's body (a long answer is cut with an ellipsis).
const MAX_BODY: usize = 200;

/// Shows a desktop notification with `title` and `body` (cut to [`MAX_BODY`] characters). Errors when the system
/// has no notification service the plugin can reach; the window shows nothing for that (it is a nicety).
#[tauri::command]
#[tracing::instrument(skip(app, body), err(Display))]
pub async fn notify_person<R: Runtime>(
    app: AppHandle<R>,
    title: String,
    body: String,
) -> Result<(), CommandError> {
    let body = shorten(&body);
    tauri::async_runtime::spawn_blocking(move || {
        app.notification().builder().title(title).body(body).show()
    })
    .await
    .map_err(|e| notification_error(&e))?
    .map_err(|e| notification_error(&e))
}

fn notification_error(error: &dyn std::fmt::Display) -> CommandError {
    CommandError::new(
        ErrorCode::Notification,
        format!("the notification could not be shown: {error}"),
    )
}

/// `body` on one line, cut to [`MAX_BODY`] characters.
fn shorten(body: &str) -> String {
    let line = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= MAX_BODY {
        return line;
    }
    let mut cut: String = line.chars().take(MAX_BODY - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_one_line_and_cut_to_the_limit() {
        assert_eq!(
            shorten("Allow\n  Bash:\tnpm test?"),
            "Allow Bash: npm test?"
        );
        let long = "word ".repeat(100);
        let cut = shorten(&long);
        assert_eq!(cut.chars().count(), MAX_BODY);
        assert!(cut.ends_with('…'));
    }
}
