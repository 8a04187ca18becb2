# Fills an Eventide on 127.0.0.1:18341 for issue34-reads-measure.sh. Pipeline m: 100 keys x 300 one-minute windows = 30 000 results; pipeline w: 30 000 keys, one
# open window each (allowed lateness keeps them open).
import json, urllib.request
APP = "http://127.0.0.1:18341"
DEF = {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT24H",
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "aggregate": {"type": "sum"}}
def send(method, path, body):
    req = urllib.request.Request(APP + path, data=json.dumps(body).encode(), method=method,
                                 headers={"Content-Type": "application/json"})
    return urllib.request.urlopen(req).read()
START = 1767225600000
for name in ("m", "w"):
    send("PUT", "/pipelines/" + name, DEF)
events = [{"key": "k%d" % k, "timestamp": START + m * 60000 + 30000, "value": 1}
          for m in range(300) for k in range(100)]
for i in range(0, len(events), 2000):
    send("POST", "/pipelines/m/events", events[i:i + 2000])
events = [{"key": "k%d" % k, "timestamp": START + 30000, "value": 1} for k in range(30000)]
for i in range(0, len(events), 2000):
    send("POST", "/pipelines/w/events", events[i:i + 2000])
print("done")
