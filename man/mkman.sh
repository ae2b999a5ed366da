#!/bin/sh
# mkman.sh OUT_DIR VERSION SOURCE_DIR POLYBSP BSPCC BSPRUN — writes polybsp's man
# pages into OUT_DIR/man1 and OUT_DIR/man3, each from the one text it documents,
# so that neither can drift from the other:
#   man1: bspcc(1), bsprun(1), polybsp(1) and polybsp-COMMAND(1) for every line
#         of tools/polybsp/commands.def, from `TOOL --help` (help2roff.awk);
#   man3: bsp(3) and one page per public call, bsp_put(3) and so on, from the
#         comments of include/bsp.h, polybsp.h and polybsp_coll.h (header2roff.awk).
# The date on the pages is SOURCE_DATE_EPOCH's when set (reproducible builds),
# else none. Exit status 1, with the reason, when a help or a comment is missing.
set -eu
out=$1
version=$2
src=$3
polybsp=$4
bspcc=$5
bsprun=$6
here=$(cd -- "$(dirname -- "$0")" && pwd)
date=
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
fi
rm -rf "$out/man1" "$out/man3"
mkdir -p "$out/man1" "$out/man3"

commands=$(sed -n 's/^POLYBSP_COMMAND(\([a-z_]*\), *"\(.*\)")$/\1/p' "$src/tools/polybsp/commands.def")
summary_of() {
    sed -n "s/^POLYBSP_COMMAND($1, *\"\\(.*\\)\")\$/\\1/p" "$src/tools/polybsp/commands.def"
}

# page NAME SUMMARY SEE-ALSO COMMAND...: NAME(1) from COMMAND --help.
page() {
    name=$1
    summary=$2
    see=$3
    shift 3
    help=$("$@" --help) || {
        echo "mkman.sh: '$* --help' failed" >&2
        exit 1
    }
    printf '%s\n' "$help" | awk -v name="$name" -v section=1 -v summary="$summary" \
        -v version="$version" -v date="$date" -v see="$see" -f "$here/help2roff.awk" \
        >"$out/man1/$name.1"
}

all_commands=
for c in $commands; do
    all_commands="$all_commands polybsp-$c(1)"
done
page bspcc "compile and link a BSP program against polybsp" "bsprun(1) polybsp(1) bsp(3)" "$bspcc"
page bsprun "run a BSP program on P processes" "bspcc(1) polybsp(1) polybsp-run(1) bsp(3)" "$bsprun"
page polybsp "run, calibrate and predict Bulk Synchronous Parallel (BSP) programs" \
    "$all_commands bspcc(1) bsprun(1) bsp(3)" "$polybsp"
for c in $commands; do
    page "polybsp-$c" "$(summary_of "$c")" "polybsp(1) bsp(3)" "$polybsp" "$c"
done

awk -v out="$out/man3" -v version="$version" -v date="$date" -v skip=bsp_smpi_exit \
    -f "$here/header2roff.awk" "$src/include/bsp.h" "$src/include/polybsp.h" \
    "$src/include/polybsp_coll.h"
