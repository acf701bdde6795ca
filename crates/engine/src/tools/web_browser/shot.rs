//! A screenshot as the model and the window get it: the PNG as an image block (scaled down only if it is larger
//! than the model takes well, as Read does), and a small JPEG of it as a `data:` URL for the call's row.

use std::io::Cursor;

use ::image::{ImageFormat, ImageReader};
use base64::Engine as _;

use crate::image_fit::{Fit, shrink};
use crate::model::{ImageSource, ResultBlock};

/// The longest side sent to the model.
const MAX_SIDE: u32 = 2000;
/// The largest encoding sent to the model as it is.
const MAX_BYTES: usize = 3_750_000;
/// The preview's longest side and largest size.
const PREVIEW: Fit = Fit {
    max_edge: 480,
    min_edge: 120,
    max_bytes: 60_000,
    jpeg_quality: 70,
};

/// The screenshot `png` as an image block for the model, and the preview for the window.
pub fn screenshot_blocks(png: &[u8]) -> Result<(ResultBlock, String), String> {
    let bad = |e: &dyn std::fmt::Display| format!("The screenshot is not a readable PNG: {e}");
    let img = ImageReader::with_format(Cursor::new(png), ImageFormat::Png)
        .decode()
        .map_err(|e| bad(&e))?;
    let (data, media) =
        if img.width() <= MAX_SIDE && img.height() <= MAX_SIDE && png.len() <= MAX_BYTES {
            (png.to_vec(), "image/png")
        } else {
            let fit = Fit {
                max_edge: MAX_SIDE,
                min_edge: 200,
                max_bytes: MAX_BYTES,
                jpeg_quality: 80,
            };
            let small = shrink(&img, false, fit).map_err(|e| bad(&e))?;
            (small.data, small.media_type)
        };
    let b64 = base64::engine::general_purpose::STANDARD;
    let block = ResultBlock::Image {
        source: ImageSource::Base64 {
            media_type: media.to_string(),
            data: b64.encode(&data),
        },
    };
    let preview = shrink(&img, false, PREVIEW).map_err(|e| bad(&e))?;
    let preview = format!(
        "data:{};base64,{}",
        preview.media_type,
        b64.encode(&preview.data)
    );
    Ok((block, preview))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_becomes_an_image_block_and_a_small_jpeg_preview() {
        let img = ::image::DynamicImage::new_rgb8(1280, 800);
        let png = crate::image_fit::encode(&img, true, 80).expect("png");
        let (block, preview) = screenshot_blocks(&png).expect("blocks");
        let ResultBlock::Image {
            source: ImageSource::Base64 { media_type, .. },
        } = block
        else {
            panic!("an image block");
        };
        assert_eq!(media_type, "image/png");
        assert!(
            preview.starts_with("data:image/jpeg;base64,"),
            "{}",
            &preview[..30]
        );
        assert!(screenshot_blocks(b"not a png").is_err());
    }
}
