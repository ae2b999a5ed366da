#!/usr/bin/env bash
# external-clients.sh — BSPlib programs nobody here wrote, built and run the way
# their users do, on every engine, with their answers checked.
#
# Usage: scripts/external-clients.sh [--build DIR] [--work DIR] [--procs LIST]
#                                    [--engines LIST] [--quick] SOURCE_DIR...
#
# Each SOURCE_DIR is a source tree fetched by the user outside the repository
# (never committed), recognised by its files:
#   - BSPedupack 2.0 (bspedupack.h, bspmatch_test.c, runtests): built unchanged
#     with its own Makefile and `make CC="bspcc --mcbsp --engine E"`; its runtests
#     is run unchanged with `bsprun` first in PATH; then every program (inprod,
#     bench, sort, lu, fft, matvec, match) at each P of LIST, with the inputs of
#     runtests adapted to P (docs/clients.md says how and how each answer is checked).
#   - BSPonMPI (test/test.h and CMakeLists.txt): every test of its test/ directory
#     that its CMakeLists.txt registers, compiled with `bspcc --engine E` and run
#     with `bsprun -n P` at its P; a test passes when it ends as BSPonMPI's test
#     says it must (success, or a stop whose message names the same call).
# Options:
#   --build DIR     a built polybsp build directory (default: build/ of this repository)
#   --work DIR      where the trees are copied, built and run (default
#                   ${TMPDIR:-/tmp}/polybsp-external-clients); wiped per tree
#   --procs LIST    the P of BSPedupack's programs (default "1 2 3 4")
#   --engines LIST  default "threads mpi" (mpi only if the build has it)
#   --quick         BSPedupack: skip bench (bspbench takes minutes per run)
# Prints one line per check, PASS or FAIL, or with the reason KNOWN (a difference
# that is polybsp's documented behaviour) or N/A (a test of another library's
# extension; a P the program cannot use), and a Markdown summary; logs stay in
# the work directory. Exit status: 0 if no check failed, 1 if one did, 2 on bad
# usage.
set -u

usage="usage: external-clients.sh [--build DIR] [--work DIR] [--procs LIST] [--engines LIST] [--quick] SOURCE_DIR..."
die() {
    echo "external-clients.sh: $*" >&2
    exit 2
}

here=$(cd -- "$(dirname -- "$0")" && pwd)
repo=$(cd -- "$here/.." && pwd)
build=$repo/build
work=${TMPDIR:-/tmp}/polybsp-external-clients
procs="1 2 3 4"
engines=
quick=
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"
        exit 0
        ;;
    --build | --work | --procs | --engines)
        [ $# -ge 2 ] || die "option '$1' needs a value"
        case $1 in
        --build) build=$2 ;;
        --work) work=$2 ;;
        --procs) procs=$2 ;;
        --engines) engines=$2 ;;
        esac
        shift 2
        ;;
    --quick) quick=yes; shift ;;
    --) shift; break ;;
    -*) die "unknown option '$1' ($usage)" ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || die "$usage"
for p in $procs; do
    case $p in '' | *[!0-9]* | 0) die "--procs needs whole numbers >= 1, got '$p'" ;; esac
done
[ -n "$procs" ] || die "--procs needs whole numbers >= 1, got ''"
kinds=()
for dir do
    if [ -f "$dir/bspedupack.h" ] && [ -f "$dir/bspmatch_test.c" ] && [ -f "$dir/runtests" ]; then
        kinds+=(edupack)
    elif [ -f "$dir/test/test.h" ] && [ -f "$dir/CMakeLists.txt" ] && grep -q add_mpi_test "$dir/CMakeLists.txt"; then
        kinds+=(bsponmpi)
    else
        die "'$dir' is neither a BSPedupack 2.0 tree nor a BSPonMPI tree"
    fi
done
bindir=$build/tools/bspcc
[ -x "$bindir/bspcc" ] && [ -x "$bindir/bsprun" ] ||
    die "'$build' is not a built polybsp build directory (no tools/bspcc/bspcc and bsprun)"
