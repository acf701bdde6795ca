//! The webview's own settings, applied when the window is made. Painting without GPU compositing: the window is a
//! text UI, and compositing gave every scrolling area its own layer with backing buffers (about 100 MiB more in
//! the web process of an idle window, and the GL stack's shader compiler loaded with it), while the software
//! painter keeps up with streaming and scrolling. The document-viewer cache model: the window loads its few
//! bundled assets once, so the page and memory caches a browser keeps for going back and forth only hold memory.
//! `TANDEM_GPU_COMPOSITING=1` keeps WebKit's own compositing choice (a machine where software painting is slow).

use tauri::{Runtime, WebviewWindow};

/// Set to `1` to leave GPU compositing as WebKit chooses.
pub const GPU_COMPOSITING_ENV: &str = "TANDEM_GPU_COMPOSITING";

/// Applies the settings to `window`'s webview (Linux; elsewhere, and under the mock runtime, nothing). A webview that
/// cannot be reached is left as it is: the settings save memory, the window works without them.
pub fn configure<R: Runtime>(window: &WebviewWindow<R>) {
    #[cfg(target_os = "linux")]
    {
        let software_painting = std::env::var(GPU_COMPOSITING_ENV).map_or(true, |v| v != "1");
        let applied = window.with_webview(move |webview| {
            use webkit2gtk::{
                CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt,
            };
            let view = webview.inner();
            if software_painting && let Some(settings) = view.settings() {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            }
            if let Some(context) = view.context() {
                context.set_cache_model(CacheModel::DocumentViewer);
            }
        });
        if let Err(e) = applied {
            tracing::warn!("the webview's settings could not be applied: {e}");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}
