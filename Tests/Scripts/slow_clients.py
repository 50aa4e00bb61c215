#!/usr/bin/env python3
"""Slow and many clients against layoutd on 127.0.0.1 (stdlib only, bounded: < 2 minutes).

Starts its own `layoutd serve` (short timeouts so the run stays short) and runs three phases:

1. slowloris: hundreds of connections send a request head one byte every second; the server
   must close each at its header timeout (not later because bytes keep trickling in), and a
   normal request must still be answered meanwhile.
2. slow readers: connections with a tiny receive window pipeline requests with large answers
   and never read; the server must give up on them at its write timeout, and serve others.
3. many clients at a low fd limit: the server runs with `ulimit -n` low; a few keep-alive
   connections are opened first, then thousands of connections at once. The accept loop must
   back off (server CPU is measured while it is at its fd limit), the existing connections
   must keep working, and the server must recover once the flood is gone.

Prints one line of figures per check and PASS/FAIL; exit status 1 if any check failed.

    Tests/Scripts/slow_clients.py --binary .build/release/layoutd
"""
import argparse
import os
import resource
import select
import socket
import subprocess
import sys
import threading
import time

HOST = "127.0.0.1"
FAILURES = []


def check(ok, label, figures):
    print(f"{'PASS' if ok else 'FAIL'} {label}: {figures}", flush=True)
    if not ok:
        FAILURES.append(label)


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """A layoutd child process with its own fd limit."""

    def __init__(self, binary, fd_limit, header_timeout, write_timeout, idle_timeout, port=0, extra_args=()):
        self.port = port or free_port()
        args = [binary, "serve", "--host", HOST, "--port", str(self.port),
                "--header-timeout", str(header_timeout), "--write-timeout", str(write_timeout),
                "--idle-timeout", str(idle_timeout), "--body-timeout", str(header_timeout),
                "--log-level", "error", *extra_args]

        def limit_fds():
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

        self.process = subprocess.Popen(args, preexec_fn=limit_fds, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        self.sampled_peak = 0
        threading.Thread(target=self._sample, daemon=True).start()
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                if request("GET", "/healthz", port=self.port, timeout=1)[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise SystemExit("layoutd did not start")

    @property
    def pid(self):
        return self.process.pid

    def cpu_seconds(self):
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def open_fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def rss_kib(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def peak_rss_mib(self):
        """The highest RSS sampled since the last call (sampled every 20 ms), in MiB."""
        peak, self.sampled_peak = self.sampled_peak, 0
        return max(peak, self.rss_kib()) / 1024

    def _sample(self):
        while self.process.poll() is None:
            try:
                self.sampled_peak = max(self.sampled_peak, self.rss_kib())
            except OSError:
                return
            time.sleep(0.02)

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def read_response(sock, timeout):
    """Reads one HTTP/1.1 response with Content-Length; returns (status, body)."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise OSError("closed before a response head")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise OSError("closed inside a response body")
        body += chunk
    return status, body[:length]


def request_bytes(method, path, body=b"", close=True):
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\n"
    if close:
        head += "Connection: close\r\n"
    if body or method == "POST":
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


def request(method, path, body=b"", port=None, timeout=5):
    """One request on a fresh connection; returns (status, body, seconds)."""
    started = time.time()
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(request_bytes(method, path, body))
        status, answer = read_response(sock, timeout)
    return status, answer, time.time() - started


NORMAL = b'{"root":{"style":{"width":100,"height":50},"children":[{"style":{"flexGrow":1}}]}}'


def wide_tree(children):
    """A small request with a large answer: every `{}` child comes back as a full frame."""
    return ('{"root":{"style":{"width":800},"children":[%s]}}' % ",".join(["{}"] * children)).encode()


def metric(port, name, timeout=5):
    status, body, _ = request("GET", "/metrics", port=port, timeout=timeout)
    for line in body.decode().splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    return None


# ----------------------------------------------------------------------------------- phases
def slowloris(server, count, header_timeout):
    socks, opened = [], {}
    for _ in range(count):
        s = socket.create_connection((HOST, server.port), timeout=5)
        s.setblocking(False)
        socks.append(s)
        opened[s] = time.time()
    head = b"POST /compute HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    position = {s: 0 for s in socks}
    closed_after = {}
    limit = header_timeout + 8
    deadline = time.time() + limit
    normal_latency = None
    next_tick = time.time()
    while socks and time.time() < deadline:
        now = time.time()
        if now >= next_tick:
            for s in list(socks):
                try:
                    s.send(head[position[s]:position[s] + 1])
                    position[s] = (position[s] + 1) % len(head)
                except OSError:
                    closed_after[s] = time.time() - opened[s]
                    socks.remove(s)
                    s.close()
            next_tick = now + 1.0
            if normal_latency is None and now - min(opened.values()) > header_timeout / 2:
                status, _, normal_latency = request("POST", "/compute", NORMAL, port=server.port)
                check(status == 200, "slowloris: normal request while trickling",
                      f"status {status} in {normal_latency * 1000:.1f} ms")
        readable, _, _ = select.select(socks, [], [], 0.2) if socks else ([], [], [])
        for s in readable:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data or b" 408 " in data[:20]:
                # Either the 408 answer or the close; both end the connection from the server.
                closed_after[s] = time.time() - opened[s]
                socks.remove(s)
                s.close()
    for s in socks:
        s.close()
    times = sorted(closed_after.values())
    still_open = count - len(times)
    figures = (f"{count} connections, {len(times)} closed by the server, {still_open} still open after "
               f"{limit:.0f} s; close after min {times[0]:.1f} / median {times[len(times) // 2]:.1f} / "
               f"max {times[-1]:.1f} s (header timeout {header_timeout} s)") if times else f"none closed of {count}"
    check(still_open == 0 and times and times[-1] <= header_timeout + 3 and times[0] >= header_timeout - 1,
          "slowloris: dropped at the header timeout", figures)


def slow_readers(server, count, write_timeout, header_timeout):
    body = wide_tree(50_000)
    status, answer, seconds = request("POST", "/compute", body, port=server.port)
    check(status == 200, "slow readers: one large answer", f"{len(answer)} bytes in {seconds * 1000:.1f} ms")
    pipelined = 16
    socks = []
    for _ in range(count):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect((HOST, server.port))
        s.setblocking(False)
        payload = request_bytes("POST", "/compute", body, close=False) * pipelined
        try:
            s.send(payload)  # whatever fits; the server will stop reading anyway
        except OSError:
            pass
        socks.append(s)
    started = time.time()
    time.sleep(1.5)
    during = metric(server.port, "layoutd_open_connections", timeout=15)
    cpu0, t0 = server.cpu_seconds(), time.time()
    try:
        status, _, latency = request("POST", "/compute", NORMAL, port=server.port, timeout=15)
    except OSError as error:
        status, latency = f"none ({error})", time.time() - t0
    check(status == 200 and latency < 1, "slow readers: normal request while they stall",
          f"status {status} in {latency * 1000:.1f} ms; open connections {during or -1:.0f}; server RSS "
          f"{server.rss_kib() // 1024} MiB, CPU {(server.cpu_seconds() - cpu0) / (time.time() - t0) * 100:.0f}% "
          f"of a core meanwhile")
    # After the write timeout the server must have dropped them: draining now ends in EOF/reset
    # well before all pipelined answers (16 × large) have arrived. A reader the server-wide
    # output bound kept waiting is either closed at its header timeout or served late and
    # closed at the write timeout after that.
    wait = write_timeout + header_timeout + 3
    time.sleep(max(0.0, wait - (time.time() - started)))
    after = metric(server.port, "layoutd_open_connections", timeout=15)
    rss_after = server.rss_kib() // 1024
    dropped, completed, received, refused = 0, 0, [], 0
    for s in socks:
        s.setblocking(True)
        s.settimeout(2)
        total, answers, tail = 0, 0, b""
        try:
            while True:
                chunk = s.recv(1 << 16)
                if not chunk:
                    dropped += 1
                    break
                total += len(chunk)
                # Status lines (13 bytes; the 12 kept from the last chunk cannot hold a whole
                # one, so none is counted twice).
                window = tail + chunk
                answers += window.count(b"HTTP/1.1 200 ") + window.count(b"HTTP/1.1 503 ")
                refused += window.count(b"HTTP/1.1 503 ")
                tail = window[-12:]
        except ConnectionResetError:
            dropped += 1
        except socket.timeout:
            pass
        received.append(total)
        # Every request answered (large answers, or 503 overloaded once large layouts waiting
        # filled the compute memory budget): the server never stalled on it.
        completed += answers >= pipelined
        s.close()
    full = len(answer) * pipelined
    # Readers still open after the wait are the ones that got every answer (kept alive).
    check(dropped + completed >= count and (after or 0) <= 2 + completed,
          "slow readers: dropped at the write timeout",
          f"{count} readers, {dropped} closed by the server, {completed} got an answer to every request "
          f"({refused} answers were 503 overloaded); each had received ≤ {max(received)} of {full} bytes; "
          f"open connections {during or -1:.0f} → {after or -1:.0f} after {wait} s; RSS {rss_after} MiB; "
          f"{metric(server.port, 'layoutd_buffer_closed_connections_total') or 0:.0f} closed by the buffer bound, "
          f"{metric(server.port, 'layoutd_compute_memory_waits_total') or 0:.0f} large layouts waited for the compute "
          f"memory budget")


def flood(server, count, fd_limit, hold_seconds):
    keep = []
    for _ in range(4):
        s = socket.create_connection((HOST, server.port), timeout=5)
        s.sendall(request_bytes("POST", "/compute", NORMAL, close=False))
        status, _ = read_response(s, 5)
        assert status == 200
        keep.append(s)
    fds_before = server.open_fds()
    cpu_before = server.cpu_seconds()
    flood_socks, refused = [], 0
    started = time.time()
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        err = s.connect_ex((HOST, server.port))
        if err not in (0, 115):  # EINPROGRESS
            refused += 1
            s.close()
            continue
        flood_socks.append(s)
    connect_seconds = time.time() - started
    time.sleep(1.0)
    fds_at_limit = server.open_fds()
    # CPU while the server sits at its fd limit with a full backlog.
    cpu_start, wall_start = server.cpu_seconds(), time.time()
    ok_requests, failed_requests, worst = 0, 0, 0.0
    while time.time() - wall_start < hold_seconds:
        for s in keep:
            t = time.time()
            try:
                s.sendall(request_bytes("POST", "/compute", NORMAL, close=False))
                status, _ = read_response(s, 5)
                ok_requests += status == 200
                failed_requests += status != 200
            except OSError:
                failed_requests += 1
            worst = max(worst, time.time() - t)
        time.sleep(0.25)
    cpu_share = (server.cpu_seconds() - cpu_start) / (time.time() - wall_start)
    check(cpu_share < 0.25, "flood: accept backs off at the fd limit",
          f"{len(flood_socks)} connections opened in {connect_seconds:.2f} s ({refused} refused at once); "
          f"server fds {fds_before} → {fds_at_limit} (limit {fd_limit}); server CPU {cpu_share * 100:.1f}% of a core "
          f"over {hold_seconds} s")
    check(failed_requests == 0 and ok_requests > 0, "flood: existing keep-alive connections keep working",
          f"{ok_requests} ok, {failed_requests} failed, slowest {worst * 1000:.1f} ms")
    for s in flood_socks:
        s.close()
    for s in keep:
        s.close()
    # Recovery: the server drops the dead flood connections (header timeout at worst) and
    # answers new clients.
    deadline = time.time() + 15
    status = None
    while time.time() < deadline:
        try:
            status, _, latency = request("POST", "/compute", NORMAL, port=server.port, timeout=3)
            if status == 200:
                break
        except OSError:
            time.sleep(0.5)
    time.sleep(1)
    check(status == 200 and server.alive(), "flood: recovers afterwards",
          f"new request status {status}; server fds now {server.open_fds()}; alive {server.alive()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/layoutd")
    parser.add_argument("--slowloris", type=int, default=300, help="slowloris connections")
    parser.add_argument("--slow-readers", type=int, default=40)
    parser.add_argument("--flood", type=int, default=3000, help="connections opened at once in phase 3")
    parser.add_argument("--fd-limit", type=int, default=256, help="ulimit -n of the server in phase 3")
    parser.add_argument("--header-timeout", type=int, default=4)
    parser.add_argument("--write-timeout", type=int, default=4)
    parser.add_argument("--hold", type=int, default=8, help="seconds to hold the flood")
    parser.add_argument("--port", type=int, default=0,
                        help="port of the first server (the second uses the next one); 0: free ones")
    parser.add_argument("--server-args", default="",
                        help="further `layoutd serve` options, split on spaces (e.g. \"--max-buffered-output-bytes-total 8M\")")
    parser.add_argument("--max-rss-mib", type=float, default=95.0,
                        help="peak server RSS (sampled every 20 ms) each phase must stay under")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    started = time.time()

    peaks = []
    extra = args.server_args.split()
    server = Server(args.binary, 4096, args.header_timeout, args.write_timeout, idle_timeout=30, port=args.port,
                    extra_args=extra)
    try:
        rss0, fds0 = server.rss_kib(), server.open_fds()
        server.peak_rss_mib()
        slowloris(server, args.slowloris, args.header_timeout)
        peaks.append(("slowloris", server.peak_rss_mib()))
        slow_readers(server, args.slow_readers, args.write_timeout, args.header_timeout)
        peaks.append(("slow readers", server.peak_rss_mib()))
        check(server.alive(), "phases 1-2: server alive",
              f"RSS {rss0} → {server.rss_kib()} KiB, fds {fds0} → {server.open_fds()}")
    finally:
        server.stop()

    server = Server(args.binary, args.fd_limit, args.header_timeout, args.write_timeout, idle_timeout=30,
                    port=args.port + 1 if args.port else 0, extra_args=extra)
    try:
        server.peak_rss_mib()
        flood(server, args.flood, args.fd_limit, args.hold)
        peaks.append(("flood", server.peak_rss_mib()))
    finally:
        server.stop()
        err = server.process.stderr.read().decode(errors="replace").strip()
        if err:
            print("server stderr (last lines):", *err.splitlines()[-5:], sep="\n  ")

    check(all(peak < args.max_rss_mib for _, peak in peaks), "peak RSS per phase",
          ", ".join(f"{name} {peak:.1f} MiB" for name, peak in peaks) + f" (bound {args.max_rss_mib} MiB)")
    print(f"total {time.time() - started:.1f} s; {len(FAILURES)} failed: {', '.join(FAILURES) or '-'}")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
