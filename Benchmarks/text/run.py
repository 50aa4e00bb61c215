#!/usr/bin/env python3
"""Text layout benchmark: a feed of 200 cards with 1,000 text leaves, laid out by layoutd
(uncached) and by headless Chromium in the same run.

The feed (fixed seed) is one /compute request: a 360 px column of cards, each with a title,
a subtitle, a body paragraph and a footer row with a price and a note, all text leaves in the
shipped DejaVu faces. The same tree becomes one HTML page (the same flex boxes, the fonts
loaded synchronously from the same files as FontFace objects) whose script sets the feed's
innerHTML and reads offsetHeight (a forced style + layout), timed with performance.now(),
ROUNDS times; the first round is reported apart (cold caches). layoutd runs with its frame
and answer caches off (--cache-bytes 0 --answer-cache-bytes 0) and gets the same request
ROUNDS times over one keep-alive connection; its time is the server's CPU time per request
(from /proc/PID/task/*/schedstat), and the client's wall time is printed too. The first request is cold (empty
shaping cache); later ones reuse the word shapes of the earlier ones. Lines of /metrics that
mention text or shaping are printed as they stand.

Not run by CI. Needs chromium-headless-shell (or chromium) and a layoutd binary:
    swift build -c release --product layoutd && swift build -c release --product text-bench
    python3 Benchmarks/text/run.py [--layoutd .build/release/layoutd] [--text-bench .build/release/text-bench] [--rounds 15]
"""
import argparse
import base64
import collections
import html
import http.client
import json
import os
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FACES = {("DejaVu Sans", 400): "DejaVuSans.ttf", ("DejaVu Sans", 700): "DejaVuSans-Bold.ttf",
         ("DejaVu Serif", 400): "DejaVuSerif.ttf", ("DejaVu Sans Mono", 700): "DejaVuSansMono-Bold.ttf"}
WORDS = ("the quick brown fox jumps over a lazy dog while layout engines measure break and place "
         "text in cards feeds lists with titles prices notes shipping today fresh handmade organic "
         "coffee beans roasted weekly limited edition ceramic mug linen tote bag recycled paper "
         "notebook state-of-the-art well-known low-cost open-source reviews stars delivery free "
         "returns within thirty days, warranty: two years. New! Sale; only 3 left (order soon)").split()


def sentence(rng, lo, hi):
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    words[0] = words[0].capitalize()
    return " ".join(words)


def text_leaf(id, text, **style):
    return {"id": id, "text": text, "style": style}


def feed(cards, seed):
    """The request: CARDS cards of five text leaves each."""
    rng = random.Random(seed)
    children = []
    for i in range(cards):
        children.append({
            "id": f"card{i}",
            "style": {"flexDirection": "column", "padding": 12, "borderWidth": 1, "gap": 4},
            "children": [
                text_leaf(f"title{i}", sentence(rng, 2, 7), fontFamily="DejaVu Sans", fontWeight=700, fontSize=17),
                text_leaf(f"subtitle{i}", sentence(rng, 4, 12), fontFamily="DejaVu Serif", fontSize=14,
                          lineHeight="130%"),
                text_leaf(f"body{i}", ". ".join(sentence(rng, 5, 14) for _ in range(rng.randint(1, 4))) + ".",
                          fontFamily="DejaVu Sans", fontSize=13, lineHeight=18),
                {"id": f"footer{i}", "style": {"flexDirection": "row", "justifyContent": "space-between",
                                              "alignItems": "baseline", "gap": 8},
                 "children": [
                     text_leaf(f"price{i}", f"${rng.randint(1, 999)}.{rng.randint(0, 99):02d}",
                               fontFamily="DejaVu Sans Mono", fontWeight=700, fontSize=16),
                     text_leaf(f"note{i}", sentence(rng, 1, 5), fontFamily="DejaVu Sans", fontSize=12),
                 ]},
            ],
        })
    root = {"id": "feed", "style": {"width": 360, "flexDirection": "column", "padding": 8, "gap": 8},
            "children": children}
    return {"config": {"pointScaleFactor": 0, "useWebDefaults": True},
            "available": {"width": None, "height": None}, "root": root}


