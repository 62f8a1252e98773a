#!/bin/sh
# Rasterizes the Twemoji SVGs in this directory to the 128×128 PNGs the bot embeds,
# so the bot needs no SVG renderer. Needs Debian's librsvg2-bin (rsvg-convert).
# With --fetch, first (re)copies the SVGs from the npm package @twemoji/svg 15.0.0.
set -eu
cd "$(dirname "$0")"

if [ "${1:-}" = "--fetch" ]; then
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent @twemoji/svg@15.0.0 >/dev/null && tar xzf twemoji-svg-15.0.0.tgz)
    for pair in lion:1f981 giraffe:1f992 elephant:1f418 chick:1f425 hen:1f414; do
        cp "$tmp/package/${pair#*:}.svg" "${pair%%:*}.svg"
    done
    rm -rf "$tmp"
fi

for name in lion giraffe elephant chick hen; do
    rsvg-convert -w 128 -h 128 "$name.svg" -o "$name.png"
done
