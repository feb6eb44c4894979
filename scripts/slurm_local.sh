#!/usr/bin/env bash
# A one-node Slurm cluster on localhost for the `slurm` ctest label: munged, slurmctld and slurmd
# with every state, spool, log and pid file under DIR, on ports of their own (16817/16818) so a
# real cluster on the machine is not touched. Needs root and `scripts/setup.sh --slurm`.
# Usage: scripts/slurm_local.sh start DIR   (prints `export SLURM_CONF=DIR/slurm.conf`)
#        scripts/slurm_local.sh stop DIR
set -euo pipefail
cmd=${1:?start|stop}
dir=$(mkdir -p "${2:?DIR}" && cd "$2" && pwd)
conf=$dir/slurm.conf
if [ "$cmd" = stop ]; then
  # Only the daemons this script started, by their pid files.
  pids=()
  for p in slurmd slurmctld; do
    [ -f "$dir/$p.pid" ] && pids+=("$(cat "$dir/$p.pid")")
  done
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  # slurmctld saves its state before it exits: wait, so the next start finds its ports free.
  for _ in $(seq 30); do
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && exit 0
    sleep 0.5
  done
  exit 0
fi
# munge: the package's key; start the daemon unless one already runs.
if ! pgrep -x munged >/dev/null; then
  mkdir -p /run/munge && chown munge:munge /run/munge
  if id munge >/dev/null 2>&1; then runuser -u munge -- /usr/sbin/munged; else /usr/sbin/munged --force; fi
fi
mkdir -p "$dir/state" "$dir/spool"
cat > "$conf" <<EOF
ClusterName=wormnet-test
SlurmctldHost=localhost
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
/usr/sbin/slurmctld -f "$conf" -i
/usr/sbin/slurmd -f "$conf" -N localhost
# Ready when the node is idle (slurmd registered with the controller).
for _ in $(seq 60); do
  if sinfo -h -N -o %t 2>/dev/null | grep -qx idle; then
    echo "export SLURM_CONF=$conf"
    exit 0
  fi
  sleep 1
done
echo "error: the local Slurm node did not come up; see $dir/slurmctld.log and $dir/slurmd.log" >&2
exit 1
