#!/bin/sh
# bsprun.sh BSPRUN BSPCC EXAMPLES_DIR WORK_DIR — tests the build-tree bsprun: the
# spellings of P BSPlib users type, a program that asks for more processes than
# the cores (as BSPedupack's do) and the note when it was offered too few, a
# name without a slash run from the current directory before PATH, arguments
# and stdin passed through, the program's exit status, and usage errors (one
# line, status 2).
set -eu
unset POLYBSP_NPROCS # the tests say when they want it
bsprun=$1
bspcc=$2
examples=$3
work=$4
rm -rf "$work"
mkdir -p "$work"

fail() {
    echo "FAIL: $*"
    exit 1
}

"$bspcc" -o "$work/inprod" "$examples/inprod.c" -lm
for spelling in -n -np -npes; do
    "$bsprun" $spelling 3 "$work/inprod" 1000 >"$work/out"
    grep -qx "inprod: n = 1000, p = 3" "$work/out" || fail "bsprun $spelling 3: $(cat "$work/out")"
done

# A program that reads how many processes it wants, and checks it against
# bsp_nprocs() before bsp_begin, as BSPedupack's programs do.
cat >"$work/ask.c" <<'PROG'
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
static int wanted;
static void spmd(void)
{
    bsp_begin(wanted);
    if (bsp_pid() == 0)
        printf("running on %d\n", bsp_nprocs());
    bsp_end();
}
int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (scanf("%d", &wanted) != 1)
        return 0; /* nothing asked for: nothing to run */
    if (wanted > bsp_nprocs()) {
        printf("Sorry, only %d processors available.\n", bsp_nprocs());
        exit(4);
    }
    spmd();
    return argc > 1 ? atoi(argv[1]) : 0;
}
PROG
"$bspcc" -o "$work/ask" "$work/ask.c"
cores=$(nproc)
wanted=$((cores + 3))
echo "$wanted" | "$bsprun" -n "$wanted" "$work/ask" >"$work/out" || fail "ask: status $?"
grep -qx "running on $wanted" "$work/out" || fail "ask: $(cat "$work/out")"
status=0
echo 1 | "$bsprun" -n 1 -- "$work/ask" 7 >/dev/null || status=$?
[ "$status" -eq 7 ] || fail "the program's exit status: $status"
# Offered the default (one process per core), the program stops with its own
# message; the library adds one line saying how to offer more (once per job,
# on every engine). Not when POLYBSP_NPROCS (bsprun -n) chose what was offered.
expect_note() {
    status=0
    echo 1000000 | "$bsprun" "$@" >"$work/out" 2>"$work/err" || status=$?
    [ "$status" -eq 4 ] || fail "bsprun $* for 1000000: status $status"
    offered=$(sed -n 's/^Sorry, only \([0-9]*\) processors available\.$/\1/p' "$work/out")
    [ -n "$offered" ] || fail "bsprun $*: $(cat "$work/out")"
    note="polybsp: note: bsp_nprocs() offered $offered processes and the program stopped before bsp_begin; for more, run it with bsprun -n P or set POLYBSP_NPROCS=P"
    [ "$offered" -eq 1 ] && note=$(echo "$note" | sed 's/1 processes/1 process/')
    printf '%s\n' "$note" | cmp -s - "$work/err" || fail "bsprun $*: stderr: $(cat "$work/err")"
}
expect_note "$work/ask"
echo 3 | "$bsprun" -n 2 "$work/ask" >/dev/null 2>"$work/err" && fail "3 of 2: status 0"
[ ! -s "$work/err" ] || fail "a note though bsprun -n chose P: $(cat "$work/err")"
# Ended with status 0 before bsp_begin (a usage message, polybsp info): no note.
"$bsprun" -n 2 "$work/ask" </dev/null 2>"$work/err" >/dev/null || fail "no input: status $?"
[ ! -s "$work/err" ] || fail "a program without input: stderr: $(cat "$work/err")"

# A name without a slash: ./NAME when this directory has it (BSPedupack's
# README types `bsprun -npes 4 bench`), else PATH; a note when both have it.
mkdir -p "$work/bin" "$work/here"
printf '#!/bin/sh\necho "from PATH"\n' >"$work/bin/prog"
chmod +x "$work/bin/prog"
cp "$work/inprod" "$work/here/prog"
(cd "$work/here" && PATH=$work/bin:$PATH "$bsprun" -n 2 prog 1000) >"$work/out" 2>"$work/err" ||
    fail "./prog: status $?"
grep -qx "inprod: n = 1000, p = 2" "$work/out" || fail "./prog: $(cat "$work/out")"
echo "bsprun: note: running ./prog (this directory), not $work/bin/prog (PATH)" | cmp -s - "$work/err" ||
    fail "./prog: stderr: $(cat "$work/err")"
(cd "$work" && PATH=$work/bin:$PATH "$bsprun" prog) >"$work/out" 2>"$work/err" || fail "PATH's prog: status $?"
[ "$(cat "$work/out")" = "from PATH" ] && [ ! -s "$work/err" ] ||
    fail "PATH's prog: $(cat "$work/out" "$work/err")"
rm "$work/bin/prog"
(cd "$work/here" && "$bsprun" -n 2 prog 1000) >"$work/out" 2>"$work/err" || fail "./prog alone: status $?"
grep -qx "inprod: n = 1000, p = 2" "$work/out" && [ ! -s "$work/err" ] ||
    fail "./prog alone: $(cat "$work/out" "$work/err")"

