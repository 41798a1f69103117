#!/usr/bin/env bash
# farm_slurm.sh - the SLURM launch files of config/ on a real one-node
# cluster (issue 22, point 3; docs/cluster.md): munged, slurmctld and
# slurmd started here with a generated slurm.conf (private ports, state in
# a temporary directory); config/mutfarm-campaign.sbatch runs a campaign
# of a bundled model to completion (coordinator in the batch step, a
# worker per task by srun, the job ends with the campaign), and
# config/mutfarm-workers.sbatch (a job array) adds a worker to a running
# campaign. Skipped (77) only where the daemons cannot start: not root,
# Debian's slurm-wlm or munge not installed, or they do not come up.
. "$(dirname "$0")/farm_common.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)

skip() {
    echo "$TEST_NAME: skipped: $*"
    exit 77
}
[ "$(id -u)" = 0 ] || skip "slurmd must run as root here (uid $(id -u))"
for t in munged munge slurmctld slurmd sbatch squeue sinfo; do
    command -v $t >/dev/null || skip "$t is not installed (apt-get install slurm-wlm munge)"
done

S=$WORK/slurm
mkdir -p "$S/state" "$S/spool" "$S/munge"
chmod 711 "$WORK" "$S"
chmod 700 "$S/munge"
head -c 1024 /dev/urandom >"$S/munge/munge.key"
chmod 400 "$S/munge/munge.key"
stop_daemons() {
    local f p
    for f in "$S/slurmd.pid" "$S/slurmctld.pid" "$S/munge/pid"; do
        [ -f "$f" ] || continue
        p=$(cat "$f")
        kill "$p" 2>/dev/null
        for _ in $(seq 100); do # gone before their files are removed
            kill -0 "$p" 2>/dev/null || break
            sleep 0.05
        done
        kill -9 "$p" 2>/dev/null
    done
}
trap 'stop_daemons; cleanup' EXIT
munged -f --key-file="$S/munge/munge.key" --socket="$S/munge/sock" \
    --pid-file="$S/munge/pid" --log-file="$S/munge/log" \
    --seed-file="$S/munge/seed" 2>"$S/munged.err" ||
    skip "munged does not start: $(tail -2 "$S/munged.err" "$S/munge/log" 2>/dev/null)"

host=$(hostname -s)
cat >"$S/slurm.conf" <<EOF2
ClusterName=mftest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/sock
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
PlugStackConfig=/dev/null
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF2
export SLURM_CONF=$S/slurm.conf
slurmctld -f "$SLURM_CONF" -i 2>"$S/ctld.err" ||
    skip "slurmctld does not start: $(tail -2 "$S/ctld.err" "$S/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" 2>"$S/slurmd.err" ||
    skip "slurmd does not start: $(tail -2 "$S/slurmd.err" "$S/slurmd.log" 2>/dev/null)"
idle() { sinfo -h -o %t 2>/dev/null | grep -q idle; }
wait_for 30 idle || skip "the node never became idle: $(sinfo 2>&1 | tail -2); $(tail -3 "$S/slurmd.log")"
ok "a one-node SLURM cluster is up ($(nproc) CPUs)"

# Dies with the test: a job left queued or running is cancelled.
trap 'scancel --quiet --user root 2>/dev/null; stop_daemons; cleanup' EXIT
cp "$MODEL" "$WORK/beverage.smv"
export MUTFARM=$MF_BIN MUTFARM_CONFIG=$CONF
gone() { ! squeue -h -j "$1" 2>/dev/null | grep -q .; }
done_in() { campaign_done "$1" 2>/dev/null; } # the store may not exist yet

# 1: a campaign through the sbatch file, to completion.
ntasks=$(($(nproc) < 2 ? 1 : 2))
job=$(sbatch --parsable --ntasks=$ntasks --chdir="$WORK" --output="$WORK/job-%j.out" \
    "$ROOT/config/mutfarm-campaign.sbatch" "$WORK/beverage.smv" "$WORK/s.db" \
    --bound 2 --operators "$OPS_SMALL" 2>"$WORK/sbatch.err")
[ -n "$job" ] && ok "sbatch: job $job" || fail "sbatch: $(cat "$WORK/sbatch.err")"
if wait_for 180 done_in "$WORK/s.db" && wait_for 60 gone "$job"; then
    ok "the campaign completed in the store and job $job ended with it"
else
    fail "job $job: $(squeue 2>&1 | tail -2); $(tail -5 "$WORK/job-$job.out" 2>/dev/null)"
fi
grep -q 'mutfarm-campaign: coordinator exit 0' "$WORK/job-$job.out" &&
    ok "the job's coordinator exited 0" || fail "job output: $(tail -5 "$WORK/job-$job.out")"
n=$(grep -c 'worker .* joined' "$WORK/job-$job.out")
[ "$n" = $ntasks ] && ok "$n workers by srun, one per task" || fail "$n workers joined, expected $ntasks"
check_store "$WORK/s.db"
"$MF_BIN" run "$MODEL" --db "$WORK/u.db" --workers 1 --bound 2 --operators "$OPS_SMALL" \
    --config "$CONF" >/dev/null 2>&1
cmp -s <(verdict_set "$WORK/s.db") <(verdict_set "$WORK/u.db") &&
    ok "verdicts equal a local run's" || fail "verdicts differ from a local run's"

# 2: workers added by the job array to a running campaign.
export MF_TEST_MUTANT_MS=300
job=$(sbatch --parsable --ntasks=1 --chdir="$WORK" --output="$WORK/job-%j.out" \
    "$ROOT/config/mutfarm-campaign.sbatch" "$WORK/beverage.smv" "$WORK/a.db" \
    --bound 2 --operators "$OPS_SMALL" 2>"$WORK/sbatch.err")
has_endpoint() { [ -s "$WORK/mutfarm-$job.endpoint" ]; }
if wait_for 60 has_endpoint; then
    ep=$(cat "$WORK/mutfarm-$job.endpoint")
    ok "job $job wrote its coordinator's endpoint $ep"
    arr=$(sbatch --parsable --array=1-1 --cpus-per-task=1 --chdir="$WORK" \
        --output="$WORK/arr-%A_%a.out" "$ROOT/config/mutfarm-workers.sbatch" "$ep" 2>"$WORK/sbatch.err")
    [ -n "$arr" ] && ok "job array $arr submitted" || fail "sbatch array: $(cat "$WORK/sbatch.err")"
    if wait_for 240 done_in "$WORK/a.db" && wait_for 60 gone "$job" && wait_for 60 gone "$arr"; then
        ok "the campaign completed; both jobs ended"
    else
        fail "jobs $job/$arr: $(squeue 2>&1 | tail -3)"
    fi
    n=$(q "$WORK/a.db" "SELECT count(DISTINCT worker_id) FROM verdicts")
    [ "$n" = 2 ] && ok "verdicts from 2 workers: the array's worker joined the running campaign" ||
        fail "verdicts from $n worker(s): $(cat "$WORK"/arr-*.out 2>/dev/null | tail -3)"
    check_store "$WORK/a.db"
else
    fail "job $job wrote no endpoint: $(tail -5 "$WORK/job-$job.out" 2>/dev/null)"
fi
finish
