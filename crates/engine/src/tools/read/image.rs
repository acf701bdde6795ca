//! Images for Read: PNG, JPEG, GIF and WebP returned as an image block the model can see, once they decode whole.
//! Images larger than the model accepts well (over 2000 pixels on a side or 3.75 MB) are scaled down and
//! re-encoded.

use std::io::Cursor;
use std::path::Path;

use ::image::{ImageFormat, ImageReader};
use base64::Engine as _;

use tandem_protocol::{ReadContent, ToolDetail};

use crate::image_fit::{Fit, media_type, shrink};
use crate::model::{ImageSource, ResultBlock, ToolResultContent};
use crate::tool::{ToolError, ToolOutput};

/// The longest side an image is sent with.
const MAX_SIDE: u32 = 2000;
/// The largest encoded image sent as is (base64 makes it 5 MB).
const MAX_BYTES: usize = 3_750_000;

/// Reads an image file's `bytes` as an image block.
pub fn read_image(path: &Path, bytes: &[u8]) -> Result<ToolOutput, ToolError> {
    let bad = |e: &dyn std::fmt::Display| {
        ToolError::to_model(format!("{} is not a readable image: {e}", path.display()))
    };
    let format = ::image::guess_format(bytes).map_err(|e| bad(&e))?;
    let media = media_type(format)
        .ok_or_else(|| bad(&"only PNG, JPEG, GIF and WebP images can be read"))?;
    // Decoded whole (within the decoder's memory limits), so that a truncated or damaged file is refused here
    // rather than sent: the model's API rejects a request with an image it cannot decode, and the conversation
    // with it.
    let img = ImageReader::with_format(Cursor::new(bytes), format)
        .decode()
        .map_err(|e| bad(&e))?;
    let (width, height) = (img.width(), img.height());
    let (data, media, shown) =
        if width <= MAX_SIDE && height <= MAX_SIDE && bytes.len() <= MAX_BYTES {
            (bytes.to_vec(), media, (width, height))
        } else {
            let keep_png =
                matches!(format, ImageFormat::Png | ImageFormat::Gif) && img.color().has_alpha();
            let fit = Fit {
                max_edge: MAX_SIDE,
                min_edge: 200,
                max_bytes: MAX_BYTES,
                jpeg_quality: 80,
            };
            let small = shrink(&img, keep_png, fit).map_err(|e| bad(&e))?;
            (small.data, small.media_type, (small.size[0], small.size[1]))
        };
    let encoded = base64::engine::general_purpose::STANDARD.encode(&data);
    let content = ToolResultContent::Blocks(vec![ResultBlock::Image {
        source: ImageSource::Base64 {
            media_type: media.to_string(),
            data: encoded,
        },
    }]);
    Ok(ToolOutput {
        content,
        detail: Some(ToolDetail::Read {
            path: path.display().to_string(),
            content: ReadContent::Image {
                media_type: media.to_string(),
                original_size: [width, height],
                size: [shown.0, shown.1],
                bytes: data.len() as u64,
            },
        }),
        context_change: None,
        new_messages: Vec::new(),
        structured: None,
    })
}
