#!/usr/bin/env bash
# One W1 run over HTTP against a jar, with the service's and the local Redis's CPU per event and
# what Redis spent per command (docs/benchmarks.md#redis-time-per-event-and-what-the-results-index-costs-it-2026-12-07-1200-utc).
#   docs/bench/redis-ab.sh JAR memory|redis [SCALE] [RUNS]
# Uses the driver that ../shared/bench/compare builds (run compare once first). Prints a line per run;
# leaves Redis's INFO commandstats of the last run in /tmp/redis-ab-commandstats-<mode>.txt.
set -u
jar=$1; mode=$2; scale=${3:-1}; runs=${4:-1}
drv=${BENCH_WORK:-/tmp/eventide-bench}/peers/eventide-http/run
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
prefix=ab$RANDOM
args=(); [[ $mode == redis ]] && args=(--spring.profiles.active=redis --eventide.state.key-prefix=$prefix.r)
java -Xmx2g -jar "$jar" --server.port="$port" "${args[@]}" > "/tmp/redis-ab-$mode.log" 2>&1 & svc=$!
trap 'kill $svc 2>/dev/null; redis-cli --scan --pattern "$prefix*" | xargs -r redis-cli del >/dev/null' EXIT
for _ in $(seq 120); do curl -fs "http://127.0.0.1:$port/actuator/health/readiness" >/dev/null && break; sleep 1; done
rpid=$(pgrep -x redis-server | head -1)
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
n=$(python3 -c "print(int(2000000*$scale))")
per_event() { python3 -c "print(round(($2-$1)*1e4/$n,2))"; }   # ticks of 10 ms -> us per event
for r in $(seq "$runs"); do
  redis-cli config resetstat >/dev/null
  c0=$(cpu $svc); r0=$(cpu "$rpid")
  "$drv" --base "http://127.0.0.1:$port" --workload W1 --scale "$scale" --sources --timeout-s 900 \
    --quiet-ms 10000 --pipeline "w1r$r" > /tmp/redis-ab-out.txt 2>/tmp/redis-ab-err.txt; rc=$?
  c1=$(cpu $svc); r1=$(cpu "$rpid")
  redis-cli info commandstats > "/tmp/redis-ab-commandstats-$mode.txt"
  echo "$(basename "$jar") $mode run $r rc=$rc $(grep -o 'events_per_s=[0-9]*' /tmp/redis-ab-out.txt | head -1)" \
    "service_us=$(per_event "$c0" "$c1") redis_us=$(per_event "$r0" "$r1")" \
    "$(grep -o 'p99_ack_ms=[0-9.]*' /tmp/redis-ab-out.txt | head -1) load=$(cut -d' ' -f1-3 /proc/loadavg)"
done
