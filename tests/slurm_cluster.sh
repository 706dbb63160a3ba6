#!/bin/bash
# slurm_cluster.sh, sourced: a one-node SLURM cluster on localhost for tests, without systemd.
#   slurm_cluster_missing         prints why no cluster can be started here (not root, a program
#                                 missing); prints nothing when one can
#   slurm_cluster_start DIR       starts munged, slurmctld and slurmd with everything (keys,
#                                 slurm.conf, state, logs, sockets) under the empty folder DIR and
#                                 exports SLURM_CONF, so that sbatch, squeue, scancel and scontrol
#                                 talk to this cluster; returns when the node accepts jobs
#   slurm_cluster_stop            cancels every job of the cluster, waits for them to end, stops
#                                 the three daemons by their process ids (safe to call twice)
# The node has the machine's CPUs and two GPUs of SLURM's bookkeeping only (their device files are
# /dev/null and /dev/zero), so that job scripts asking for GPUs are accepted; jobs run as the
# submitting user (root). Ports are chosen free at random below the kernel's ephemeral range, and
# munged has its own socket and key, so clusters of several test runs on one machine do not meet.
slurm_cluster_dir=""
PATH=$PATH:/usr/sbin:/sbin # the daemons

slurm_cluster_missing() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "not root (munged, slurmctld and slurmd are started as root)"
    return
  fi
  local p missing=()
  for p in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol sinfo runuser; do
    command -v "$p" > /dev/null 2>&1 || missing+=("$p")
  done
  [ "${#missing[@]}" -eq 0 ] ||
    echo "${missing[*]} not installed (Debian: apt-get install slurm-wlm munge; scripts/install-deps.sh)"
}

# _slurm_port_free PORT: nothing listens on 127.0.0.1:PORT
_slurm_port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }

# _slurm_wait SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds; fails after SECONDS
_slurm_wait() {
  local end=$((SECONDS + $1))
  shift
  until "$@"; do
    [ "$SECONDS" -lt "$end" ] || return 1
    sleep 0.1
  done
}

_slurm_pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2> /dev/null; }

_slurm_node_idle() { [ "$(sinfo -h -o %t 2> /dev/null)" = idle ]; }

_slurm_cluster_fail() {
  echo "slurm_cluster_start: $*" >&2
  local log
  for log in "$slurm_cluster_dir"/log/*.log "$slurm_cluster_dir"/munge/munged.log; do
    [ -f "$log" ] && { echo "--- $log" >&2; tail -n 20 "$log" >&2; }
  done
  slurm_cluster_stop
  return 1
}

slurm_cluster_start() {
  local d=$1 host port node
  slurm_cluster_dir=$d
  host=$(hostname -s)
  chmod 755 "$d" # munged wants its socket's folders searchable by everyone
  mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log" "$d/dev"

  # munged as the munge user (as root it refuses), with its own key and socket
  chown munge:munge "$d/munge"
  runuser -u munge -- mungekey --create --keyfile="$d/munge/munge.key" ||
    _slurm_cluster_fail "mungekey failed" || return 1
  runuser -u munge -- munged --origin=127.0.0.1 --socket="$d/munge/socket" --key-file="$d/munge/munge.key" \
    --pid-file="$d/munge/munged.pid" --seed-file="$d/munge/seed" --log-file="$d/munge/munged.log" ||
    _slurm_cluster_fail "munged did not start" || return 1
  _slurm_wait 10 test -S "$d/munge/socket" || _slurm_cluster_fail "munged made no socket" || return 1

  # below the kernel's ephemeral range, where an outgoing connection of a test running beside
  # this one (MPI, srun) may hold a port that nothing listens on
  local ephemeral
  read -r ephemeral _ < /proc/sys/net/ipv4/ip_local_port_range 2> /dev/null || ephemeral=32768
  [ "$ephemeral" -gt 11000 ] || ephemeral=32768
  for _ in $(seq 50); do
    port=$((10000 + RANDOM % (ephemeral - 10002)))
    _slurm_port_free "$port" && _slurm_port_free $((port + 1)) && break
  done
  ln -sf /dev/null "$d/dev/gpu0"
  ln -sf /dev/zero "$d/dev/gpu1"
  # the node as slurmd sees it (CPUs, sockets, cores, threads), a small memory, two GPUs
  node=$(slurmd -C | head -n 1 | sed -e 's/ RealMemory=[0-9]*//' -e 's/ Boards=[0-9]*//' \
    -e 's/SocketsPerBoard=/Sockets=/')
  cat > "$d/slurm.conf" << EOF
ClusterName=gaugefix-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge/socket,cred_expire=10
CredType=cred/munge
MpiDefault=pmix
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_interval=1
MailProg=/bin/true
ReturnToService=2
MinJobAge=3600
KillWait=10
SlurmdParameters=config_overrides
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
GresTypes=gpu
$node NodeAddr=127.0.0.1 RealMemory=1000 Gres=gpu:2
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  cat > "$d/gres.conf" << EOF
AutoDetect=off
NodeName=$host Name=gpu File=$d/dev/gpu[0-1]
EOF
  export SLURM_CONF=$d/slurm.conf
  slurmctld -f "$SLURM_CONF" || _slurm_cluster_fail "slurmctld did not start" || return 1
  slurmd -f "$SLURM_CONF" || _slurm_cluster_fail "slurmd did not start" || return 1
  _slurm_wait 10 _slurm_pid_alive "$d/slurmctld.pid" && _slurm_wait 10 _slurm_pid_alive "$d/slurmd.pid" ||
    _slurm_cluster_fail "slurmctld or slurmd ended" || return 1
  _slurm_wait 30 _slurm_node_idle ||
    _slurm_cluster_fail "the node is not idle after 30 s: $(sinfo -h -o '%t %E' 2>&1)" || return 1
}

slurm_cluster_stop() {
  local d=$slurm_cluster_dir pidfile pid
  [ -n "$d" ] || return 0
  slurm_cluster_dir=""
  if _slurm_pid_alive "$d/slurmctld.pid"; then
    scancel --quiet --user=root 2> /dev/null || true
    _slurm_wait 30 test -z "$(squeue -h 2> /dev/null)" || echo "slurm_cluster_stop: jobs still running" >&2
  fi
  for pidfile in "$d/slurmd.pid" "$d/slurmctld.pid" "$d/munge/munged.pid"; do
    _slurm_pid_alive "$pidfile" || continue
    pid=$(cat "$pidfile")
    kill "$pid"
    _slurm_wait 10 eval "! kill -0 $pid 2> /dev/null" || kill -KILL "$pid" 2> /dev/null || true
  done
}