CSS_KEYS = {
    "width": lambda v: ("width", f"{v}px"), "padding": lambda v: ("padding", f"{v}px"),
    "gap": lambda v: ("gap", f"{v}px"), "borderWidth": lambda v: ("border", f"{v}px solid #888"),
    "flexDirection": lambda v: ("flex-direction", v), "justifyContent": lambda v: ("justify-content", v),
    "alignItems": lambda v: ("align-items", v), "fontFamily": lambda v: ("font-family", f'"Bench {v}"'),
    "fontWeight": lambda v: ("font-weight", str(v)), "fontSize": lambda v: ("font-size", f"{v}px"),
    "lineHeight": lambda v: ("line-height", v if isinstance(v, str) else f"{v}px"),
}


def node_html(node):
    style = html.escape(";".join("%s:%s" % CSS_KEYS[k](v) for k, v in node.get("style", {}).items()))
    if "text" in node:
        return f'<div id="{node["id"]}" style="{style}">{html.escape(node["text"])}</div>'
    return f'<div id="{node["id"]}" style="display:flex;{style}">' + "".join(node_html(c) for c in node["children"]) + "</div>"


PAGE_SCRIPT = """
function bytes(b64) { const s = atob(b64), a = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) a[i] = s.charCodeAt(i); return a.buffer; }
for (const [family, weight, b64] of FONTS) {
  const face = new FontFace(family, bytes(b64), {weight: String(weight)});
  document.fonts.add(face);  // binary sources load synchronously
  if (face.status !== "loaded") throw new Error(family + " " + face.status);
}
const host = document.getElementById("host");
const times = [];
let height = 0;
for (let round = 0; round < ROUNDS; round++) {
  host.innerHTML = "";
  host.offsetHeight;
  const t0 = performance.now();
  host.innerHTML = FEED;
  height = host.offsetHeight;
  times.push(performance.now() - t0);
}
// Relayout only: the DOM stays, a new width makes every line break again.
const relayout = [];
for (let round = 0; round < RELAYOUT_ROUNDS; round++) {
  host.firstChild.style.width = (round % 2 ? 360 : 361) + "px";
  const t0 = performance.now();
  host.offsetHeight;
  relayout.push(performance.now() - t0);
}
host.firstChild.style.width = "360px";
// Every box relative to its parent, to set beside the service's frames.
const frames = {};
for (const el of host.querySelectorAll("[id]")) {
  const r = el.getBoundingClientRect(), p = el.parentElement.getBoundingClientRect();
  frames[el.id] = [r.left - p.left, r.top - p.top, r.width, r.height];
}
document.getElementById("out").textContent = JSON.stringify({times, relayout, height: host.offsetHeight,
  frames, userAgent: navigator.userAgent});
"""


