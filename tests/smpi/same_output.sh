#!/bin/sh
# same_output.sh POLYBSP THREADS_PROG SMPI_PROG PATTERN [ARGS...]: runs the
# program at P = 4 on the threads engine and its smpi build on the shipped
# fattree-64, and checks that the lines matching PATTERN (grep -E) are there
# and the same on both: the tuning suite's smpi builds (SUITE=tuning
# bench/validate.sh) compute what the threads builds compute.
tool=$1 threads=$2 smpi=$3 pattern=$4
shift 4
here=$(POLYBSP_NPROCS=4 "$threads" "$@" | grep -E "$pattern") || { echo "threads: no line matches '$pattern'"; exit 1; }
there=$("$tool" run --engine smpi --platform fattree-64 -p 4 "$smpi" "$@" | grep -E "$pattern") ||
    { echo "smpi: no line matches '$pattern'"; exit 1; }
[ "$here" = "$there" ] || { printf 'threads: %s\nsmpi: %s\n' "$here" "$there"; exit 1; }
echo "$here"
