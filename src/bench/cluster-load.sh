#!/usr/bin/env bash
# W1 over HTTP against REPLICAS Eventide replicas in cluster mode on this machine (docs/benchmarks.md,
# "Cluster mode"): starts them on the local Redis and the Kafka at $KAFKA, spreads HttpLoad's
# connections over them, and prints Redis's command counts. Run from the repository root after
#   ./mvnw -B package -DskipTests && ./mvnw -Pbench test-compile
# with a broker running, e.g. ./mvnw -Pbench exec:exec@kafka (it prints its address).
# Usage: KAFKA=localhost:PORT src/bench/cluster-load.sh REPLICAS [EVENTS]
set -euo pipefail
n=${1:-1}; events=${2:-500000}
jar=$(ls target/eventide-*-SNAPSHOT.jar | head -1)
tag="bench$RANDOM"
pids=()
urls=()
for i in $(seq 1 "$n"); do
  port=$((8200 + i))
  java -Xmx1g -jar "$jar" --server.port=$port --spring.profiles.active=cluster \
    --spring.kafka.bootstrap-servers=${KAFKA:-localhost:19092} \
    --eventide.state.key-prefix=$tag --eventide.kafka.namespace=$tag. \
    --eventide.cluster.group=$tag._cluster --eventide.cluster.partitions=12 \
    > /tmp/$tag-$i.log 2>&1 &
  pids+=($!)
  urls+=("http://localhost:$port")
done
trap 'kill ${pids[*]} 2>/dev/null || true' EXIT
for u in "${urls[@]}"; do
  until curl -sf "$u/actuator/health/readiness" >/dev/null; do sleep 1; done
done
redis-cli CONFIG RESETSTAT >/dev/null
list=$(IFS=,; echo "${urls[*]}")
./mvnw -q -Pbench exec:exec@http -Dbench.args="url=$list workload=W1 batch=1000 connections=4 events=$events"
redis-cli INFO commandstats | grep -E 'evalsha|xread|hget' || true
