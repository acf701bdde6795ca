//! The image on the system clipboard, for pasting a screenshot into the prompt box: WebKitGTK's paste event carries
//! no image data, so the window asks for it here when a paste brings no file and no text.

use base64::Engine as _;
use tandem_engine::image_fit;
use tandem_protocol::PromptImage;

use crate::error::{CommandError, ErrorCode};

/// The clipboard's image as a PNG, or `None` when the clipboard holds no image (or there is none: no display).
#[tauri::command]
#[tracing::instrument(skip_all, err(Display))]
pub async fn clipboard_image() -> Result<Option<PromptImage>, CommandError> {
    tauri::async_runtime::spawn_blocking(read)
        .await
        .map_err(|e| {
            CommandError::new(ErrorCode::Image, format!("the clipboard was not read: {e}"))
        })?
}

/// `None` when the clipboard holds no image or there is no clipboard; an error when it holds one that could not be
/// read (an owner that did not hand it over in time: a very large image).
fn read() -> Result<Option<PromptImage>, CommandError> {
    let Ok(mut clipboard) = arboard::Clipboard::new() else {
        return Ok(None);
    };
    match clipboard.get_image() {
        Ok(image) => png_of(image.width, image.height, image.bytes.into_owned()).map(Some),
        Err(arboard::Error::ContentNotAvailable) => Ok(None),
        Err(e) => Err(CommandError::new(
            ErrorCode::Image,
            format!("the clipboard's image could not be read: {e}"),
        )),
    }
}

/// RGBA pixels as a PNG prompt image.
pub fn png_of(width: usize, height: usize, rgba: Vec<u8>) -> Result<PromptImage, CommandError> {
    let bad =
        |why: String| CommandError::new(ErrorCode::Image, format!("the clipboard's image: {why}"));
    let (w, h) = (
        u32::try_from(width).map_err(|e| bad(e.to_string()))?,
        u32::try_from(height).map_err(|e| bad(e.to_string()))?,
    );
    let pixels = image::RgbaImage::from_raw(w, h, rgba)
        .ok_or_else(|| bad(format!("{width}×{height} pixels do not fit its bytes")))?;
    let png = image_fit::encode(&image::DynamicImage::ImageRgba8(pixels), true, 0)
        .map_err(|e| bad(e.to_string()))?;
    Ok(PromptImage {
        media_type: "image/png".into(),
        data: base64::engine::general_purpose::STANDARD.encode(png),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_become_a_png_that_decodes_to_them() {
        let rgba: Vec<u8> = (0..2 * 3 * 4).map(|i| i as u8).collect();
        let image = png_of(2, 3, rgba.clone()).expect("a png");
        assert_eq!(image.media_type, "image/png");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&image.data)
            .expect("base64");
        let back = image::load_from_memory(&bytes).expect("decodes").to_rgba8();
        assert_eq!((back.width(), back.height()), (2, 3));
        assert_eq!(back.into_raw(), rgba);
        assert!(png_of(4, 4, vec![0; 3]).is_err(), "too few bytes");
    }
}