available=$(sed -n 's/^engines=\"\(.*\)\"$/\1/p' "$bindir/bspcc")
[ -n "$engines" ] || engines=$(for e in threads mpi; do case " $available " in *" $e "*) echo "$e" ;; esac; done)
for e in $engines; do
    case " $available " in *" $e "*) ;; *) die "engine '$e' is not built (available: $available)" ;; esac
done
mkdir -p "$work" || die "cannot create the work directory '$work'"
work=$(cd -- "$work" && pwd)
case $work/ in "$repo"/*) die "the work directory must be outside the source tree" ;; esac

# Users put bspcc and bsprun first in PATH; so do we.
export PATH="$bindir:$PATH"
export OMPI_MCA_btl="${OMPI_MCA_btl:-self,vader}" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TIMEOUT=${EXTERNAL_CLIENTS_TIMEOUT:-900}
failures=0
summary=$work/summary # lines: SUITE PROGRAM ENGINE P RESULT
: >"$summary"

# result SUITE PROGRAM ENGINE P RESULT [REASON]: one line out, one in the summary.
result() {
    local suite=$1 prog=$2 engine=$3 p=$4 res=$5
    shift 5
    printf '%-5s %s %s %s P=%s%s\n' "$res" "$suite" "$prog" "$engine" "$p" "${1:+: $*}"
    echo "$suite $prog $engine $p $res" >>"$summary"
    [ "$res" != FAIL ] || failures=$((failures + 1))
}

# copy_tree SRC DEST: a fresh copy without the author's build products.
copy_tree() {
    rm -rf "$2"
    mkdir -p "$2"
    (cd "$1" && tar -c --exclude='*.o' --exclude='*.a' --exclude='._*' --exclude=.git .) | tar -x -C "$2"
}

# --- BSPedupack 2.0 -------------------------------------------------------------

# Matrix Market file with a distribution over P parts ("m n nz P", P+1 starts,
# nz triples) rewritten for Q parts: rows in contiguous blocks, nonzeros by row.
redistribute() { # redistribute FILE Q
    awk -v Q="$2" '
    /^%/ { next }
    !m { m = $1; n = $2; nz = $3; P = $4; skip = P + 1; next }
    skip > 0 { skip--; next }
    NF == 3 { k++; row[k] = $1; line[k] = $0 }
    END {
        print m, n, nz, Q
        for (q = 0; q < Q; q++) first[q] = -1
        for (q = 0; q <= Q; q++) start[q] = 0
        for (k = 1; k <= nz; k++) count[int((row[k] - 1) * Q / m)]++
        for (q = 1; q <= Q; q++) start[q] = start[q - 1] + count[q - 1]
        for (q = 0; q <= Q; q++) print start[q]
        for (q = 0; q < Q; q++) for (i = 1; i <= m; i++) if (int((i - 1) * Q / m) == q)
            for (k = 1; k <= nz; k++) if (row[k] == i) print line[k]
    }' "$1"
}

# A vector distribution ("n P", then "i proc" with procs from 1) for Q parts, cyclic.
vector_distribution() { # vector_distribution FILE Q
    awk -v Q="$2" 'NR == 1 { n = $1; print n, Q; for (i = 1; i <= n; i++) print i, (i - 1) % Q + 1 }' "$1"
}

# The input of PROGRAM at P, as runtests's input files but for P (in the run
# directory, next to the generated distribution files). Prints nothing when the
# program cannot run at P.
edupack_input() { # edupack_input PROGRAM P
    local p=$2
    case $1 in
    inprod) printf '%s\n1000\n' "$p" ;;
    bench) printf '%s\n' "$p" ;;
    sort) printf '%s\n1000000\n' "$p" ;;
    lu) # a processor grid M x N with M N = P
        case $p in 1) echo "1 1" ;; 2) echo "1 2" ;; 3) echo "3 1" ;; 4) echo "2 2" ;;
        *) echo "$p 1" ;; esac | tr ' ' '\n'
        echo 1000
        ;;
    fft) # radix 2: BSPedupack's FFT needs P a power of two
        [ $((p & (p - 1))) -eq 0 ] && printf '%s\n1048576\n' "$p" ;;
    matvec) printf '%s\ntest.mtx-P%s\ntest.mtx-v%s\ntest.mtx-u%s\n' "$p" "$p" "$p" "$p" ;;
    match) printf '%s\nchain.mtx-P%s\n0\n' "$p" "$p" ;;
    esac
}

# Checks one program's output against what must hold; prints "ok", or a reason
# why not.
edupack_check() { # edupack_check PROGRAM P OUTPUT
    local p=$2 out=$3
    case $1 in
    inprod) # sum of squares 1..n against the closed form n(n+1)(2n+1)/6
        awk -v P="$p" '
        /sum of squares up to/ { k++; v = $NF; split($(NF - 2), nn, "*"); n = nn[1]
            if (v != n * (n + 1) * (2 * n + 1) / 6) bad = "Proc " $2 " got " v }
        END { if (bad) print bad; else if (k != P) print k " of " P " processes printed a sum"
              else print "ok" }' "$out" ;;
    bench) # the bottom line, for the P asked
        awk -v P="$p" '/^p= / { gsub(",", ""); if ($2 == P && $6 > 0) ok = 1 }
        END { print ok ? "ok" : "no bottom line p= " P " with g > 0" }' "$out" ;;
    sort) # N elements in all, each process sorted (the program aborts otherwise),
          # and each process's first element >= the previous process's last
        awk -v P="$p" '
        /^Using/ { used = $2 }
        /number of elements/ { s = $2 + 0; cnt[s] = $NF; total += $NF; k++ }
        /first element/ { s = $2 + 0; first[s] = $(NF - 3); last[s] = $NF }
        END { if (used != P) { print "used " used " processors, not " P; exit }
              if (k != P || total != 1000000) { print "counts " total " over " k " processes"; exit }
              for (s = 1; s < P; s++) if (cnt[s] > 0 && first[s] < last[s - 1]) { print "process " s " starts below " s - 1 "'"'"'s end"; exit }
              print "ok" }' "$out" ;;
    lu) # the program's own checks, per process: the permutation is the known one
        # (pi(i) = i+1 mod n), and LU holds the known factors (error 0); read with
        # grep -o, as MPI's launcher may cut other lines into these (docs/clients.md)
        grep -o 'Error in pi found by proc=([0-9]*,[0-9]*)\|Maximum error of proc=([0-9]*,[0-9]*) = [0-9.]*' "$out" |
            awk -v P="$p" '/Error in pi/ { bad = $0 }
            /Maximum error/ { k++; if ($NF + 0 > 1e-6) bad = $0 }
            END { if (bad) print bad; else if (k != P) print k " of " P " processes checked"
                  else print "ok" }' ;;
    fft) # the program's own check: forward then backward transform against the input
        awk '/Relative error=/ { e = $NF; seen = 1 }
        END { if (!seen) print "no error printed"; else if (e + 0 > 1e-10) print "relative error " e
              else print "ok" }' "$out" ;;
    matvec) # the program's own check: sum(u) = sum(A) for v = 1
        awk '/checksum error/ { e = $NF; seen = 1 }
        END { if (!seen) print "no checksum printed"; else if (e + 0 > 1e-9) print "checksum error " e
              else print "ok" }' "$out" ;;
    match) # the program's checks, and the known matching: weights 1..9 rise along the
           # chain, so the locally dominant matching is unique: 5 edges, weight 25
        awk '/^Error/ { bad = $0 }
        /Total number of matches/ { m = $NF }
        /Total matching weight/ { w = $NF }
        END { if (bad) print bad; else if (m != 5 || w + 0 != 25) print "matching of " m " edges, weight " w
              else print "ok" }' "$out" ;;
    esac
}

# The part of a checked output that depends neither on P nor on the engine,
# sorted: what every run of the program must print alike.
edupack_answer() { # edupack_answer PROGRAM OUTPUT
    case $1 in
    inprod) grep -o 'is [0-9]*$' "$2" | sort -u ;;
    matvec) sed -n 's/^Proc [0-9]*: \(i=.*u=.*\)/\1/p' "$2" | sort ;; # u = A v
    match) # each edge once, as (smaller, larger): external matches are printed twice
        sed -n 's/^Proc [0-9]*: found match (i,j)= (\([0-9]*\), \([0-9]*\)) with weight=\([0-9.]*\).*/\1 \2 \3/p' "$2" |
            awk '{ if ($1 > $2) { t = $1; $1 = $2; $2 = t } print }' | sort -u ;;
    esac
}

