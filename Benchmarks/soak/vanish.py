#!/usr/bin/env python3
"""Clients that vanish mid-request, for the soak (stdlib only).

Runs beside wrk for --seconds: --workers threads each open connection after connection to
layoutd and abandon it part-way, in turn:

  head       half a request head, then close
  body       a whole head and half its body, then close
  unread     a whole request for an uncached tree, then close without reading the answer
  reset      a whole request, read a few bytes of the answer, then reset (SO_LINGER 0)
  stall      half a body, then silence for --stall seconds, then close

Each worker paces itself to --rate connections per second. Prints one line
`vanish-counts head=N body=N unread=N reset=N stall=N errors=N` at the end (errors: connects
refused or reset before the abandon, which must stay 0 while the server is healthy).

    Benchmarks/soak/vanish.py --port 8080 --seconds 1800
"""
import argparse
import socket
import struct
import threading
import time

MODES = ["head", "body", "unread", "reset", "stall"]


def tree(seed):
    children = ",".join('{"style":{"flexGrow":%d,"height":%d}}' % (i % 3, 10 + (seed + i) % 30) for i in range(40))
    return ('{"root":{"style":{"flexDirection":"row","flexWrap":"wrap","width":%.3f},"children":[%s]}}'
            % (300 + (seed % 1000000) / 1000, children)).encode()


def request(body):
    return (b"POST /compute HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body


def worker(index, args, counts, lock, stop_at):
    seed = index * 100_000_000 + 50_000_000  # apart from mix.lua's counters
    turn = 0
    interval = 1.0 / args.rate
    while time.time() < stop_at:
        started = time.time()
        mode = MODES[turn % len(MODES)]
        turn += 1
        seed += 1
        whole = request(tree(seed))
        head_end = whole.index(b"\r\n\r\n") + 4
        try:
            with socket.create_connection(("127.0.0.1", args.port), timeout=5) as s:
                if mode == "head":
                    s.sendall(whole[:head_end // 2])
                elif mode == "body":
                    s.sendall(whole[:head_end + (len(whole) - head_end) // 2])
                elif mode == "unread":
                    s.sendall(whole)
                elif mode == "reset":
                    s.sendall(whole)
                    s.recv(16)
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                elif mode == "stall":
                    s.sendall(whole[:head_end + (len(whole) - head_end) // 2])
                    time.sleep(args.stall)
            with lock:
                counts[mode] += 1
        except OSError:
            with lock:
                counts["errors"] += 1
        time.sleep(max(0.0, interval - (time.time() - started)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rate", type=float, default=25.0, help="connections per second per worker")
    parser.add_argument("--stall", type=float, default=1.0, help="seconds a `stall` client waits before closing")
    args = parser.parse_args()
    counts = {mode: 0 for mode in MODES}
    counts["errors"] = 0
    lock = threading.Lock()
    stop_at = time.time() + args.seconds
    threads = [threading.Thread(target=worker, args=(i, args, counts, lock, stop_at), daemon=True)
               for i in range(args.workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("vanish-counts " + " ".join(f"{name}={count}" for name, count in counts.items()), flush=True)


if __name__ == "__main__":
    main()
