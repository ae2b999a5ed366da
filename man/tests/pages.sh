#!/bin/sh
# pages.sh MAN_DIR WORK_DIR VERSION SOURCE_DIR POLYBSP BSPCC BSPRUN — the built
# man pages against their sources: made again from the tools' --help and the
# headers' comments as they are now, they must be the same files (a page that
# did not follow its help or header fails here); every tool, subcommand and
# public call has its page; groff reads every page without a warning.
set -eu
man=$1
work=$2
shift 2
here=$(cd -- "$(dirname -- "$0")" && pwd)
src=$2
fail() {
    echo "FAIL: $*"
    exit 1
}
rm -rf "$work"
sh "$here/../mkman.sh" "$work" "$@" || fail "mkman.sh"
diff -r "$work/man1" "$man/man1" >"$work.diff" && diff -r "$work/man3" "$man/man3" >>"$work.diff" ||
    fail "the built pages differ from the help and headers of now (rebuild): $(head -20 "$work.diff")"

for page in bspcc bsprun polybsp; do
    [ -f "$man/man1/$page.1" ] || fail "no $page(1)"
done
for c in $(sed -n 's/^POLYBSP_COMMAND(\([a-z_]*\),.*/\1/p' "$src/tools/polybsp/commands.def"); do
    [ -f "$man/man1/polybsp-$c.1" ] || fail "no polybsp-$c(1)"
done
calls=$(sed -n 's/^POLYBSP_API [^(]*[ *]\([a-z_A-Z0-9]*\)(.*/\1/p' "$src"/include/*.h | grep -v '^bsp_smpi_exit$')
[ "$(echo "$calls" | wc -l)" -ge 49 ] || fail "only $(echo "$calls" | wc -l) calls found in the headers"
for call in $calls bsp; do
    [ -f "$man/man3/$call.3" ] || fail "no $call(3)"
done
for page in "$man"/man1/*.1 "$man"/man3/*.3; do
    warnings=$(groff -k -man -ww -z "$page" 2>&1)
    [ -z "$warnings" ] || fail "groff on $page: $warnings"
done
echo "man pages: OK ($(ls "$man/man1" | wc -l) in section 1, $(ls "$man/man3" | wc -l) in section 3)"
