#!/usr/bin/env python3
"""What reading events as CloudEvents costs the service per event, beside plain NDJSON.

    docs/bench/cloudevents-cost.py BASE_URL SERVICE_PID [EVENTS] [ROUNDS]

Posts the same W1-shaped events (docs/benchmarks.md: 10 000 keys, one-minute windows over an hour,
values 0-99, batches of 1 000, four sources on four connections; drawn with Python's random, seed
42, not W1's exact stream) to three pipelines of the same definition: as NDJSON without ids (as
../shared/bench/compare does), as NDJSON with ids, and as application/cloudevents-batch+json
(id, source, type, time, and the key and value in data). Each round posts every format once, each
round starting with the next one, and prints the service's CPU per event for each (from /proc/SERVICE_PID/stat, user + system).
Bodies are built before timing; the client is the same for all three.
"""
import http.client, json, random, sys, threading, time
from datetime import datetime, timezone
from urllib.parse import urlparse

base = urlparse(sys.argv[1]); pid = sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 400_000
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
T0, SPAN, JITTER, BATCH, SOURCES = 1_767_225_600_000, 3_600_000, 5_000, 1_000, 4

def ticks():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(f[11]) + int(f[12])

def iso(ms):
    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)

rnd = random.Random(42)
events = []
for i in range(n):
    ts = T0 + i * SPAN // n - rnd.randrange(JITTER + 1)
    events.append((f"e{i}", f"k{rnd.randrange(10_000)}", ts, rnd.randrange(100)))

def bodies(fmt):
    """Per source, its batches of encoded bodies; event i goes to source i % SOURCES."""
    out = [[] for _ in range(SOURCES)]
    for b in range(0, n, BATCH * SOURCES):
        for s in range(SOURCES):
            chunk = events[b + s: b + BATCH * SOURCES: SOURCES]
            if not chunk:
                continue
            src = f"s{s}"
            if fmt == "ndjson":
                body = "".join(json.dumps({"key": k, "timestamp": ts, "value": v, "source": src}) + "\n" for _, k, ts, v in chunk)
            elif fmt == "ndjson-ids":
                body = "".join(json.dumps({"id": i, "key": k, "timestamp": ts, "value": v, "source": src}) + "\n" for i, k, ts, v in chunk)
            else:
                body = json.dumps([{"specversion": "1.0", "id": i, "source": src, "type": "w1", "time": iso(ts),
                                    "data": {"key": k, "value": v}} for i, k, ts, v in chunk])
            out[s].append(body.encode())
    return out

TYPES = {"ndjson": "application/x-ndjson", "ndjson-ids": "application/x-ndjson", "cloudevents": "application/cloudevents-batch+json"}
prepared = {fmt: bodies(fmt) for fmt in TYPES}

def request(method, path, body=None, ctype="application/json"):
    c = http.client.HTTPConnection(base.hostname, base.port)
    c.request(method, path, body=body, headers={"Content-Type": ctype})
    r = c.getresponse(); data = r.read(); c.close()
    return r.status, data

DEFINITION = json.dumps({"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
                         "watermark": {"maxOutOfOrderness": "PT5S", "maxFutureSkew": "P3650D"}})

def post_all(pipeline, fmt):
    errors = []
    def worker(s):
        c = http.client.HTTPConnection(base.hostname, base.port)
        for body in prepared[fmt][s]:
            c.request("POST", f"/pipelines/{pipeline}/events", body=body, headers={"Content-Type": TYPES[fmt]})
            r = c.getresponse(); data = r.read()
            if r.status != 202 or b'"rejectedTotal":0' not in data:
                errors.append((r.status, data[:200]))
        c.close()
    threads = [threading.Thread(target=worker, args=(s,)) for s in range(SOURCES)]
    [t.start() for t in threads]; [t.join() for t in threads]
    if errors:
        sys.exit(f"{fmt}: {len(errors)} bad answers, first {errors[0]}")

for r in range(1, rounds + 1):
    line = []
    order = list(TYPES)[r % 3:] + list(TYPES)[:r % 3]   # each format goes first in turn
    for fmt in order:
        pipeline = f"ce-cost-{fmt}-{r}"
        request("DELETE", f"/pipelines/{pipeline}")
        status, _ = request("PUT", f"/pipelines/{pipeline}", DEFINITION)
        assert status in (200, 201), status
        # Every source is known before any posts: the pipeline's watermark is the least of its sources'.
        for src in range(SOURCES):
            request("POST", f"/pipelines/{pipeline}/watermark", json.dumps({"source": f"s{src}", "watermark": T0 - 10_000}))
        c0, w0 = ticks(), time.time()
        post_all(pipeline, fmt)
        c1, w1 = ticks(), time.time()
        request("DELETE", f"/pipelines/{pipeline}")
        line.append(f"{fmt} {(c1 - c0) * 1e4 / n:.2f} us/event {n / (w1 - w0):.0f} events/s")
    print(f"round {r}: " + ", ".join(line) + f"  load {open('/proc/loadavg').read().split()[0]}", flush=True)
