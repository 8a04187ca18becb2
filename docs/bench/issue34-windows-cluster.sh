#!/bin/bash
# GET /pipelines/w/windows (a page of 100, and one from the middle) in cluster mode with 30 000
# open keys over 12 partitions: what one read costs Redis (the commands it calls, from INFO
# commandstats), the bytes Redis sends for it (INFO stats) and its time at the client.
# One replica: JAR on APP's port, its own Redis on RP, a Kafka at KAFKA (e.g. the bench's
# `./mvnw -Pbench test-compile exec:exec@kafka`). FILL=1 defines and fills pipeline w first.
# (docs/benchmarks.md#open-windows-in-cluster-mode-issue-34)
set -e
JAR=${JAR:?the service jar}
PORT=${PORT:-18342}
APP=http://127.0.0.1:$PORT
RP=${RP:-6392}
KAFKA=${KAFKA:?Kafka bootstrap servers}
READS=${READS:-20}
R="redis-cli -p $RP"

java -jar "$JAR" --server.port="$PORT" --eventide.state.store=redis \
  --spring.data.redis.url=redis://127.0.0.1:"$RP" --eventide.kafka.enabled=true \
  --spring.kafka.bootstrap-servers="$KAFKA" --eventide.kafka.namespace=w34. \
  --eventide.cluster.enabled=true --eventide.cluster.group=w34 >/tmp/issue34-windows.log 2>&1 &
SERVICE=$!
trap 'kill $SERVICE' EXIT
until curl -sf "$APP/actuator/health/readiness" >/dev/null; do sleep 1; done

if [ "$FILL" = 1 ]; then
  python3 - "$APP" <<'EOF'
import json, sys, urllib.request
app = sys.argv[1]
def send(method, path, body):
    req = urllib.request.Request(app + path, data=json.dumps(body).encode(), method=method,
                                 headers={"Content-Type": "application/json"})
    return urllib.request.urlopen(req).read()
send("PUT", "/pipelines/w", {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT24H",
     "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
     "aggregate": {"type": "sum"}, "watermark": {"maxOutOfOrderness": "P365D"}})
events = [{"key": "k%d" % k, "timestamp": 1767225600000 + 30000, "value": 1} for k in range(30000)]
for i in range(0, len(events), 2000):
    send("POST", "/pipelines/w/events?wait=applied", events[i:i + 2000])
EOF
fi
until [ "$(curl -s "$APP/pipelines/w/windows?limit=1000" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["windows"]))')" = 1000 ]; do sleep 1; done
MIDDLE=$(curl -s "$APP/pipelines/w/windows?limit=1000" | python3 -c 'import json,sys; print(json.load(sys.stdin)["next"])')

reads() { # label, path
  $R config resetstat >/dev/null
  local out0 ms
  out0=$($R info stats | grep '^total_net_output_bytes:' | cut -d: -f2 | tr -d '\r')
  ms=$( { for i in $(seq "$READS"); do curl -s -o /dev/null -w '%{time_total}\n' "$APP$2"; done; } \
    | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] * 1000}')
  local out1
  out1=$($R info stats | grep '^total_net_output_bytes:' | cut -d: -f2 | tr -d '\r')
  echo "$1: median ${ms} ms at the client, $(( (out1 - out0) / READS )) bytes from Redis per read"
  $R info commandstats | grep -E '^cmdstat_(hscan|zscan|hget|hmget|zrange|evalsha):' \
    | sed "s/^/  $READS reads: /"
}
reads "windows, first page of 100" "/pipelines/w/windows"
reads "windows, 100 after the 1000th" "/pipelines/w/windows?after=$MIDDLE"