edupack() { # edupack SRC
    local src=$1 e p prog dir input out status check answer
    for e in $engines; do
        dir=$work/bspedupack/$e
        copy_tree "$src" "$dir"
        if ! make -C "$dir" CC="bspcc --mcbsp --engine $e" >"$dir/make.log" 2>&1; then
            result BSPedupack make "$e" - FAIL "make failed (see $dir/make.log)"
            continue
        fi
        result BSPedupack make "$e" - PASS
        # runtests unchanged: bsprun is found in PATH; its inputs ask for up to 4
        # processes, which POLYBSP_NPROCS makes available.
        if [ -z "$quick" ]; then
            if (cd "$dir" && POLYBSP_NPROCS=4 timeout "$TIMEOUT" sh ./runtests >runtests.log 2>&1); then
                status=PASS
                for prog in inprod bench sort lu fft matvec match; do
                    p=$(head -n 1 "$dir/input_$prog")
                    [ "$prog" != lu ] || p=$(($(sed -n 1p "$dir/input_lu") * $(sed -n 2p "$dir/input_lu")))
                    check=$(edupack_check "$prog" "$p" "$dir/output_$prog")
                    case $check in ok) ;; *) status=FAIL; echo "  runtests: $prog: $check" ;; esac
                done
                result BSPedupack runtests "$e" - "$status"
            else
                result BSPedupack runtests "$e" - FAIL "runtests stopped (see $dir/runtests.log)"
            fi
        fi
        for p in $procs; do
            redistribute "$dir/test.mtx-P2" "$p" >"$dir/test.mtx-P$p.gen"
            vector_distribution "$dir/test.mtx-v2" "$p" >"$dir/test.mtx-v$p.gen"
            vector_distribution "$dir/test.mtx-u2" "$p" >"$dir/test.mtx-u$p.gen"
            redistribute "$dir/chain.mtx-P4" "$p" >"$dir/chain.mtx-P$p.gen"
            for f in test.mtx-P test.mtx-v test.mtx-u chain.mtx-P; do
                # The shipped files stay as they are; the others are generated.
                [ -f "$dir/$f$p" ] || mv "$dir/$f$p.gen" "$dir/$f$p"
                rm -f "$dir/$f$p.gen"
            done
            for prog in inprod bench sort lu fft matvec match; do
                [ "$prog" != bench ] || [ -z "$quick" ] || continue
                input=$(edupack_input "$prog" "$p")
                if [ -z "$input" ]; then
                    result BSPedupack "$prog" "$e" "$p" N/A "the program needs P a power of two (MulticoreBSP gives the same wrong transform)"
                    continue
                fi
                out=$dir/$prog-p$p.out
                { (cd "$dir" && printf '%s\n' "$input" | timeout "$TIMEOUT" bsprun -n "$p" "./$prog" >"$out" 2>&1); } 2>/dev/null
                status=$?
                if [ $status -ne 0 ]; then
                    result BSPedupack "$prog" "$e" "$p" FAIL "exit status $status (see $out)"
                    continue
                fi
                check=$(edupack_check "$prog" "$p" "$out")
                case $check in
                ok)
                    # What must not depend on P nor the engine: as the first run's.
                    answer=$work/bspedupack/$prog.answer
                    if [ ! -f "$answer" ]; then
                        edupack_answer "$prog" "$out" >"$answer"
                        result BSPedupack "$prog" "$e" "$p" PASS
                    elif edupack_answer "$prog" "$out" | cmp -s - "$answer"; then
                        result BSPedupack "$prog" "$e" "$p" PASS
                    else
                        result BSPedupack "$prog" "$e" "$p" FAIL "answer differs from the first run's (see $out)"
                    fi
                    ;;
                *) result BSPedupack "$prog" "$e" "$p" FAIL "$check (see $out)" ;;
                esac
            done
        done
    done
    rm -f "$work"/bspedupack/*.answer
}

# --- BSPonMPI's test suite ------------------------------------------------------

# Tests left out, with the reason (they are BSPonMPI's own extensions or need
# more than a test machine has).
bsponmpi_skip() { # bsponmpi_skip TEST: prints the reason, if any
    case $1 in
    bsc_*) echo "uses BSPonMPI's BSC collectives library (bsc.h), an extension" ;;
    init_2) echo "calls MPI itself and starts fewer BSP processes than MPI ranks, a BSPonMPI extension" ;;
    hpput_one_int_max_size_msg) echo "needs several GiB; BSPonMPI runs it only with ENABLE_LARGE_TESTS" ;;
    esac
}

# Tests whose outcome on polybsp differs from BSPonMPI's for a reason that is
# polybsp's documented behaviour, not a fault: reported as KNOWN, with the reason.
bsponmpi_known() { # bsponmpi_known TEST ENGINE: prints the reason, if any
    case $1/$2 in
    init_1/threads) echo "needs each process's own copy of a global; on the threads engine processes share globals (docs/api.md)" ;;
    pop_reg_5/* | pop_reg_6/*) echo "BSPonMPI pops the registration that is NULL on every process; BSPlib pops each process's latest registration of the address, here different ones, and polybsp stops the run" ;;
    send_various_tags_1/*) echo "depends on message order (highest sender first); BSPlib leaves it unspecified, polybsp queues by increasing sender" ;;
    esac
}

# Another call that may rightly report a test's misuse: polybsp sees it earlier.
bsponmpi_also() { # bsponmpi_also TEST
    case $1 in
    push_reg_16) echo "bsp_pop_reg" ;; # process 0 pops NULL, which it never pushed
    esac
}

# Whether a run ended as the test says it must: prints PASS, or what went wrong.
bsponmpi_verdict() { # bsponmpi_verdict TEST STATUS EXPECTED-STOP OUTPUT
    local status=$2 expect=$3 out=$4 msg call
    if grep -q 'TEST FAILED' "$out"; then
        grep -A1 'TEST FAILED' "$out" | tr -s ' \n' ' '
    elif [ -z "$expect" ]; then
        [ "$status" -eq 0 ] && echo PASS || echo "exit status $status: $(grep -m1 . "$out")"
    elif [ "$status" -ne 1 ]; then
        # polybsp stops a misuse with status 1 and one line.
        echo "expected a stop ('$expect'), got exit status $status"
    else
        msg=$(grep -m1 'polybsp\|bsp_' "$out")
        case $expect in
        bsp_*:*)
            # The stop must name a call BSPonMPI's message names ("bsp_sync/bsp_pop_reg: ...").
            for call in $(printf '%s' "${expect%%:*}" | tr '/' ' ') $(bsponmpi_also "$1"); do
                case $msg in *" $call:"*) echo PASS; return ;; esac
            done
            echo "expected a stop in ${expect%%:*} ('$expect'), got '$msg'"
            ;;
        *) # a user's bsp_abort: its message
            grep -qF "$expect" "$out" && echo PASS || echo "expected '$expect', got '$msg'" ;;
        esac
    fi
}

bsponmpi() { # bsponmpi SRC
    local src=$1 dir=$work/bsponmpi tests name p e exe out expect verdict reason
    copy_tree "$src/test" "$dir/test"
    # test.h's two hooks: which outcome the test expects is read from its source.
    printf '#define DLL_PUBLIC\n' >"$dir/test/dllexport.h"
    printf '#include "dllexport.h"\nDLL_PUBLIC void bsp_intern_expect_success(void) {}\nDLL_PUBLIC void bsp_intern_expect_abort(const char *m) { (void)m; }\n' >"$dir/test/hooks.c"
    tests=$(sed -n 's/^[[:space:]]*add_mpi_test([[:space:]]*\([a-z0-9_]*\)[[:space:]]\{1,\}\([0-9]*\)[[:space:]]*).*/\1 \2/p' "$src/CMakeLists.txt")
    tests+=$'\n'$(sed -n 's/^[[:space:]]*add_bsc_test([[:space:]]*\([a-z0-9_]*\)[[:space:]]\{1,\}\([0-9]*\)[[:space:]]*).*/\1 \2/p' "$src/CMakeLists.txt")
    for e in $engines; do
        mkdir -p "$dir/$e"
        while read -r name p; do
            [ -n "$name" ] || continue
            reason=$(bsponmpi_skip "$name")
            if [ -n "$reason" ]; then
                result BSPonMPI "$name" "$e" "$p" N/A "$reason"
                continue
            fi
            exe=$dir/$e/$name
            out=$exe.out
            if ! bspcc --engine "$e" -O1 -I"$dir/test" -o "$exe" "$dir/test/$name.c" "$dir/test/hooks.c" -lm >"$out" 2>&1; then
                result BSPonMPI "$name" "$e" "$p" FAIL "does not compile (see $out)"
                continue
            fi
            # TEST(name, success()) or TEST(name, abort("message")), maybe over lines.
            expect=$(tr '\n' ' ' <"$dir/test/$name.c" |
                sed -n 's/.*TEST([[:space:]]*[a-z0-9_]*[[:space:]]*,[[:space:]]*abort("\(\([^"]\|"[[:space:]]*"\)*\)").*/\1/p' |
                sed 's/"[[:space:]]*"//g')
            { (cd "$dir/$e" && timeout "$TIMEOUT" bsprun -n "$p" "$exe" </dev/null >"$out" 2>&1); } 2>/dev/null
            verdict=$(bsponmpi_verdict "$name" $? "$expect" "$out")
            reason=$(bsponmpi_known "$name" "$e")
            case $verdict in
            PASS) result BSPonMPI "$name" "$e" "$p" PASS ;;
            *) if [ -n "$reason" ]; then
                   result BSPonMPI "$name" "$e" "$p" KNOWN "$reason"
               else
                   result BSPonMPI "$name" "$e" "$p" FAIL "$verdict (see $out)"
               fi ;;
            esac
        done <<<"$tests"
    done
}

# --- all trees, then the summary ------------------------------------------------
echo "# external clients on polybsp $(git -C "$repo" describe --always --dirty 2>/dev/null), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# engines: $(echo $engines); load average $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
for dir do
    src=$(cd -- "$dir" && pwd)
    case ${kinds[$i]} in
    edupack) edupack "$src" ;;
    bsponmpi) bsponmpi "$src" ;;
    esac
    i=$((i + 1))
done
echo
echo "| suite | engine | PASS | FAIL | KNOWN | N/A |"
echo "|---|---|---|---|---|---|"
awk '{ key = $1 " | " $3; seen[key] = 1; n[key, $5]++ }
END { for (k in seen) printf "| %s | %d | %d | %d | %d |\n", k, n[k, "PASS"], n[k, "FAIL"], n[k, "KNOWN"], n[k, "N/A"] }' "$summary" | sort
[ "$failures" -eq 0 ] || { echo "external-clients.sh: $failures checks failed" >&2; exit 1; }
exit 0
