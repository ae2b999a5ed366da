#!/bin/sh
# bspcc.sh BSPCC EXAMPLES_DIR WORK_DIR — tests the build-tree bspcc: it compiles
# and links the examples in both dialects, warning-free, and the programs run;
# compile-only and separate linking work; --show, --help and bad options behave.
set -eu
bspcc=$1
examples=$2
work=$3
rm -rf "$work"
mkdir -p "$work"

fail() {
    echo "FAIL: $*"
    exit 1
}

# hello, classic dialect, with warnings as errors: every process says hello.
"$bspcc" -Wall -Wextra -Wpedantic -Werror -o "$work/hello" "$examples/hello.c"
POLYBSP_NPROCS=3 "$work/hello" | sort >"$work/hello.out"
printf 'Hello from process %d of 3\n' 0 1 2 | cmp - "$work/hello.out" || fail "hello output"

# hello, MulticoreBSP dialect.
"$bspcc" --mcbsp -Wall -Wextra -Wpedantic -Werror -o "$work/hello_mc" "$examples/hello.c"
POLYBSP_NPROCS=2 "$work/hello_mc" | sort >"$work/hello_mc.out"
printf 'Hello from process %d of 2\n' 0 1 | cmp - "$work/hello_mc.out" || fail "hello --mcbsp output"

# inprod compiled with -c, then linked by a second call.
"$bspcc" -c -o "$work/inprod.o" "$examples/inprod.c"
"$bspcc" --engine threads -o "$work/inprod" "$work/inprod.o" -lm
POLYBSP_NPROCS=2 "$work/inprod" 1000 | grep -qx "inprod: OK" || fail "inprod output"

# --show prints the command without running it.
shown=$("$bspcc" --show --mcbsp -o "$work/never" "$work/no such file.c")
case $shown in
*"-DPOLYBSP_MCBSP"*"'$work/no such file.c'"*libpolybsp.a*-pthread*) ;;
*) fail "--show printed: $shown" ;;
esac
[ ! -e "$work/never" ] || fail "--show ran the compiler"
case $("$bspcc" --show -c x.c) in
*libpolybsp*) fail "--show -c links the library" ;;
esac

# The Oxford toolset's runtime options (BSPedupack 1.02's Makefile passes them)
# are accepted with one note for all of them and reach neither the compiler nor the program.
"$bspcc" -flibrary-level 2 -bspfifo 10000 -fcombine-puts -fcombine-puts-buffer 4096 \
    -fnocombine-puts -o "$work/hello_ox" "$examples/hello.c" 2>"$work/ox.err" ||
    fail "Oxford options: $(cat "$work/ox.err")"
POLYBSP_NPROCS=2 "$work/hello_ox" | sort | cmp -s - "$work/hello_mc.out" || fail "Oxford build output"
cat >"$work/ox.expected" <<'NOTES'
bspcc: note: ignoring the Oxford BSP toolset's options '-flibrary-level 2', '-bspfifo 10000', '-fcombine-puts', '-fcombine-puts-buffer 4096', '-fnocombine-puts' (no effect with polybsp)
NOTES
cmp -s "$work/ox.expected" "$work/ox.err" || fail "Oxford notes: $(cat "$work/ox.err")"

"$bspcc" --help | grep -q "^usage: bspcc" || fail "--help"
"$bspcc" --version | grep -q "^bspcc (polybsp) [0-9]" || fail "--version"

# Usage errors: one line, status 2.
expect_usage_error() {
    line=$1
    shift
    status=0
    "$bspcc" "$@" 2>"$work/err" || status=$?
    [ "$status" -eq 2 ] || fail "bspcc $*: status $status, expected 2"
    printf '%s\n' "$line" | cmp -s - "$work/err" || fail "bspcc $*: stderr: $(cat "$work/err")"
}
expect_usage_error "bspcc: option '-bspfifo' needs a value" -o "$work/x" "$examples/hello.c" -bspfifo
engines=$("$bspcc" --help | sed -n 's/.*available: \([a-z ]*\) (threads is.*/\1/p')
expect_usage_error "bspcc: engine 'sim' is not available (available: $engines)" \
    --engine sim -o "$work/x" "$examples/hello.c"
# With MPI built in, --engine mpi links libpolybsp_mpi: the program names its engine.
case " $engines " in
*" mpi "*)
    "$bspcc" --engine mpi -o "$work/hello_mpi" "$examples/hello.c" || fail "bspcc --engine mpi"
    ;;
esac
expect_usage_error "bspcc: option '--engine' needs a value" "$examples/hello.c" --engine
expect_usage_error "bspcc: no input files (try 'bspcc --help')"
echo "bspcc: all checks passed"
