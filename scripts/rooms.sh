#!/usr/bin/env bash
# Redraws the picture of the rooms (src/'s top-level modules) and which uses which, from the
# code: every `crate::room` path, including those inside `use crate::{...}` groups. Prints a
# Mermaid graph (paste it into ARCHITECTURE.md, or render it with any Mermaid viewer).
set -uo pipefail
cd "$(dirname "$0")/../src"

rooms=$(ls | sed -n 's/\.rs$//p; /\./!p' | grep -vx -e lib -e main | sort -u)

echo "graph TD"
for room in $rooms; do
  # A room is its file, its folder, or both (`service.rs` beside `service/`).
  files=$( { [ -f "$room.rs" ] && echo "$room.rs"; [ -d "$room" ] && find "$room" -name '*.rs'; } | sort )
  # Paths written out, then the first segment of each item of a `use crate::{...}` group
  # (nested groups included: any `word::` or lone word right after `{` or `,`).
  used=$( { grep -ohE 'crate::[a-z0-9_]+' $files | sed 's/crate:://';
            tr '\n' ' ' < <(cat $files) | grep -oE 'use crate::\{[^;]*\};' |
              sed -E 's/^use crate::\{//; s/\};$//' | grep -oE '(^|[{,] *)[a-z0-9_]+' |
              grep -oE '[a-z0-9_]+$'; } | sort -u)
  for other in $used; do
    if [ "$other" != "$room" ] && grep -qx "$other" <<<"$rooms"; then
      echo "  $room --> $other"
    fi
  done
done
