#!/usr/bin/env bash
# Cluster mode (issue 16): the hot-folder workload of daemon.sh (N photos of 2725×2225 dropped at
# once, 720-px JPEG thumbnails, Q80) through
#   - the plain daemon (2 workers),
#   - cluster mode with 1 node of 2 workers (the same work plus the database: its overhead),
#   - 2 nodes of 1 worker and 3 nodes of 1 worker (the same machine: they share its cores),
# in ROUNDS paired rounds (the plain daemon first in each), and the claim/ack cycles one
# PostgreSQL sustains (`darkroom cluster bench`), from which docs/cluster.md's "nodes per database".
# Starts a PostgreSQL of its own in a temporary folder (as the postgres user when run as root).
# Needs a release build (make bench); nodes scan every SCAN seconds (default 0.25); ROUNDS=0
# measures the claim/ack cycles only.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-200}
ROUNDS=${ROUNDS:-3}
SCAN=${SCAN:-0.25}
source Benchmarks/bench_lib.sh  # $work, $darkroom; the daemon's set-up (daemon_watches)
work=$work/cluster
Benchmarks/photos.sh "${BENCH_DIR:-/tmp/darkroom-bench}/daemon/src" "$N"
src=${BENCH_DIR:-/tmp/darkroom-bench}/daemon/src

# PostgreSQL, stopped on any exit.
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg=$(mktemp -d /tmp/darkroom-bench-pg.XXXXXX)
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[[ $(id -u) -eq 0 ]] && chown postgres "$pg"
as_pg "$pgbin/initdb" -D "$pg/data" -A trust -U darkroom --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
printf "listen_addresses = ''\nunix_socket_directories = '%s'\n" "$pg" >> "$pg/data/postgresql.auto.conf"
as_pg "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w start >/dev/null
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  as_pg "$pgbin/pg_ctl" -D "$pg/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$pg"
}
trap cleanup EXIT
conninfo="host=$pg port=5432 user=darkroom dbname=postgres"
psql_() { "$pgbin/psql" -X -q -A -t -h "$pg" -U darkroom -d postgres -c "$1"; }

now() { date +%s.%N; }

# One round of $1 nodes with $2 workers each ($1 = 0: the plain daemon with $2 workers); prints files/s.
run() {
  local nodes=$1 workers=$2 dir="$work/run"
  pids=()
  rm -rf "$dir"; mkdir -p "$dir/inbox"
  local configs=()
  for ((k = 0; k < (nodes > 0 ? nodes : 1); k++)); do
    {
      echo "workers: $workers"
      echo "log: { level: warning }"
      echo "state_file: $dir/node$k.status.json"
      if ((nodes > 0)); then
        echo "cluster: { database: \"$conninfo\", node: node$k, scan_interval: $SCAN }"
      fi
      daemon_watches
    } > "$dir/node$k.yaml"
    configs+=("$dir/node$k.yaml")
  done
  ((nodes > 0)) && psql_ "TRUNCATE darkroom_jobs, darkroom_nodes" 2>/dev/null || true
  for c in "${configs[@]}"; do "$darkroom" run --config "$c" 2>>"$dir/log" & pids+=($!); done
  sleep 1.5
  cp -r "$src" "$dir/staging"; local t0; t0=$(now); mv "$dir/staging"/* "$dir/inbox/"
  until [[ $(find "$dir/reports" -name '*.json' 2>/dev/null | wc -l) -ge $N ]]; do sleep 0.05; done
  local t1; t1=$(now)
  for p in "${pids[@]}"; do kill -TERM "$p"; wait "$p" || true; done
  pids=()
  awk -v n="$N" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", n / (b - a) }'
}

: > "$work.rounds" 2>/dev/null || { mkdir -p "$(dirname "$work")"; : > "$work.rounds"; }
for ((r = 1; r <= ROUNDS; r++)); do
  # PAIRS_ONLY=1: the plain daemon and 1 node only (the overhead ratio, more rounds for the time).
  plain=$(run 0 2); one=$(run 1 2); two=0; three=0
  [[ ${PAIRS_ONLY:-0} == 1 ]] || { two=$(run 2 1); three=$(run 3 1); }
  echo "$plain $one $two $three" >> "$work.rounds"
  printf 'round %d: plain %s, 1 node %s, 2 nodes %s, 3 nodes %s files/s\n' "$r" "$plain" "$one" "$two" "$three" >&2
done
median() {
  awk -v c="$1" -v d="${2:-0}" '{ print d ? $c / $d : $c }' "$work.rounds" | sort -g |
    awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

cfg=$work/bench.yaml
printf 'cluster: { database: "%s" }\nwatches: [ { path: %s/x, outputs: [ { path: "%s/y/{stem}.png" } ] } ]\n' "$conninfo" "$work" "$work" > "$cfg"
psql_ "TRUNCATE darkroom_jobs, darkroom_nodes" 2>/dev/null || true
if ((ROUNDS > 0)); then
printf '\n%d photos of 2725×2225 dropped at once → 720-px JPEG thumbnails, Q80 (medians of %d paired rounds; scans every %s s)\n' "$N" "$ROUNDS" "$SCAN"
printf '%-34s %9s %12s\n' setup "files/s" "÷ plain"
printf '%-34s %9s %12s\n' "plain daemon, 2 workers" "$(median 1)" "1.00"
printf '%-34s %9s %12s\n' "cluster, 1 node × 2 workers" "$(median 2)" "$(median 2 1)"
awk '{ r = $2 / $1; if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r } END { printf "  1 node ÷ plain, round by round: %.2f–%.2f\n", lo, hi }' "$work.rounds"
if [[ ${PAIRS_ONLY:-0} != 1 ]]; then
printf '%-34s %9s %12s\n' "cluster, 2 nodes × 1 worker" "$(median 3)" "$(median 3 1)"
printf '%-34s %9s %12s\n' "cluster, 3 nodes × 1 worker" "$(median 4)" "$(median 4 1)"
fi
fi
echo
echo "claim/ack cycles (the workers' own statements), on this machine's PostgreSQL:"
for c in 1 2 4 8; do "$darkroom" cluster bench --config "$cfg" --jobs 5000 --clients $c; done
