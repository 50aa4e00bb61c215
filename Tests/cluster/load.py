#!/usr/bin/env python3
"""Bounded load for the cluster test: THREADS keep-alive connections POST /compute for SECONDS
through nginx, trees drawn from a pool of TREES structures (the row of the README with other
available widths), and print one JSON line: requests, failures (exceptions and non-200),
latency percentiles in ms, and answers by X-Cache-Level.

    load.py URL SECONDS [THREADS] [TREES]
"""
import http.client
import json
import random
import sys
import threading
import time
import urllib.parse

ROW = ('{"available":{"width":%d,"height":null},"direction":"ltr",'
       '"root":{"id":"bar","style":{"flexDirection":"row","width":%d,"height":100,"padding":10},'
       '"children":[{"id":"icon","style":{"width":80}},{"id":"label","style":{"flexGrow":1,"marginLeft":10}}]}}')


def tree(index):
    return (ROW % (1000 + index, 300 + index)).encode()


def main():
    url = urllib.parse.urlparse(sys.argv[1])
    seconds = float(sys.argv[2])
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    trees = int(sys.argv[4]) if len(sys.argv) > 4 else 400
    deadline = time.monotonic() + seconds
    lock = threading.Lock()
    latencies, failures, levels, statuses = [], [], {}, {}

    def worker(seed):
        rng = random.Random(seed)
        connection = None
        while time.monotonic() < deadline:
            body = tree(rng.randrange(trees))
            started = time.monotonic()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
                connection.request("POST", "/compute", body, {"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                elapsed = (time.monotonic() - started) * 1000
                level = response.getheader("X-Cache-Level") or response.getheader("X-Cache") or "-"
                with lock:
                    latencies.append(elapsed)
                    statuses[response.status] = statuses.get(response.status, 0) + 1
                    if response.status != 200:
                        failures.append("status %d" % response.status)
                    levels[level] = levels.get(level, 0) + 1
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except Exception as error:  # noqa: BLE001 - every failure is counted
                with lock:
                    failures.append(repr(error))
                if connection is not None:
                    connection.close()
                connection = None
        if connection is not None:
            connection.close()

    workers = [threading.Thread(target=worker, args=(index,)) for index in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    latencies.sort()

    def percentile(fraction):
        return round(latencies[min(len(latencies) - 1, int(fraction * len(latencies)))], 2) if latencies else None

    print(json.dumps({"requests": len(latencies), "failed": len(failures), "failures": failures[:5],
                      "p50_ms": percentile(0.5), "p99_ms": percentile(0.99), "max_ms": percentile(1.0),
                      "statuses": statuses, "levels": levels, "seconds": seconds}))


if __name__ == "__main__":
    main()
