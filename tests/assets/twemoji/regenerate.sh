#!/bin/sh
# Vendors the Twemoji glyphs of emoji.txt as 72x72 PNGs for the tests' screenshots (Discord's
# clients draw Unicode emoji with Twemoji), and names.txt, every emoji Twemoji has, so that the
# renderer knows an emoji it has no glyph for. Needs npm and Debian's librsvg2-bin
# (rsvg-convert), like assets/doubutsu/rasterize.sh.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent @twemoji/svg@15.0.0 >/dev/null)
echo "1d2907557a422c7c4e3feca50ef915c39da1db3d76b4a4d7e73fb59bce4403c3  $tmp/twemoji-svg-15.0.0.tgz" | sha256sum -c -
tar xzf "$tmp/twemoji-svg-15.0.0.tgz" -C "$tmp"
ls "$tmp/package" | sed -n 's/\.svg$//p' | LC_ALL=C sort > names.txt
rm -f ./*.png
grep -v '^#' emoji.txt | while read -r name _; do
    rsvg-convert -w 72 -h 72 "$tmp/package/$name.svg" -o "$name.png"
done
