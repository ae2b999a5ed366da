#!/bin/sh
# kill_rank.sh PROGRAM — starts PROGRAM on 3 ranks, kills one rank with SIGKILL
# once they run, and checks that the whole job ends within 20 seconds with a
# non-zero status.
set -u
prog=$1
here=$(cd "$(dirname "$0")/.." && pwd)
sh "$here/mpirun.sh" 3 "$prog" >/dev/null 2>&1 &
job=$!
victim=""
for i in $(seq 1 100); do # up to 10 s for the ranks to start
  victim=$(pgrep -f -x "$prog" | tail -n 1)
  [ -n "$victim" ] && break
  sleep 0.1
done
[ -n "$victim" ] || { echo "kill_rank: the ranks did not start"; kill "$job"; exit 1; }
sleep 0.5
kill -9 "$victim"
for i in $(seq 1 200); do # up to 20 s for the job to end
  if ! kill -0 "$job" 2>/dev/null; then
    wait "$job"
    status=$?
    [ "$status" != 0 ] || { echo "kill_rank: the job ended with status 0"; exit 1; }
    echo "kill_rank: the job ended with status $status after a rank was killed"
    exit 0
  fi
  sleep 0.1
done
echo "kill_rank: the job still runs 20 s after a rank was killed"
pkill -9 -f -x "$prog"
kill -9 "$job"
exit 1
