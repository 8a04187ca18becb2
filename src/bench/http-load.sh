#!/usr/bin/env bash
# HttpLoad over memory and Redis state, one workload after another (docs/benchmarks.md, "Over
# HTTP"): starts the service on each store in turn, runs the driver, and prints the driver's line
# per run (events/s, acks, the SSE probe, the parse reference and the share of it) with the
# service's CPU seconds during the load and, for Redis, the time Redis spent in commit.lua.
# W2 is not among them: its expected drops depend on the watermark each batch meets, which over
# several connections depends on how their requests interleave; run it in process.
# Run from the repository root after
#   ./mvnw -B package -DskipTests && ./mvnw -Pbench test-compile
# WARMUPS runs the load that many times into pipelines of their own first, so that the measured
# run meets a service that has compiled its code (the service CPU printed then covers them too).
# Usage: src/bench/http-load.sh [EVENTS] [WORKLOADS] [STORES] [WARMUPS]
#   (defaults: 2000000 "W1 W3 W4" "memory redis" 0)
set -euo pipefail
events=${1:-2000000}; workloads=${2:-W1 W3 W4}; stores=${3:-memory redis}; warmups=${4:-0}
jar=$(ls target/eventide-*-SNAPSHOT.jar | head -1)
port=8099
for store in $stores; do
  for w in $workloads; do
    args=(--server.port=$port)
    prefix=bench$RANDOM
    if [ "$store" = redis ]; then
      args+=(--spring.profiles.active=redis --eventide.state.key-prefix=$prefix)
    fi
    java -Xmx2g -jar "$jar" "${args[@]}" > /tmp/http-load-$store-$w.log 2>&1 &
    pid=$!
    until curl -sf "localhost:$port/actuator/health/readiness" >/dev/null; do sleep 0.5; done
    if [ "$store" = redis ]; then redis-cli CONFIG RESETSTAT >/dev/null; fi
    before=$(ps -o cputime= -p $pid)
    line=$(./mvnw -q -Pbench exec:exec@http \
      -Dbench.args="url=http://localhost:$port workload=$w batch=1000 connections=4 events=$events warmups=$warmups" \
      | grep '^| W')
    after=$(ps -o cputime= -p $pid)
    script=""
    if [ "$store" = redis ]; then
      script=$(redis-cli INFO commandstats | grep -o 'cmdstat_evalsha:calls=[0-9]*,usec=[0-9]*' || true)
    fi
    kill $pid; wait $pid 2>/dev/null || true
    if [ "$store" = redis ]; then
      # The run's state, a few hundred MB: left behind, it would slow the runs after it.
      redis-cli --scan --pattern "$prefix:*" | xargs -r -n 500 redis-cli unlink >/dev/null
    fi
    echo "$store $line service CPU ${before// /} → ${after// /} $script"
  done
done
