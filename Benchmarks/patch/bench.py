#!/usr/bin/env python3
"""Server CPU per request of /compute/patch against /compute of the whole tree (stdlib only).

  bench.py path/to/layoutd

On the 1,000-node tree of Benchmarks/load (make_requests.py), CONNECTIONS keep-alive
connections each sending requests one after another, DURATION seconds per cell, the server
pinned to core 0 and this client to core 1 (when taskset exists). Server CPU is utime + stime
of the server process over the cell, divided by the requests answered.

  uncached        /compute of the whole tree, a new root width per request (a miss every time)
  patch           /compute/patch changing one leaf's width, chained on each answer's ETag
                  (each connection its own chain)
  patch-changes   the same with "changesOnly": true
  cached          /compute of the same ~2 KB request every time (an answer-cache hit)

The cells of the default server (bases kept) run ROUNDS times, taking turns (uncached, cached,
patch, patch-changes at each connection count, then again), and each ratio is taken within its
round: the machine's speed drifts by up to 2x within minutes, which a ratio of cells measured
minutes apart would carry. The tables give each cell's median and every round's ratio, and the
verdict goes by the median ratio. uncached and cached also run once with --patch-base-bytes 0
(nothing kept), to show what keeping bases costs those paths.
Target: patch / uncached <= 0.1. Environment: DURATION (6), CONNECTIONS ("1 4"), ROUNDS (3),
PORT (0: any free port), CLIENT, TREE and PATCH:

  CLIENT=python    the client above (default): each request costs this client ~250 us, so the
                   server sleeps between requests and pays a wake-up for each
  CLIENT=wrk       wrk instead (TREE=tree1000, PATCH=width or append), as Benchmarks/load measures the
                   uncached tree: Benchmarks/load/uncached.lua and post.lua with one wrk thread,
                   patch.lua with a thread (and a chain) per connection

  TREE=tree1000    the 1,000-node tree above (default)
  TREE=feed-box    the 1,000-cell feed of `wire-bench --feed` (FeedBench.swift: 10 cell shapes,
  TREE=feed-text   6,001 nodes; an avatar, a column that grows with two bars or two text leaves,
                   a badge), kept with --patch-base-bytes 64 MiB (a patched feed is ~10 MB)
  PATCH=width      the patch changes the width of child 0 of root child N (default)
  PATCH=text       it replaces the message of root child N (feed-text: a longer text each time)
  PATCH=append     it removes the root's first child and appends a copy of root child N with a
                   new id at the end (a chat that scrolls: children removed and added)
  CHANGES_BY=node  the patch-changes cells ask "changesBy": "node" (default: pointer)
"""
import http.client
import json
import os
import shutil
import socket
import subprocess
import itertools
import sys
import tempfile
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))

DURATION = float(os.environ.get("DURATION", "6"))
CONNECTIONS = [int(n) for n in os.environ.get("CONNECTIONS", "1 4").split()]
ROUNDS = int(os.environ.get("ROUNDS", "3"))
PORT = int(os.environ.get("PORT", "0"))
CLK_TCK = os.sysconf("SC_CLK_TCK")
HEADERS = {"Content-Type": "application/json"}
TREE = os.environ.get("TREE", "tree1000")
PATCH = os.environ.get("PATCH", "width")
CHANGES_BY = os.environ.get("CHANGES_BY", "pointer")
CLIENT = os.environ.get("CLIENT", "python")


