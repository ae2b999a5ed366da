#!/bin/sh
# library_trace.sh PROGRAM POLYBSP MACHINE: runs PROGRAM traced on 3 processes,
# then `polybsp predict` on the trace it wrote, so the reader is tested on the
# library's own writer; prints predict's output and exits with its status.
set -u
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT
POLYBSP_TRACE=$trace POLYBSP_NPROCS=3 "$1" 1000 >/dev/null || exit 1
"$2" predict --machine "$3" --per-step "$trace"