def chromium_times(request, rounds, relayout_rounds=None):
    """Chromium's version and what the page reports (times, relayout times, height, frames),
    with the CPU time of the browser's processes (user + system) as "cpu"."""
    fonts = [[f"Bench {fam}", w, base64.b64encode(open(os.path.join(FONT_DIR, f), "rb").read()).decode()]
             for (fam, w), f in FACES.items()]
    page = ('<!doctype html><html><head><meta charset="utf-8"><style>*{box-sizing:border-box}body{margin:0}'
            "</style></head><body><div id=\"host\"></div><pre id=\"out\"></pre><script>"
            f"const FONTS = {json.dumps(fonts)};\nconst ROUNDS = {rounds};\n"
            f"const RELAYOUT_ROUNDS = {rounds if relayout_rounds is None else relayout_rounds};\n"
            f"const FEED = {json.dumps(node_html(request['root']))};\n{PAGE_SCRIPT}</script></body></html>")
    binary = next((b for b in ("chromium-headless-shell", "chromium")
                   if subprocess.run(["which", b], capture_output=True).returncode == 0), None)
    if not binary:
        sys.exit("run.py: no chromium-headless-shell or chromium on PATH")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "feed.html")
        with open(path, "w") as f:
            f.write(page)
        # No --virtual-time-budget: it freezes performance.now(). The script runs while the
        # page loads, so --dump-dom sees its output.
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        dom = subprocess.run([binary, "--no-sandbox", "--single-process", "--headless", "--disable-gpu", "--font-render-hinting=none",
                              "--dump-dom", "file://" + path], capture_output=True, text=True, timeout=600).stdout
    match = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
    if not match or not match.group(1):
        sys.exit("run.py: the Chromium page produced no timings")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = json.loads(html.unescape(match.group(1)))
    # Every process Chromium ran and waited for (renderer, GPU, utility) counts.
    result["cpu"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return version, result


def chromium_cpu_per_round(request, rounds):
    """Chromium's CPU time for one round of innerHTML + forced layout, all its processes and
    threads: the CPU time of a page of `rounds` + 1 rounds less that of a page of one (each
    the least of two runs), divided by `rounds` (start-up, font loading and page load cancel
    out). On a loaded machine this,
    unlike performance.now(), counts only the work done, as the service's CPU time does."""
    # Each page twice, the least CPU of each kept: the runs least disturbed by other work.
    one = min(chromium_times(request, 1, relayout_rounds=0)[1]["cpu"] for _ in range(2))
    many = min(chromium_times(request, rounds + 1, relayout_rounds=0)[1]["cpu"] for _ in range(2))
    return (many - one) * 1000 / rounds


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    """CPU time of every thread of `pid` so far, in ns resolution (schedstat; /proc/PID/stat
    counts 10 ms ticks, as coarse as the figure being measured)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            total += int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return total / 1e9


def service_times(layoutd, request, rounds, port=0, perf=None):
    port = port or free_port()
    server = subprocess.Popen([layoutd, "serve", "--host", "127.0.0.1", "--port", str(port), "--cache-bytes", "0",
                               "--answer-cache-bytes", "0", "--log-level", "warning"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("run.py: layoutd did not start")
        # Sampled while it answers (perf report -i FILE), when asked.
        profiler = subprocess.Popen(["perf", "record", "-g", "-q", "-o", perf, "-p", str(server.pid)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) if perf else None
        body = json.dumps(request).encode()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        wall, cpu, answer = [], [], None
        for _ in range(rounds):
            c0, t0 = cpu_seconds(server.pid), time.perf_counter()
            conn.request("POST", "/compute", body, {"Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((cpu_seconds(server.pid) - c0) * 1000)
            if response.status != 200:
                sys.exit(f"run.py: layoutd answered {response.status}: {data[:300]!r}")
            answer = json.loads(data)
        if profiler:
            profiler.send_signal(2)
            profiler.wait(timeout=60)
        conn.request("GET", "/metrics")
        metrics = conn.getresponse().read().decode()
        conn.close()
        return wall, cpu, answer, [l for l in metrics.splitlines()
                                   if re.search(r"text|shap|font", l, re.I) and not l.startswith("#")]
    finally:
        server.terminate()
        server.wait(timeout=10)


def frames_agree(root, chrome):
    """Boxes whose frame agrees with Chromium's, and the disagreements by (node kind, edge)."""
    agree, differ = 0, collections.Counter()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.get("children", []))
        want = chrome.get(node["id"])
        if want is None or node["id"] == root["id"]:
            continue
        bad = [name for name, got, exp, tol in zip(("left", "top", "width", "height"),
                                                  (node["left"], node["top"], node["width"], node["height"]),
                                                  want, (1 / 32, 1 / 32, 1 / 32, 0.05)) if abs(got - exp) > tol]
        if bad:
            differ[f"{node['id'].rstrip('0123456789')} {'/'.join(bad)}"] += 1
        else:
            agree += 1
    return agree, differ


