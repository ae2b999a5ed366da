#!/bin/sh
# netns.sh PROGRAM — runs PROGRAM on two MPI ranks in two network namespaces
# joined by a veth pair, over TCP only (no shared memory), and checks that each
# rank saw the other's namespace. Starts it with $MPIEXEC (else mpirun), Open
# MPI's or MPICH's (hydra). Exit 77 (skipped) where namespaces cannot be made
# (not root, no iproute2, no permission) or the launcher is neither.
#
# Each launch has 40 s. Under MPICH 4.0 with UCX 1.13 over TCP, about one job in
# 30 on a loaded machine prints everything and then hangs in MPI_Finalize: one
# rank has closed its UCX endpoints and waits in the launcher's barrier, the
# other waits for that rank to answer its own close (UCX's TCP teardown,
# openucx/ucx#8738; docs/mpi.md). Such a job is run once more; a second hang,
# or any other failure, fails the test.
set -u
prog=$1
id=$$
ns1=pbsp$id.a ns2=pbsp$id.b
a=10.231.$((id % 250)).1 b=10.231.$((id % 250)).2
tmp=$(mktemp -d) || exit 1
# Kills what a timed-out launch left running inside the namespaces.
kill_leftovers() {
  for ns in "$ns1" "$ns2"; do
    pids=$(ip netns pids "$ns" 2>/dev/null)
    # shellcheck disable=SC2086 # one argument per process
    [ -z "$pids" ] || kill -9 $pids 2>/dev/null
  done
}
cleanup() {
  kill_leftovers
  ip netns del "$ns1" 2>/dev/null
  ip netns del "$ns2" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT HUP INT TERM

skip() { echo "SKIPPED: $1"; exit 77; }
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
command -v ip >/dev/null || skip "no ip command (iproute2)"
ip netns add "$ns1" 2>/dev/null && ip netns add "$ns2" 2>/dev/null ||
  skip "cannot create network namespaces here"
ip link add "v$id.a" type veth peer name "v$id.b" 2>/dev/null || skip "cannot create a veth pair"
ip link set "v$id.a" netns "$ns1" && ip link set "v$id.b" netns "$ns2" &&
  ip -n "$ns1" addr add "$a/24" dev "v$id.a" && ip -n "$ns2" addr add "$b/24" dev "v$id.b" &&
  ip -n "$ns1" link set "v$id.a" up && ip -n "$ns2" link set "v$id.b" up &&
  ip -n "$ns1" link set lo up && ip -n "$ns2" link set lo up || skip "cannot configure the veth pair"

# The launcher starts its daemon on a "remote host" through this agent in place
# of ssh: the host is one of the two addresses, reached by entering its
# namespace. Options before the host are ssh's (hydra passes -x).
cat >"$tmp/agent" <<AGENT
#!/bin/sh
while [ \$# -gt 0 ]; do case \$1 in -*) shift ;; *) break ;; esac; done
host=\$1; shift
case \$host in $a) ns=$ns1 ;; $b) ns=$ns2 ;; *) echo "agent: unknown host \$host" >&2; exit 1 ;; esac
exec ip netns exec "\$ns" sh -c "\$*"
AGENT
chmod +x "$tmp/agent"

mpiexec=${MPIEXEC:-mpirun}
case $("$mpiexec" --version 2>&1) in
    *"Open MPI"* | *OpenRTE*) flavour=openmpi ;;
    *HYDRA*) flavour=hydra ;;
    *) skip "$mpiexec is neither Open MPI's nor MPICH's (hydra) launcher" ;;
esac

# launch: one job, its output in $tmp/out; the launcher's status, 124 or 137
# (killed 5 s later) when it timed out.
launch() {
    case $flavour in
    openmpi)
        printf '%s slots=1\n%s slots=1\n' "$a" "$b" >"$tmp/hosts"
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            timeout -k 5 40 ip netns exec "$ns1" "$mpiexec" --hostfile "$tmp/hosts" \
            --mca plm_rsh_agent "$tmp/agent" --mca btl tcp,self \
            --mca btl_tcp_if_include "$a/24" --mca oob_tcp_if_include "$a/24" \
            -np 2 "$prog" >"$tmp/out" 2>&1
        ;;
    hydra)
        # -iface: the proxies call mpiexec back on the veth's address.
        # MPIR_CVAR_NOLOCAL: no shared memory between the ranks (both hosts are
        # one machine); UCX_TLS: Debian's MPICH moves data by UCX, here TCP only.
        printf '%s:1\n%s:1\n' "$a" "$b" >"$tmp/hosts"
        MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self \
            timeout -k 5 40 ip netns exec "$ns1" "$mpiexec" -f "$tmp/hosts" \
            -launcher ssh -launcher-exec "$tmp/agent" -iface "v$id.a" \
            -np 2 "$prog" >"$tmp/out" 2>&1
        ;;
    esac
}
lines() { grep -c '^process [01]: namespace' "$tmp/out"; }
timed_out() { [ "$status" = 124 ] || [ "$status" = 137 ]; }

launch
status=$?
if timed_out && [ "$(lines)" = 2 ]; then
    cat "$tmp/out"
    echo "netns: both processes finished, then the job hung in MPI_Finalize (MPI's TCP teardown); once more"
    kill_leftovers
    launch
    status=$?
fi
cat "$tmp/out"
! timed_out || { echo "netns: the run did not end within 40 s"; exit 1; }
[ "$status" = 0 ] || { echo "netns: the run failed with status $status"; exit 1; }
[ "$(lines)" = 2 ] ||
  { echo "netns: expected one line from each of the two processes"; exit 1; }
exit 0
