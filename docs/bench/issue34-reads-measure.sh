#!/bin/bash
# Redis time per filtered /results read at 30 000 results, results.lua before issue 34 (91acd7a)
# and now, on the same keys, and /windows sizes at 30 000 open keys. Run from the repository with
# Eventide (redis profile) on $APP, its own Redis on $RP, filled by issue34-reads-populate.py
# (docs/benchmarks.md#filtered-results-and-open-windows-issue-34).
set -e
APP=${APP:-http://127.0.0.1:18341}
RP=${RP:-6391}
R="redis-cli -p $RP"
NEW=src/main/resources/redis/results.lua
OLD=$(mktemp)
git show 91acd7a:src/main/resources/redis/results.lua > "$OLD"
P='eventide:{m}:'
stat() { $R info commandstats | grep "^cmdstat_$1:" ; }
run() { # label, script, n, args...
  local label=$1 script=$2 n=$3; shift 3
  $R config resetstat >/dev/null
  for i in $(seq $n); do $R --eval $script "$@" >/dev/null; done
  echo "$label: $(stat eval)"
}
ORDER="${P}results:order"; RES="${P}results"; OFKEY="${P}results:key:k7"; SPAN="${P}results:span"
FROM=$(( 1767225600000 + 299*60000 ))
echo "results: $($R zcard $ORDER)"
run "old key=k7 limit=1" $OLD 50 "$ORDER" "$RES" , '' 0 k7 -9223372036854775 9223372036854775 1
run "new key=k7 limit=1" $NEW 50 "$ORDER" "$RES" "$OFKEY" "$SPAN" , '' 0 =k7 '' 9223372036854775 1
run "old from=last minute limit=1" $OLD 50 "$ORDER" "$RES" , '' 0 '' $FROM 9223372036854775 1
run "new from=last minute limit=1" $NEW 50 "$ORDER" "$RES" "$OFKEY" "$SPAN" , '' 0 '' $FROM 9223372036854775 1
run "old key=k7 from=last minute" $OLD 50 "$ORDER" "$RES" , '' 0 k7 $FROM 9223372036854775 1000
run "new key=k7 from=last minute" $NEW 50 "$ORDER" "$RES" "$OFKEY" "$SPAN" , '' 0 =k7 $FROM 9223372036854775 1000
# Through HTTP (EVALSHA of the new script).
$R config resetstat >/dev/null
for i in $(seq 50); do curl -s "$APP/pipelines/m/results?key=k7&limit=1" >/dev/null; done
echo "http key=k7 limit=1: $(stat evalsha)"
$R config resetstat >/dev/null
for i in $(seq 50); do curl -s "$APP/pipelines/m/results?from=$FROM&limit=1" >/dev/null; done
echo "http from=last minute limit=1: $(stat evalsha)"
echo "windows default page bytes: $(curl -s "$APP/pipelines/w/windows" | wc -c)"
total=0; pages=0; after=""
while :; do
  body=$(curl -s "$APP/pipelines/w/windows?limit=1000${after:+&after=$after}")
  total=$(( total + ${#body} )); pages=$((pages+1))
  after=$(printf '%s' "$body" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("next",""))')
  [ -z "$after" ] && break
done
echo "windows all pages of 1000: $pages pages, $total bytes"
