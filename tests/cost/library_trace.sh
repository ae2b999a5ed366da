#!/bin/sh
# library_trace.sh NPROCS POLYBSP MACHINE PROGRAM [ARG...]: runs PROGRAM traced on
# NPROCS processes, then `polybsp predict` (all models, per superstep) on the
# trace it wrote, so the reader and the models are tested on the library's own
# writer. Prints predict's output; fails when predict does or when some model
# could not be evaluated (n/a): MACHINE has every model's parameters.
set -u
nprocs=$1 polybsp=$2 machine=$3
shift 3
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT
POLYBSP_TRACE=$trace POLYBSP_NPROCS=$nprocs "$@" >/dev/null || exit 1
out=$("$polybsp" predict --explain --machine "$machine" --per-step "$trace") || exit 1
printf '%s\n' "$out"
if printf '%s\n' "$out" | grep -qw 'n/a'; then
    echo "library_trace.sh: a model is n/a on this trace"
    exit 1
fi
