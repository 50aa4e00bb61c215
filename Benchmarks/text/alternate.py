#!/usr/bin/env python3
"""Compares layoutd binaries on the text feed without Chromium: the binaries take turns
(--reps times), each serving the feed --requests times over one connection, uncached; the
figure is the server's CPU time per request (schedstat), the first request of each turn
dropped (empty shaping cache). Then checks that their answers are byte-identical: the feed
with and without "textLines", and every text vector's request (Tests/Fixtures/text-browser)
with and without "textLines".

    python3 Benchmarks/text/alternate.py OLD_LAYOUTD NEW_LAYOUTD [--reps 6] [--requests 30]

On this shared VM one binary's requests fall into groups far apart (CPU speed varies); give
both orders (old first, new first) and read the figures of both runs.
"""
import argparse
import glob
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the feed and the server's CPU time)

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/Fixtures/text-browser")


class Server:
    """One layoutd, uncached, on a free port of 127.0.0.1."""

    def __init__(self, binary):
        self.port = run.free_port()
        self.process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                                         "--cache-bytes", "0", "--answer-cache-bytes", "0", "--log-level", "warning"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            self.stop()
            sys.exit(f"alternate.py: {binary} did not start")
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)

    def post(self, body):
        self.connection.request("POST", "/compute", body, {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        return response.status, response.read()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binaries", nargs=2)
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--requests", type=int, default=30)
    args = ap.parse_args()
    request = run.feed(200, 11)
    feed = json.dumps(request).encode()
    cpu = {b: [] for b in args.binaries}
    for rep in range(args.reps):
        for binary in args.binaries:
            server = Server(binary)
            try:
                times = []
                for _ in range(args.requests):
                    c0 = run.cpu_seconds(server.process.pid)
                    status, data = server.post(feed)
                    times.append((run.cpu_seconds(server.process.pid) - c0) * 1000)
                    if status != 200:
                        sys.exit(f"alternate.py: {binary} answered {status}: {data[:300]!r}")
            finally:
                server.stop()
            cpu[binary].extend(times[1:])
            print(f"turn {rep + 1} {binary}: mean {statistics.mean(times[1:]):.2f} ms", flush=True)
    for binary in args.binaries:
        xs = cpu[binary]
        print(f"{binary}: server CPU per request, mean {statistics.mean(xs):.2f} ms, median "
              f"{statistics.median(xs):.2f}, fastest {min(xs):.2f} ({len(xs)} requests)")

    bodies = [feed, json.dumps(dict(request, textLines=True)).encode()]
    for path in sorted(glob.glob(os.path.join(VECTORS, "*.json"))):
        if path.endswith("known-differences.json"):
            continue
        for case in json.load(open(path))["cases"]:
            bodies += [json.dumps(dict(case["request"], textLines=flag)).encode() for flag in (True, False)]
    servers = [Server(b) for b in args.binaries]
    try:
        differ = [i for i, body in enumerate(bodies) if len({s.post(body) for s in servers}) > 1]
    finally:
        for s in servers:
            s.stop()
    print(f"answers: {len(bodies) - len(differ)} of {len(bodies)} byte-identical (the feed with and without "
          f"textLines, each text vector with and without)" + (f"; differ: {differ[:10]}" if differ else ""))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
