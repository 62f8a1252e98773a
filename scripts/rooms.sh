#!/usr/bin/env bash
# Redraws the picture of the rooms and which uses which, from the code. The rooms are the bot
# library's top-level modules (src/), the `settai` command (src/bin/settai/, as `command`), the
# `settai-lab` command (crates/lab-cli/, as `lab_command`), and the two crates beside them: `core` (crates/core, settai-core) and `lab` (crates/lab,
# settai-lab). Every `crate::room` path of the library counts, including those inside
# `use crate::{...}` groups; the commands' `settai::room` paths likewise; and any mention of
# `settai_core` or `settai_lab`. Prints a Mermaid graph (paste it into ARCHITECTURE.md).
set -uo pipefail
cd "$(dirname "$0")/.."

lib_rooms=$(ls src | sed -n 's/\.rs$//p; /\./!p' | grep -vx -e lib -e main -e bin | sort -u)

# The rooms a set of files names through `PREFIX::room` paths and `use PREFIX::{...}` groups.
named() {
  local prefix=$1; shift
  { grep -ohE "${prefix}::[a-z0-9_]+" "$@" | sed "s/${prefix}:://";
    tr '\n' ' ' < <(cat "$@") | grep -oE "use ${prefix}::\{[^;]*\};" |
      sed -E "s/^use ${prefix}::\{//; s/\};$//" | grep -oE '(^|[{,] *)[a-z0-9_]+' |
      grep -oE '[a-z0-9_]+$';
    grep -qh 'settai_core' "$@" && echo core;
    grep -qh 'settai_lab' "$@" && echo lab; } | sort -u
}

edges() {
  local room=$1 used=$2 other
  for other in $used; do
    if [ "$other" != "$room" ] && grep -qx "$other" <<<"$(printf '%s\n' $lib_rooms core lab)"; then
      echo "  $room --> $other"
    fi
  done
}

echo "graph TD"
for room in $lib_rooms; do
  # A room is its file, its folder, or both (`service.rs` beside `service/`).
  files=$( { [ -f "src/$room.rs" ] && echo "src/$room.rs"; [ -d "src/$room" ] && find "src/$room" -name '*.rs'; } | sort )
  edges "$room" "$(named crate $files)"
done
edges command "$(named settai $(find src/bin/settai -name '*.rs' | sort))"
edges lab_command "$(named settai $(find crates/lab-cli/src -name '*.rs' | sort))"
edges lab "$(named crate_never_used $(find crates/lab/src -name '*.rs' | sort))"
edges core "$(named crate_never_used $(find crates/core/src -name '*.rs' | sort))"
