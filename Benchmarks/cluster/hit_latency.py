#!/usr/bin/env python3
"""Shared-cache hit latency against a local hit, one request at a time on kept connections:
for each of N new structures, POST it to replica A (a miss, stored in Redis in the
background), then to replica B with other ids (a shared hit: Redis GET + decode + local
insert), then to B with yet other ids (a local hit: the frame cache; other ids, so not the
answer cache). Prints the median and p90 of each, in microseconds, as one JSON line.

    hit_latency.py PORT_A PORT_B [N]
"""
import http.client
import json
import statistics
import sys
import time

ROW = ('{"available":{"width":%d,"height":null},"root":{"id":"%s","style":{"flexDirection":"row",'
       '"width":300,"height":100,"padding":10},"children":[{"id":"icon","style":{"width":80}},'
       '{"id":"label","style":{"flexGrow":1,"marginLeft":10}}]}}')


def post(connection, body):
    started = time.perf_counter()
    connection.request("POST", "/compute", body.encode(), {"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    return (time.perf_counter() - started) * 1e6, response.getheader("X-Cache-Level")


def main():
    a = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
    b = http.client.HTTPConnection("127.0.0.1", int(sys.argv[2]), timeout=10)
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    shared, local, wrong = [], [], 0
    for index in range(count):
        width = 20000 + index
        post(a, ROW % (width, "a"))
        time.sleep(0.005)  # the store is in the background
        seconds, level = post(b, ROW % (width, "b1"))
        if level == "shared":
            shared.append(seconds)
        else:
            wrong += 1
        seconds, level = post(b, ROW % (width, "b2"))
        if level == "local":
            local.append(seconds)

    def summary(values):
        values = sorted(values)
        return {"n": len(values), "median_us": round(statistics.median(values)),
                "p90_us": round(values[int(0.9 * len(values))])} if values else None

    print(json.dumps({"shared_hit": summary(shared), "local_hit": summary(local), "not_shared": wrong}))


if __name__ == "__main__":
    main()
