//! Failures of the shared rendering helpers.

/// Failures of the shared rendering helpers.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The embedded font could not be parsed.
    #[error("embedded font could not be parsed: {0}")]
    Font(#[from] ab_glyph::InvalidFont),
    /// The PNG encoder rejected the image.
    #[error("PNG encoding failed: {0}")]
    Png(#[from] image::ImageError),
}
