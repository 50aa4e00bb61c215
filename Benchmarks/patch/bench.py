#!/usr/bin/env python3
"""Server CPU per request of /compute/patch against /compute of the whole tree (stdlib only).

  bench.py path/to/layoutd

On the 1,000-node tree of Benchmarks/load (make_requests.py), one keep-alive connection,
requests one after another, DURATION seconds per cell, the server pinned to core 0 and this
client to core 1 (when taskset exists). Server CPU is utime + stime of the server process over
the cell, divided by the requests answered.

  uncached        /compute of the whole tree, a new root width per request (a miss every time)
  patch           /compute/patch changing one leaf's width, chained on each answer's ETag
  patch-changes   the same with "changesOnly": true
  cached          /compute of the same ~2 KB request every time (an answer-cache hit)

uncached and cached run twice: with the default --patch-base-bytes (bases kept) and with
--patch-base-bytes 0 (nothing kept), to show what keeping bases costs those paths.
Target: patch / uncached <= 0.1. Environment: DURATION (8), PORT (0: any free port).
"""
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))

DURATION = float(os.environ.get("DURATION", "8"))
PORT = int(os.environ.get("PORT", "0"))
CLK_TCK = os.sysconf("SC_CLK_TCK")
HEADERS = {"Content-Type": "application/json"}


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary, *options):
        self.port = PORT or free_port()
        pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
        self.process = subprocess.Popen(pin + [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                                               "--log-level", "warning", *options],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if self.process.poll() is not None:
                sys.exit(f"bench.py: layoutd exited at start ({self.process.returncode})")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        sys.exit("bench.py: layoutd did not start listening")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def measure(server, make_request, on_answer=lambda answer, body: None):
    """(server CPU us per request, requests per second) over DURATION seconds."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    def one():
        path, body = make_request()
        connection.request("POST", path, body, HEADERS)
        answer = connection.getresponse()
        data = answer.read()
        if answer.status != 200:
            sys.exit(f"bench.py: {path} answered {answer.status}: {data[:300]!r}")
        on_answer(answer, data)

    for _ in range(50):  # warm-up
        one()
    count = 0
    cpu0, start = cpu_seconds(server.process.pid), time.monotonic()
    while time.monotonic() - start < DURATION:
        one()
        count += 1
    elapsed = time.monotonic() - start
    cpu = cpu_seconds(server.process.pid) - cpu0
    connection.close()
    return cpu * 1e6 / count, count / elapsed


def main():
    binary = sys.argv[1]
    if shutil.which("taskset"):
        os.sched_setaffinity(0, {1})
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run([sys.executable, os.path.join(here, "..", "load", "make_requests.py"), scratch], check=True)
        template = open(os.path.join(scratch, "tree1000.template")).read()
    whole = template.replace("@W@", "400").replace("@P@", "8").encode()
    cached = open(os.path.join(here, "..", "load", "request.json"), "rb").read()
    results = {}
    counter = [0]

    def uncached():
        counter[0] += 1
        width = 300 + counter[0] * 0.01  # a new tree every request
        return "/compute", template.replace("@W@", f"{width:.2f}").replace("@P@", "8").encode()

    for label, options in (("bases kept", []), ("bases off", ["--patch-base-bytes", "0"])):
        server = Server(binary, *options)
        try:
            results[("uncached", label)] = measure(server, uncached)
            results[("cached", label)] = measure(server, lambda: ("/compute", cached))
            if label == "bases kept":
                for mode, changes_only in (("patch", False), ("patch-changes", True)):
                    connection = http.client.HTTPConnection("127.0.0.1", server.port)
                    connection.request("POST", "/compute", whole, HEADERS)
                    first = connection.getresponse()
                    first.read()
                    connection.close()
                    state = {"tag": first.getheader("ETag"), "n": 0, "modes": {}}

                    def patch(changes_only=changes_only, state=state):
                        state["n"] += 1
                        item, width = state["n"] * 37 % 111, 20 + state["n"] % 17
                        body = {"base": state["tag"], "changesOnly": changes_only,
                                "patch": [{"op": "replace", "path": f"/root/children/{item}/children/0/style/width",
                                           "value": width}]}
                        return "/compute/patch", json.dumps(body).encode()

                    def chain(answer, body, state=state):
                        state["tag"] = answer.getheader("ETag")
                        mode = answer.getheader("X-Patch")
                        state["modes"][mode] = state["modes"].get(mode, 0) + 1

                    results[(mode, label)] = measure(server, patch, chain)
                    results[(mode, "modes")] = state["modes"]
        finally:
            server.stop()

    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, {os.uname().machine}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}; {DURATION:.0f} s per cell, 1 connection; 1,000-node tree {len(whole)} bytes")
    print("cell\tservice\tcpu_us_per_request\trequests_per_s")
    for (mode, label), value in results.items():
        if label != "modes":
            print(f"{mode}\t{label}\t{value[0]:.1f}\t{value[1]:.0f}")
    base = results[("uncached", "bases kept")][0]
    for mode in ("patch", "patch-changes"):
        print(f"ratio {mode} / uncached whole: {results[(mode, 'bases kept')][0] / base:.3f} (target <= 0.1); "
              f"answered {results[(mode, 'modes')]}")
    for mode in ("uncached", "cached"):
        kept, off = results[(mode, "bases kept")][0], results[(mode, "bases off")][0]
        print(f"ratio {mode} bases kept / bases off: {kept / off:.3f}")


if __name__ == "__main__":
    main()
