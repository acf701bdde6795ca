//! The images a person sends with a prompt, fitted to what the model takes. Each is decoded whole (within limits
//! that keep a hostile file from taking the machine's memory) to prove it is a PNG, JPEG, GIF or WebP image the
//! model's API will accept; one whose long edge is at most [`MAX_EDGE`] pixels and whose file is at most
//! [`MAX_BYTES`] is sent byte for byte; a larger one is scaled down to [`MAX_EDGE`] and re-encoded (PNG when it has
//! transparency, JPEG otherwise), smaller again until the file fits. Anything else is refused with the reason, and
//! nothing of the prompt is sent.

use std::io::Cursor;

use ::image::{ImageFormat, ImageReader, Limits};
use base64::Engine as _;
use tandem_protocol::PromptImage;

use crate::image_fit::{Fit, media_type, shrink};

/// The longest edge, in pixels, an image is sent with (what the model sees best without being scaled again).
pub const MAX_EDGE: u32 = 1568;
/// The largest image file sent: base64 makes it at most 5 MB, the model API's limit for one image.
pub const MAX_BYTES: usize = 3_750_000;
/// The largest image file accepted at all (before it is sized down).
pub const MAX_INPUT_BYTES: usize = 50 * 1024 * 1024;
/// The widest or tallest image decoded.
const MAX_DECODED_EDGE: u32 = 20_000;
/// The most memory a decoder may take for one image.
const MAX_DECODE_ALLOC: u64 = 512 * 1024 * 1024;
/// The smallest long edge tried when a file stays too large.
const MIN_EDGE: u32 = 200;
/// The JPEG quality an image is re-encoded with.
const JPEG_QUALITY: u8 = 85;

/// Why an image cannot go with a prompt. `name` is how the person knows the image (a file's path, or `image 2`).
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ImageError {
    #[error("{name} is not valid base64 data")]
    Base64 { name: String },
    #[error("{name} is {size_mb:.1} MB; an image may be at most 50 MB")]
    TooLarge { name: String, size_mb: f64 },
    #[error("{name} is not an image that can be sent (PNG, JPEG, GIF or WebP): {reason}")]
    NotAnImage { name: String, reason: String },
}

/// An image fitted for the model: what the prompt carries and the transcript shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FittedImage {
    image: PromptImage,
    /// Width and height of the image as it came.
    pub original_size: [u32; 2],
    /// Width and height of the image as it is sent.
    pub size: [u32; 2],
}

impl FittedImage {
    /// The image as it is sent (media type and base64 data).
    pub fn image(&self) -> &PromptImage {
        &self.image
    }

    /// The image as it is sent, taken out.
    pub fn into_image(self) -> PromptImage {
        self.image
    }
}

/// Fits the image file `bytes` (known to the person as `name`) for the model.
pub fn fit_image(name: &str, bytes: &[u8]) -> Result<FittedImage, ImageError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(ImageError::TooLarge {
            name: name.to_string(),
            size_mb: bytes.len() as f64 / (1024.0 * 1024.0),
        });
    }
    let refuse = |reason: String| ImageError::NotAnImage {
        name: name.to_string(),
        reason,
    };
    let format = ::image::guess_format(bytes).map_err(|e| refuse(e.to_string()))?;
    let media_type = media_type(format).ok_or_else(|| refuse(format!("it is {format:?}")))?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_DECODED_EDGE);
    limits.max_image_height = Some(MAX_DECODED_EDGE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    reader.limits(limits);
    // Decoded whole, so that a truncated or damaged file is refused here rather than sent: the model's API rejects
    // a request with an image it cannot decode.
    let img = reader.decode().map_err(|e| refuse(e.to_string()))?;
    let original_size = [img.width(), img.height()];
    if img.width() <= MAX_EDGE && img.height() <= MAX_EDGE && bytes.len() <= MAX_BYTES {
        return Ok(FittedImage {
            image: encoded(media_type, bytes),
            original_size,
            size: original_size,
        });
    }
    let keep_png = matches!(
        format,
        ImageFormat::Png | ImageFormat::Gif | ImageFormat::WebP
    ) && img.color().has_alpha();
    let fit = Fit {
        max_edge: MAX_EDGE,
        min_edge: MIN_EDGE,
        max_bytes: MAX_BYTES,
        jpeg_quality: JPEG_QUALITY,
    };
    let small = shrink(&img, keep_png, fit).map_err(|e| refuse(e.to_string()))?;
    Ok(FittedImage {
        image: encoded(small.media_type, &small.data),
        original_size,
        size: small.size,
    })
}