# A program built for the MPI engine runs under mpiexec without being told
# (BSPRUN_TEST_MPI=ON where the MPI engine's tests run).
if [ "${BSPRUN_TEST_MPI:-OFF}" = ON ]; then
    "$bspcc" --engine mpi -o "$work/inprod_mpi" "$examples/inprod.c" -lm
    "$bsprun" -n 2 "$work/inprod_mpi" 1000 >"$work/out" 2>&1 || fail "mpi: $(cat "$work/out")"
    grep -qx "inprod: n = 1000, p = 2" "$work/out" || fail "mpi: $(cat "$work/out")"
    # Without -n, POLYBSP_NPROCS sets the ranks, as it sets P on threads
    # (BSPedupack's runtests under POLYBSP_NPROCS=4).
    POLYBSP_NPROCS=3 "$bsprun" "$work/inprod_mpi" 1000 >"$work/out" 2>&1 || fail "mpi: $(cat "$work/out")"
    grep -qx "inprod: n = 1000, p = 3" "$work/out" || fail "mpi, POLYBSP_NPROCS=3: $(cat "$work/out")"
    status=0
    POLYBSP_NPROCS=abc "$bsprun" "$work/inprod_mpi" 1000 >/dev/null 2>"$work/err" || status=$?
    [ "$status" -eq 2 ] && grep -qx "polybsp: run: invalid number of processes 'abc' (expected an integer from 1 to 1000000)" "$work/err" ||
        fail "mpi, POLYBSP_NPROCS=abc: status $status, $(cat "$work/err")"
    "$bspcc" --engine mpi -o "$work/ask_mpi" "$work/ask.c"
    expect_note -n 2 "$work/ask_mpi"
    # Every process's lines whole, though mpiexec passes output on in pieces
    # of 4 KiB (without polybsp's reassembly about 250 of these 24000 lines
    # were cut), also across a quiet moment, and with --output-dir one file
    # per process.
    cat >"$work/lines.c" <<'PROG'
#include <bsp.h>
#include <stdio.h>
#include <time.h>
int main(void)
{
    bsp_begin(bsp_nprocs());
    /* Half, a quiet moment longer than mpi_output waits for a prompt's end
     * (every rank computing), the other half. */
    for (int i = 0; i < 6000; i++) {
        if (i == 3000)
            nanosleep(&(struct timespec){0, 300000000}, NULL);
        printf("process %d line %d 0.000000 1.000000 2.000000 3.000000\n", bsp_pid(), i);
    }
    fprintf(stderr, "process %d done\n", bsp_pid());
    bsp_end();
    return 0;
}
PROG
    "$bspcc" --engine mpi -o "$work/lines" "$work/lines.c"
    "$bsprun" -n 4 "$work/lines" >"$work/out" 2>"$work/err" || fail "lines: status $?"
    whole=$(grep -cx "process [0-3] line [0-9]* 0.000000 1.000000 2.000000 3.000000" "$work/out")
    [ "$whole" -eq 24000 ] && [ "$(wc -l <"$work/out")" -eq 24000 ] ||
        fail "lines: $whole of 24000 lines whole, $(wc -l <"$work/out") in all"
    [ "$(sort "$work/err")" = "$(printf 'process %d done\n' 0 1 2 3)" ] || fail "lines: stderr: $(cat "$work/err")"
    rm -rf "$work/each"
    "$bsprun" -n 3 --output-dir "$work/each" "$work/lines" >"$work/out" 2>"$work/err" ||
        fail "--output-dir: status $?"
    [ ! -s "$work/out" ] && [ "$(ls "$work/each")" = "$(printf '%s\n' 0.out 1.out 2.out)" ] ||
        fail "--output-dir: $(ls "$work/each") $(cat "$work/out")"
    for pid in 0 1 2; do
        [ "$(grep -cx "process $pid line [0-9]* 0.000000 1.000000 2.000000 3.000000" "$work/each/$pid.out")" -eq 6000 ] &&
            [ "$(wc -l <"$work/each/$pid.out")" -eq 6000 ] || fail "--output-dir: $pid.out"
    done
fi

"$bsprun" --help | grep -q "^usage: bsprun" || fail "--help"
"$bsprun" --version | grep -q "^bsprun (polybsp) [0-9]" || fail "--version"

expect_error() {
    want_status=$1
    line=$2
    shift 2
    status=0
    "$bsprun" "$@" >/dev/null 2>"$work/err" || status=$?
    [ "$status" -eq "$want_status" ] || fail "bsprun $*: status $status, expected $want_status"
    printf '%s\n' "$line" | cmp -s - "$work/err" || fail "bsprun $*: stderr: $(cat "$work/err")"
}
expect_error 2 "bsprun: missing program (usage: bsprun [-n P] PROGRAM [ARGS])" -n 2
expect_error 2 "bsprun: option '-n' needs a value" -n
expect_error 2 "bsprun: unknown option '-x' (try 'bsprun --help')" -x "$work/inprod"
expect_error 2 "polybsp: run: invalid number of processes 'zero' (expected an integer from 1 to 1000000)" \
    -n zero "$work/inprod"
expect_error 2 "polybsp: run: --output-dir is for --engine mpi only (on threads the processes share one stdout)" \
    --output-dir "$work/each" "$work/inprod"
expect_error 2 "bsprun: option '--output-dir' needs a value" --output-dir
echo "bsprun: OK"
