#!/bin/sh
# commands.sh SOURCE_DIR BUILD_DIR WORK_DIR [ENGINE...] — runs every shell
# command of README.md and docs/*.md as a user would paste it, so that the docs
# cannot drift from what polybsp does.
#
# A command is a line of a ```sh (or bash, console, shell) block, or a line
# starting with "$ " in a plain ``` block (the lines after it, up to the next
# "$ " or the block's end, are its documented output). Each file's commands run
# in document order in a directory of their own, which holds what the
# repository's README assumes (links to build/, examples/, scripts/ ... of this
# tree), copies of examples/*.c (the user's hello.c, inprod.c), and a machine
# file machine.json from one quick probe (the one a user calibrated before;
# not its samples: a report that needs them must get them from its own
# file's probe); build/tools/bspcc and build/tools/polybsp come first
# in PATH (bspcc, bsprun, polybsp as installed).
#
# By default a command must end with status 0. tests/docs/commands.txt says
# otherwise for a command, keyed by its file and exact text:
#   skip: REASON    not runnable here (needs other hosts, installs packages,
#                   runs this very suite, takes far longer than a test may)
#   run-as: CMD     run CMD instead: the same with a smaller size or --quick
#   status: N       must end with status N
#   exact: N        must end with status N and print exactly the documented
#                   output (stdout and stderr together)
#   needs: ENGINE   skipped when this build lacks the engine (mpi, smpi)
# An entry that matches no command of the docs fails the test, so that the
# list follows the docs. ENGINE... are the engines this build has besides threads.
# Prints one line per command (OK, SKIP with the reason, FAIL with the
# command's output) and exits 1 when one failed, 0 otherwise.
set -u
src=$1
build=$2
work=$3
shift 3
engines=" threads $* "
here=$(cd -- "$(dirname -- "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/plan"

# 1. The plan: one directory per command, in document order, with its file,
# line, text, documented output and the manifest's word on it.
(cd "$src" && awk -v plan="$work/plan" -f "$here/commands.awk" "$here/commands.txt" README.md docs/*.md) ||
    exit 1

# 2. What every file's commands find in their directory.
export PATH="$build/tools/bspcc:$build/tools/polybsp:$PATH"
for var in $(env | sed -n 's/^\(POLYBSP_[A-Z_]*\)=.*/\1/p'); do
    unset "$var"
done
if [ "$(id -u)" = 0 ]; then # as docs/mpi.md says for Open MPI under root
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# A bare mpirun's session files apart from other jobs' (docs/mpi.md).
mkdir -p "$work/ompi"
export OMPI_MCA_orte_tmpdir_base="$work/ompi"
if ! (cd "$work" && polybsp probe --quick -q -o machine.json >probe.log 2>&1); then
    echo "FAIL: the quick probe behind machine.json: $(cat "$work/probe.log")"
    exit 1
fi
prepare() {
    dir=$1
    [ -d "$dir" ] && return
    mkdir -p "$dir"
    for entry in "$src"/*; do
        name=${entry##*/}
        [ "$name" = build ] || ln -s "$entry" "$dir/$name"
    done
    ln -s "$build" "$dir/build"
    cp "$src"/examples/*.c "$work/machine.json" "$dir/"
}

# 3. Each command.
failed=0
count=0
for rec in $(ls "$work/plan" | sort -n); do
    r=$work/plan/$rec
    where=$(cat "$r/where")
    cmd=$(cat "$r/command")
    count=$((count + 1))
    if [ -s "$r/skip" ]; then
        echo "SKIP $where: $cmd ($(cat "$r/skip"))"
        continue
    fi
    if [ -s "$r/needs" ]; then
        need=$(cat "$r/needs")
        case $engines in
        *" $need "*) ;;
        *)
            echo "SKIP $where: $cmd (this build has no $need engine)"
            continue
            ;;
        esac
    fi
    run=$cmd
    [ -s "$r/run_as" ] && run=$(cat "$r/run_as")
    want=0
    [ -s "$r/status" ] && want=$(cat "$r/status")
    dir=$work/run/$(sed 's/[^A-Za-z0-9]/_/g' "$r/file")
    prepare "$dir"
    status=0
    (cd "$dir" && timeout 300 sh -c "$run") >"$r/got" 2>&1 </dev/null || status=$?
    problem=
    if [ "$status" -ne "$want" ]; then
        problem="status $status, expected $want"
    elif [ -e "$r/exact" ] && ! cmp -s "$r/output" "$r/got"; then
        problem="output differs from the documented lines"
    fi
    if [ -z "$problem" ]; then
        echo "OK   $where: $cmd"
        continue
    fi
    failed=$((failed + 1))
    echo "FAIL $where: $cmd: $problem"
    [ "$run" = "$cmd" ] || echo "     ran instead: $run"
    if [ -e "$r/exact" ]; then
        echo "     documented:"
        sed 's/^/       | /' "$r/output"
    fi
    echo "     printed:"
    tail -n 20 "$r/got" | sed 's/^/       | /'
done
echo "commands.sh: $count commands, $failed failed"
[ "$failed" -eq 0 ]