def feed_template(text):
    """The feed of FeedBench.swift with 10 cell shapes, its root width left as @W@."""
    def cell(i):
        v = i % 10
        if text:
            number = str(1000 + v)[1:]
            return ('{"id":"c%d","style":{"flexDirection":"row","padding":8,"gap":8,"alignItems":"flex-start",'
                    '"fontFamily":"DejaVu Sans"},"children":[{"id":"a%d","style":{"width":40,"height":40}},'
                    '{"id":"b%d","style":{"flexGrow":1,"flexShrink":1,"gap":4},"children":['
                    '{"id":"t%d","style":{"fontSize":16,"fontWeight":"bold"},"text":"Sender %s"},'
                    '{"id":"s%d","style":{"fontSize":14,"lineHeight":20},"text":"Message %s: a line of text long '
                    'enough to wrap onto a second line in the cell."}]},'
                    '{"id":"m%d","style":{"width":24,"height":24,"margin":4}}]}') % (i, i, i, i, number, i, number, i)
        return ('{"id":"c%d","style":{"flexDirection":"row","padding":8,"gap":8,"alignItems":"center"},"children":['
                '{"id":"a%d","style":{"width":%d,"height":40}},{"id":"b%d","style":{"flexGrow":1,"gap":4},"children":['
                '{"id":"t%d","style":{"height":18,"width":"40%%"}},{"id":"s%d","style":{"height":12,"width":"80%%"}}]},'
                '{"id":"m%d","style":{"width":24,"height":24,"margin":4}}]}') % (i, i, 36 + v, i, i, i, i)
    children = ",".join(cell(i) for i in range(1000))
    return '{"available":{"width":375,"height":null},"root":{"id":"feed","style":{"width":@W@},"children":[%s]}}' % children


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


def measure(server, make_client, connections):
    """(server CPU us per request, requests per second) over DURATION seconds, with
    `connections` keep-alive connections each sending requests one after another.
    `make_client(connection)` gives a callable that sends one request and checks its answer."""
    clients = [make_client(http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)) for _ in range(connections)]
    for client in clients:
        for _ in range(20):  # warm-up
            client()
    counts = [0] * connections
    stop = threading.Event()

    def run(k):
        while not stop.is_set():
            clients[k]()
            counts[k] += 1

    threads = [threading.Thread(target=run, args=(k,)) for k in range(connections)]
    cpu0, start = cpu_seconds(server.process.pid), time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(DURATION)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    cpu = cpu_seconds(server.process.pid) - cpu0
    return cpu * 1e6 / sum(counts), sum(counts) / elapsed


def measure_wrk(server, cell, connections, template, items, modes, seeds, chains, cells=None):
    """`measure` with wrk as the client (CLIENT=wrk): the cell's Lua script, server CPU per
    request over DURATION seconds. Patch cells add how their patches were answered to `modes`;
    `cells` (a file of the root's children, one per line) makes them PATCH=append patches."""
    load = os.path.join(here, "..", "load")
    env = dict(os.environ, LAYOUT_TEMPLATE=template)
    if cells:
        env["PATCH_CELLS"] = cells
    threads = 1
    if cell == "uncached":
        script = os.path.join(load, "uncached.lua")
        env["LAYOUT_SEED"] = str(next(seeds) * 1000000)
    elif cell == "cached":
        script = os.path.join(load, "post.lua")
        env["LAYOUT_BODY"] = os.path.join(load, "request.json")
    else:
        script, threads = os.path.join(here, "patch.lua"), connections
        env.update(PATCH_ITEMS=str(items), PATCH_CHANGES_ONLY="1" if cell == "patch-changes" else "0", PATCH_CHANGES_BY=CHANGES_BY,
                   PATCH_CHAIN=str(next(chains) * 8))
    pin = ["taskset", "-c", "1"] if shutil.which("taskset") else []
    cpu0 = cpu_seconds(server.process.pid)
    run = subprocess.run(pin + ["wrk", f"-t{threads}", f"-c{connections}", f"-d{DURATION:g}s", "--timeout", "5s",
                                "-s", script, f"http://127.0.0.1:{server.port}/compute"],
                         env=env, capture_output=True, text=True, timeout=DURATION + 60)
    cpu = cpu_seconds(server.process.pid) - cpu0
    out = run.stdout
    answered = [line.split() for line in out.splitlines() if " requests in " in line]
    # A patch chain answered 412 sends the whole tree again (counted in `modes`); patch.lua
    # stops wrk on any other status. Whole trees must all be answered 200.
    failed = [line for line in out.splitlines()
              if "Socket errors" in line or ("Non-2xx" in line and cell in ("uncached", "cached"))]
    if run.returncode != 0 or not answered or failed:
        sys.exit(f"bench.py: wrk failed in the {cell} cell:\n{out}{run.stderr}")
    for line in out.splitlines():
        if line.startswith("modes: "):
            for item in line[len("modes: "):].split(";"):
                if "=" in item:
                    mode, count = item.strip().rsplit("=", 1)
                    modes[mode] = modes.get(mode, 0) + int(count)
    rate = [float(line.split()[1]) for line in out.splitlines() if line.startswith("Requests/sec:")]
    return cpu * 1e6 / int(answered[0][0]), rate[0] if rate else 0.0


