#!/bin/sh
# browser.sh TOOL EXAMPLE MACHINE WORK_DIR — the page of `polybsp report` in a real
# browser: a traced run of EXAMPLE at P = 2, its report, then headless Chromium
# (Debian's chromium) loads it: the page's own script must have found every one
# of its charts (at least the timeline and the two heat maps) laid out with
# something drawn (body data-drawn="N of N", --dump-dom), the
# screenshot must be written, and Chromium must log no JavaScript error.
# Exit 77 (skipped) when chromium is not installed.
set -u
tool=$1
example=$2
machine=$3
work=$4
fail() { echo "FAIL: $*"; exit 1; }
browser=$(command -v chromium || command -v chromium-browser) || { echo "SKIP: no chromium"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
POLYBSP_NPROCS=2 POLYBSP_TRACE="$work/t.jsonl" "$example" >"$work/run.out" 2>&1 ||
    fail "the traced run failed: $(cat "$work/run.out")"
"$tool" report --machine "$machine" -o "$work/r.html" "$work/t.jsonl" >/dev/null || fail "report: status $?"
chrome() {
    # As root Chromium needs --no-sandbox; a fresh profile keeps runs apart.
    timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$work/profile" --enable-logging=stderr --v=0 --window-size=1000,1800 "$@"
}
chrome --dump-dom "file://$work/r.html" >"$work/dom.html" 2>"$work/dom.err" || fail "chromium --dump-dom: status $?"
grep -Eq '<body data-drawn="([3-9]|[1-9][0-9]+) of \1">' "$work/dom.html" ||
    fail "the browser did not draw every chart: $(grep -o '<body[^>]*>' "$work/dom.html")"
chrome --screenshot="$work/r.png" "file://$work/r.html" >"$work/shot.out" 2>"$work/shot.err" ||
    fail "chromium --screenshot: status $?"
[ -s "$work/r.png" ] || fail "no screenshot"
if grep -h 'Uncaught\|CONSOLE.*rror' "$work/dom.err" "$work/shot.err"; then
    fail "JavaScript errors in the page"
fi
echo "OK: report drawn in $browser"
