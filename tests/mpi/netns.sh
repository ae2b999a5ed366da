#!/bin/sh
# netns.sh PROGRAM — runs PROGRAM on two MPI ranks in two network namespaces
# joined by a veth pair, Open MPI over TCP only (no shared memory), and checks
# that each rank saw the other's namespace. Exit 77 (skipped) where namespaces
# cannot be made (not root, no iproute2, no permission).
set -u
prog=$1
here=$(cd "$(dirname "$0")" && pwd)
id=$$
ns1=pbsp$id.a ns2=pbsp$id.b
a=10.231.$((id % 250)).1 b=10.231.$((id % 250)).2
tmp=$(mktemp -d) || exit 1
cleanup() {
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

# Open MPI starts its daemon on a "remote host" through this agent: the host is
# one of the two addresses, reached by entering its namespace.
cat >"$tmp/agent" <<AGENT
#!/bin/sh
host=\$1; shift
case \$host in $a) ns=$ns1 ;; $b) ns=$ns2 ;; *) echo "agent: unknown host \$host" >&2; exit 1 ;; esac
exec ip netns exec "\$ns" sh -c "\$*"
AGENT
chmod +x "$tmp/agent"
printf '%s slots=1\n%s slots=1\n' "$a" "$b" >"$tmp/hosts"

OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  ip netns exec "$ns1" "${MPIEXEC:-mpirun}" --hostfile "$tmp/hosts" \
  --mca plm_rsh_agent "$tmp/agent" --mca btl tcp,self \
  --mca btl_tcp_if_include "$a/24" --mca oob_tcp_if_include "$a/24" \
  -np 2 "$prog" >"$tmp/out" 2>&1
status=$?
cat "$tmp/out"
[ "$status" = 0 ] || { echo "netns: the run failed with status $status"; exit 1; }
[ "$(grep -c '^process [01]: namespace' "$tmp/out")" = 2 ] ||
  { echo "netns: expected one line from each of the two processes"; exit 1; }
exit 0