/// Fits images the window sent as base64 (named `image 1`, `image 2`, … in errors), in order; the first that
/// cannot be sent is the error.
pub fn fit_prompt_images(images: &[PromptImage]) -> Result<Vec<FittedImage>, ImageError> {
    images
        .iter()
        .enumerate()
        .map(|(i, image)| {
            let name = format!("image {}", i + 1);
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(image.data.trim())
                .map_err(|_| ImageError::Base64 { name: name.clone() })?;
            fit_image(&name, &bytes)
        })
        .collect()
}

fn encoded(media_type: &str, bytes: &[u8]) -> PromptImage {
    PromptImage {
        media_type: media_type.to_string(),
        data: base64::engine::general_purpose::STANDARD.encode(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::image::{DynamicImage, Rgb, RgbImage, Rgba, RgbaImage};

    fn png(img: DynamicImage) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).expect("png");
        out.into_inner()
    }

    fn decoded(image: &PromptImage) -> DynamicImage {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&image.data)
            .expect("base64");
        ::image::load_from_memory(&bytes).expect("decodes")
    }

    #[test]
    fn a_small_image_is_sent_byte_for_byte() {
        let bytes = png(DynamicImage::ImageRgb8(RgbImage::from_pixel(
            40,
            30,
            Rgb([1, 2, 3]),
        )));
        let fitted = fit_image("shot.png", &bytes).expect("fits");
        assert_eq!(fitted.image().media_type, "image/png");
        assert_eq!(
            fitted.image().data,
            base64::engine::general_purpose::STANDARD.encode(&bytes)
        );
        assert_eq!(fitted.size, [40, 30]);
    }

    #[test]
    fn a_large_image_is_scaled_to_the_long_edge() {
        // Opaque: sent as JPEG; transparent: kept PNG. Both keep their proportions.
        let cases = [
            (
                DynamicImage::ImageRgb8(RgbImage::from_pixel(3000, 1500, Rgb([9, 9, 9]))),
                "image/jpeg",
            ),
            (
                DynamicImage::ImageRgba8(RgbaImage::from_pixel(1500, 3000, Rgba([9, 9, 9, 0]))),
                "image/png",
            ),
        ];
        for (img, media) in cases {
            let (w, h) = (img.width(), img.height());
            let fitted = fit_image("big", &png(img)).expect("fits");
            assert_eq!(fitted.image().media_type, media);
            assert_eq!(fitted.original_size, [w, h]);
            let long = fitted.size[0].max(fitted.size[1]);
            assert_eq!(long, MAX_EDGE);
            let sent = decoded(fitted.image());
            assert_eq!([sent.width(), sent.height()], fitted.size);
        }
    }

    #[test]
    fn what_is_not_an_image_is_refused_with_its_name() {
        let mut truncated = png(DynamicImage::ImageRgb8(RgbImage::from_pixel(
            64,
            64,
            Rgb([200, 10, 10]),
        )));
        truncated.truncate(truncated.len() / 2);
        let cases: [(&str, &[u8]); 3] = [
            ("notes.txt", b"hello, not an image"),
            ("half.png", &truncated),
            ("empty.png", b""),
        ];
        for (name, bytes) in cases {
            let err = fit_image(name, bytes).expect_err(name);
            assert!(
                matches!(&err, ImageError::NotAnImage { name: n, .. } if n == name),
                "{err}"
            );
            assert!(err.to_string().contains(name), "{err}");
        }
    }

    #[test]
    fn bad_base64_names_the_image() {
        let good = PromptImage {
            media_type: "image/png".into(),
            data: base64::engine::general_purpose::STANDARD.encode(png(DynamicImage::ImageRgb8(
                RgbImage::from_pixel(2, 2, Rgb([0, 0, 0])),
            ))),
        };
        let bad = PromptImage {
            media_type: "image/png".into(),
            data: "not base64!".into(),
        };
        assert_eq!(
            fit_prompt_images(std::slice::from_ref(&good)).map(|v| v.len()),
            Ok(1)
        );
        let err = fit_prompt_images(&[good, bad]).expect_err("bad");
        assert_eq!(
            err,
            ImageError::Base64 {
                name: "image 2".into()
            }
        );
    }
}
