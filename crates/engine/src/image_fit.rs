//! Images fitted for the model, shared by the Read tool and the images a prompt carries: which formats the model
//! takes, encoding as PNG or JPEG, and scaling an image down until its encoding fits a size.

use std::io::Cursor;

use ::image::{DynamicImage, ImageError, ImageFormat};

/// The media type of an image format the model takes (PNG, JPEG, GIF, WebP); `None` for any other.
pub fn media_type(format: ImageFormat) -> Option<&'static str> {
    Some(match format {
        ImageFormat::Png => "image/png",
        ImageFormat::Jpeg => "image/jpeg",
        ImageFormat::Gif => "image/gif",
        ImageFormat::WebP => "image/webp",
        _ => return None,
    })
}

/// `img` encoded as PNG, or as JPEG of `jpeg_quality` (without its alpha channel).
pub fn encode(img: &DynamicImage, png: bool, jpeg_quality: u8) -> Result<Vec<u8>, ImageError> {
    let mut out = Cursor::new(Vec::new());
    if png {
        img.write_to(&mut out, ImageFormat::Png)?;
    } else {
        let rgb = DynamicImage::ImageRgb8(img.to_rgb8());
        let mut encoder =
            ::image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, jpeg_quality);
        encoder.encode_image(&rgb)?;
    }
    Ok(out.into_inner())
}

/// How far an image is scaled down.
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    /// The longest edge it starts from, in pixels.
    pub max_edge: u32,
    /// The smallest long edge tried: at this edge it is taken whatever its size.
    pub min_edge: u32,
    /// The largest encoding that fits.
    pub max_bytes: usize,
    pub jpeg_quality: u8,
}

/// An image scaled down and encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shrunk {
    pub data: Vec<u8>,
    pub media_type: &'static str,
    /// Width and height as encoded.
    pub size: [u32; 2],
}

/// `img` scaled to `fit.max_edge` and encoded (PNG when `png`, else JPEG), then smaller by a quarter at a time
/// until the encoding is at most `fit.max_bytes` or the edge reaches `fit.min_edge`.
pub fn shrink(img: &DynamicImage, png: bool, fit: Fit) -> Result<Shrunk, ImageError> {
    let mut edge = fit.max_edge;
    loop {
        let small = img.thumbnail(edge, edge);
        let data = encode(&small, png, fit.jpeg_quality)?;
        if data.len() <= fit.max_bytes || edge <= fit.min_edge {
            return Ok(Shrunk {
                data,
                media_type: if png { "image/png" } else { "image/jpeg" },
                size: [small.width(), small.height()],
            });
        }
        edge = edge * 3 / 4;
    }
}
