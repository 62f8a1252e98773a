//! Doubutsu shogi board image: a plain view of a position in, PNG bytes out.
//!
//! The animals are Twemoji graphics (CC-BY 4.0), pre-rasterized to PNG under
//! `assets/doubutsu/` so the bot needs no SVG renderer; see `assets/README.md`.
//!
//! [`view`]: what the picture shows; [`layout`]: sizes, places and colours; [`rounded`]: the
//! rounded-box primitives; [`tiles`]: the piece tiles; [`background`]: the frame, field and
//! trays; [`captions`]: the header and the hands' captions; [`emoji`]: the tiles as the buttons'
//! pictures; [`banner`]: the result; [`picture`]:
//! the picture put together.

mod background;
mod banner;
mod captions;
mod emoji;
mod layout;
mod picture;
mod rounded;
mod tiles;
mod view;

pub use emoji::{TileEmoji, TILE_EMOJI_SIDE};
pub use layout::{HEIGHT, WIDTH};
pub use picture::{doubutsu_image, render_doubutsu};
pub use view::{Animal, DoubutsuView, LastMove, Owner};

pub(super) use background::wood_slab;
pub(super) use layout::{FIELD, GRID, HIGHLIGHT};
pub(super) use tiles::stamp_hand_tile;
pub(super) use view::ANIMALS;

#[cfg(test)]
mod tests;