def post(connection, path, body, allow=()):
    connection.request("POST", path, body, HEADERS)
    answer = connection.getresponse()
    data = answer.read()
    if answer.status != 200 and answer.status not in allow:
        sys.exit(f"bench.py: {path} answered {answer.status}: {data[:300]!r}")
    return answer


def main():
    binary = sys.argv[1]
    if shutil.which("taskset"):
        os.sched_setaffinity(0, {1})
    if CLIENT not in ("python", "wrk") or (CLIENT == "wrk" and (TREE != "tree1000" or PATCH not in ("width", "append"))):
        sys.exit("bench.py: CLIENT is python, or wrk with TREE=tree1000 and PATCH=width or append")
    if CLIENT == "wrk" and not shutil.which("wrk"):
        sys.exit("bench.py: CLIENT=wrk needs wrk (apt-get install wrk)")
    scratch = tempfile.TemporaryDirectory()
    template_path = os.path.join(scratch.name, "tree1000.template")
    if TREE == "tree1000":
        subprocess.run([sys.executable, os.path.join(here, "..", "load", "make_requests.py"), scratch.name], check=True)
        template = open(template_path).read()
    elif TREE in ("feed-box", "feed-text"):
        template = feed_template(TREE == "feed-text")
    else:
        sys.exit(f"bench.py: TREE is tree1000, feed-box or feed-text, not {TREE}")
    if PATCH not in ("width", "text", "append") or (PATCH == "text" and TREE != "feed-text"):
        sys.exit("bench.py: PATCH is width, append, or text with TREE=feed-text")
    whole = template.replace("@W@", "400").replace("@P@", "8").encode()
    children = json.loads(whole)["root"]["children"]
    items = len(children)
    # A patched feed is charged ~10 MB: most of the default budget (before 2026-11-28, more than its
    # shard), so the feeds run with 64 MiB, as they were measured.
    keep = ["--patch-base-bytes", str(64 << 20)] if TREE != "tree1000" else []
    cached = open(os.path.join(here, "..", "load", "request.json"), "rb").read()
    results = {}
    counter = itertools.count()
    chains = itertools.count()
    seeds, wrk_chains = itertools.count(1), itertools.count()
    cells_file = None
    if CLIENT == "wrk" and PATCH == "append":
        # patch.lua appends these (root child N, its id left for the chain to fill in).
        cells_file = tempfile.NamedTemporaryFile("w", suffix=".jsonl", prefix="patch-cells-")
        for child in children:
            cells_file.write(json.dumps(dict(child, id="@ID@"), separators=(",", ":")) + "\n")
        cells_file.flush()
    modes = {}

    def uncached(connection):
        # A new tree every request: another root width.
        return lambda: post(connection, "/compute",
                            template.replace("@W@", f"{300 + next(counter) * 0.01:.2f}").replace("@P@", "8").encode())

    def cached_client(connection):
        return lambda: post(connection, "/compute", cached)

    def patcher(changes_only):
        def make(connection):
            # Each connection patches its own chain: one leaf's width, naming the last answer.
            # Chains apart: each chain's widths are its own (20-36, 37-53, ... for eight
            # consecutive chains), so no two chains of a cell reach the same tree, whose kept
            # layout only one of them could take (the other's patch would be rebuilt: hundreds
            # were when chains differed only by their starting step).
            chain = next(chains)
            state = {"tag": post(connection, "/compute", whole).getheader("ETag"), "n": 0, "chain": chain}

            def one():
                state["n"] += 1
                item, width = state["n"] * 37 % items, 20 + 17 * (state["chain"] % 8) + state["n"] % 17
                if PATCH == "append":
                    cell = dict(children[item], id=f"new-{state['chain']}-{state['n']}")
                    operations = [{"op": "remove", "path": "/root/children/0"},
                                  {"op": "add", "path": "/root/children/-", "value": cell}]
                elif PATCH == "text":
                    message = f"Message {state['n']}: a line that grows" + " more" * (state["n"] % 9) + "."
                    operations = [{"op": "replace", "path": f"/root/children/{item}/children/1/children/1/text", "value": message}]
                else:
                    operations = [{"op": "replace", "path": f"/root/children/{item}/children/0/style/width", "value": width}]
                body = {"base": state["tag"], "changesOnly": changes_only, "changesBy": CHANGES_BY, "patch": operations}
                answer = post(connection, "/compute/patch", json.dumps(body).encode(), allow=(412,))
                if answer.status == 412:
                    # The base was evicted (other chains' trees filled its shard of the store):
                    # as a client must, send the whole tree again and chain on from its answer.
                    modes["412, whole tree sent again"] = modes.get("412, whole tree sent again", 0) + 1
                    state["tag"] = post(connection, "/compute", whole).getheader("ETag")
                    return
                state["tag"] = answer.getheader("ETag")
                mode = answer.getheader("X-Patch")
                modes[mode] = modes.get(mode, 0) + 1
            return one
        return make

    for label, options in (("bases kept", keep), ("bases off", ["--patch-base-bytes", "0"])):
        server = Server(binary, *options)
        try:
            for _ in range(ROUNDS if label == "bases kept" else 1):
                for connections in CONNECTIONS:
                    cells = [("uncached", uncached), ("cached", cached_client)]
                    if label == "bases kept":
                        cells += [("patch", patcher(False)), ("patch-changes", patcher(True))]
                    for mode, client in cells:
                        if CLIENT == "wrk":
                            figures = measure_wrk(server, mode, connections, template_path, items, modes, seeds, wrk_chains,
                                                  cells_file.name if cells_file else None)
                        else:
                            figures = measure(server, client, connections)
                        results.setdefault((mode, label, connections), []).append(figures)
        finally:
            server.stop()

    def median(values):
        ordered = sorted(values)
        middle = len(ordered) // 2
        return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2

    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, {os.uname().machine}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}; {DURATION:.0f} s per cell, {ROUNDS} rounds; "
          f"CLIENT={CLIENT}, TREE={TREE} ({len(whole)} bytes), PATCH={PATCH}, CHANGES_BY={CHANGES_BY}; patches answered {modes}")
    print("cell\tservice\tconnections\tcpu_us_per_request (median)\trequests_per_s (median)\tcpu_us per round")
    for (mode, label, connections), values in results.items():
        print(f"{mode}\t{label}\t{connections}\t{median([v[0] for v in values]):.1f}\t{median([v[1] for v in values]):.0f}\t"
              + " ".join(f"{v[0]:.0f}" for v in values))
    for connections in CONNECTIONS:
        wholes = [v[0] for v in results[("uncached", "bases kept", connections)]]
        for mode in ("patch", "patch-changes"):
            ratios = [v[0] / whole for v, whole in zip(results[(mode, "bases kept", connections)], wholes)]
            print(f"{connections} connection(s): {mode} / uncached whole = {median(ratios):.3f} median of rounds "
                  f"({' '.join(f'{r:.3f}' for r in ratios)}) (target <= 0.1)")
        for mode in ("uncached", "cached"):
            kept = median([v[0] for v in results[(mode, "bases kept", connections)]])
            off = results[(mode, "bases off", connections)][0][0]
            print(f"{connections} connection(s): {mode} with bases kept (median) / bases off = {kept / off:.3f}")

if __name__ == "__main__":
    main()