def count_text(node):
    return ("text" in node) + sum(count_text(c) for c in node.get("children", []))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layoutd", default=".build/release/layoutd")
    ap.add_argument("--text-bench", default=".build/release/text-bench",
                    help="the shaping-cache benchmark (Benchmarks/text/text-bench); skipped when absent")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--cards", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--port", type=int, default=0, help="layoutd's port (default: a free one)")
    ap.add_argument("--perf", metavar="FILE", help="record the server with perf record -g into FILE")
    ap.add_argument("--trials", type=int, default=1,
                    help="CPU-against-CPU trials in all, Chromium and layoutd measured in turn (this VM's speed "
                         "drifts within minutes, so each trial's ratio pairs two measurements taken close "
                         "together; their median is printed)")
    args = ap.parse_args()
    request = feed(args.cards, args.seed)
    print(f"# feed: {args.cards} cards, {count_text(request['root'])} text leaves, "
          f"{len(json.dumps(request))} bytes of request")

    version, chrome = chromium_times(request, args.rounds)
    chrome_cpu = chromium_cpu_per_round(request, args.rounds)
    wall, cpu, answer, metrics = service_times(args.layoutd, request, args.rounds, args.port, args.perf)

    def med(xs):
        return statistics.median(xs)

    print(f"# {version}; layoutd {args.layoutd}")
    print(f"chromium  innerHTML + forced layout: first {chrome['times'][0]:.1f} ms, "
          f"median of the rest {med(chrome['times'][1:]):.1f} ms (min {min(chrome['times'][1:]):.1f})")
    print(f"chromium  relayout at a new width: median {med(chrome['relayout']):.1f} ms")
    print(f"layoutd   uncached /compute: first {wall[0]:.1f} ms wall ({cpu[0]:.0f} ms CPU), "
          f"median of the rest {med(wall[1:]):.1f} ms wall, {med(cpu[1:]):.1f} ms server CPU "
          f"(mean {statistics.mean(cpu[1:]):.1f})")
    # Chromium's figure is wall time on its main thread, which a loaded machine inflates; its
    # fastest round is the fairer peer of the service's CPU time, the median is shown too.
    service = statistics.mean(cpu[1:])
    print(f"ratio     layoutd server CPU / Chromium forced layout: {service / min(chrome['times'][1:]):.2f} against "
          f"Chromium's fastest round, {service / med(chrome['times'][1:]):.2f} against its median (target <= 0.5)")
    print(f"chromium  CPU time per innerHTML + forced layout round (all processes; {args.rounds + 1} rounds "
          f"less 1): {chrome_cpu:.1f} ms")
    print(f"ratio     CPU against CPU: layoutd {service:.1f} ms mean server CPU / Chromium {chrome_cpu:.1f} ms = "
          f"{service / chrome_cpu:.2f} (target <= 0.5)")
    # On a loaded machine both sides' fastest rounds are the least disturbed ones.
    print(f"ratio     fastest against fastest: layoutd {min(cpu[1:]):.1f} ms server CPU / Chromium "
          f"{min(chrome['times'][1:]):.1f} ms = {min(cpu[1:]) / min(chrome['times'][1:]):.2f}")
    print(f"ratio     layoutd cold / warm (first request / median of the rest, wall): {wall[0] / med(wall[1:]):.2f}")
    print(f"check     feed height: layoutd {answer['root']['height']:.2f}, Chromium {chrome['height']}")
    agree, differ = frames_agree(answer["root"], chrome["frames"])
    print(f"check     {agree}/{agree + sum(differ.values())} boxes agree with Chromium (1/32 px, height 0.05 px)"
          + "".join(f"; {n} {kind}" for kind, n in differ.most_common(6)))
    for line in metrics:
        print(f"metrics   {line}")
    if args.trials > 1:
        ratios = [service / chrome_cpu]
        for trial in range(2, args.trials + 1):
            trial_chrome = chromium_cpu_per_round(request, args.rounds)
            trial_service = statistics.mean(service_times(args.layoutd, request, args.rounds)[1][1:])
            ratios.append(trial_service / trial_chrome)
            print(f"trial {trial}   CPU against CPU: layoutd {trial_service:.1f} ms / Chromium {trial_chrome:.1f} ms "
                  f"= {ratios[-1]:.2f}")
        print(f"ratio     CPU against CPU over {args.trials} trials: median {med(ratios):.2f} "
              f"(each: {', '.join(f'{r:.2f}' for r in ratios)}; target <= 0.5)")
    if os.path.exists(args.text_bench):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(request, f)
            f.flush()
            # The cards' content width: 360 - 2 x 8 (feed padding) - 2 x (12 + 1) (card padding, border).
            sys.stdout.write(subprocess.run([args.text_bench, f.name, "--width", "318", "--rounds", str(args.rounds)],
                                            capture_output=True, text=True, check=True).stdout)
    else:
        print(f"# no {args.text_bench}: shaping cache figures skipped (swift build -c release --product text-bench)")


if __name__ == "__main__":
    main()
