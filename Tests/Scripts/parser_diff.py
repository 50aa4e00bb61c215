#!/usr/bin/env python3
"""Differential test of HTTP/1.1 request parsing: h11 and httptools (PyPI) against layoutd.

Feeds each attack byte string (request smuggling and framing edge cases) to h11, to
httptools, and to a live layoutd on 127.0.0.1, and prints a Markdown table of who accepts and
who rejects, with what RFC 9112 / RFC 9110 require. For every disagreement it adds one line
saying which side is right. `--out FILE` also writes the table there.

    pip install h11 httptools
    Tests/Scripts/parser_diff.py --binary .build/release/layoutd [--out /work/notes/parser-diff.md]
    Tests/Scripts/parser_diff.py --port 8080        # an already running server

Verdicts: "accept" = a complete request was parsed (for ours: the router answered, e.g. 200,
404 or 405); "reject" = a parse error (ours: 400/413/414/431/501/505 from the HTTP layer);
"incomplete" = the parser still waits for bytes (ours: closed at EOF without an answer).
"""
import argparse
import socket
import subprocess
import sys
import time

import h11
import httptools

HOST = "127.0.0.1"

# (name, bytes, RFC expectation: "accept" | "reject" | "either", reason)
CASES = [
    ("baseline GET", b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", "accept", "well-formed"),
    ("baseline POST with Content-Length", b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
     "accept", "well-formed"),
    ("Content-Length + Transfer-Encoding",
     b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
     "either", "9112 §6.1: MAY reject, or use Transfer-Encoding and close after"),
    ("two different Content-Lengths",
     b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
     "reject", "9112 §6.3(5): invalid Content-Length → 400 and close"),
    ("two equal Content-Lengths",
     b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
     "either", "9110 §8.6: MAY reject or fold identical values"),
    ("Content-Length list '2, 2'", b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\n\r\n{}",
     "either", "9110 §8.6: MAY reject or fold identical values"),
    ("signed Content-Length +2", b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: +2\r\n\r\n{}",
     "reject", "9110 §8.6: 1*DIGIT only"),
    ("negative Content-Length", b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
     "reject", "9110 §8.6: 1*DIGIT only"),
    ("hex Content-Length 0x2", b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 0x2\r\n\r\n{}",
     "reject", "9110 §8.6: 1*DIGIT only"),
    ("huge Content-Length (2^64+)", b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n",
     "reject", "9112 §6.3: must not overflow; 400 or 413"),
    ("Content-Length with inner space", b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 1 0\r\n\r\n0123456789",
     "reject", "9110 §8.6: 1*DIGIT only"),
    ("Content-Length leading zeros 002", b"POST /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 002\r\n\r\n{}",
     "accept", "1*DIGIT allows leading zeros"),
    ("bare LF line endings", b"GET /healthz HTTP/1.1\nHost: a\n\n",
     "either", "9112 §2.2: MAY accept a bare LF as a line terminator"),
    ("bare CR in a header value", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n",
     "reject", "9112 §2.2: bare CR MUST be rejected or replaced by SP (reject is safe)"),
    ("obs-fold continuation line", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n",
     "either", "9112 §5.2: server MUST reject (400) or replace obs-fold with SP"),
    ("whitespace before colon", b"GET /healthz HTTP/1.1\r\nHost : a\r\n\r\n",
     "reject", "9112 §5.1: MUST reject with 400"),
    ("Transfer-Encoding with space before colon",
     b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
     "reject", "9112 §5.1: MUST reject with 400 (classic smuggling vector)"),
    ("invalid chunk size 'zz'", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n0\r\n\r\n",
     "reject", "9112 §7.1: chunk-size = 1*HEXDIG"),
    ("chunk size 0x prefix", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\n{}\r\n0\r\n\r\n",
     "reject", "9112 §7.1: chunk-size = 1*HEXDIG"),
    ("chunk size overflow", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffffffff\r\n{}\r\n0\r\n\r\n",
     "reject", "9112 §7.1: MUST anticipate overflow and treat as error"),
    ("negative chunk size", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-2\r\n{}\r\n0\r\n\r\n",
     "reject", "9112 §7.1: chunk-size = 1*HEXDIG"),
    ("chunk extension, quoted value", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;name=\"v a\"\r\n{}\r\n0\r\n\r\n",
     "accept", "9112 §7.1.1: valid chunk-ext; MUST ignore unknown extensions"),
    ("chunk extension with control char", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;a\x01b\r\n{}\r\n0\r\n\r\n",
     "reject", "9112 §7.1.1: not a token; invalid syntax"),
    ("chunk size with trailing space", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2 \r\n{}\r\n0\r\n\r\n",
     "either", "9112 §7.1.1: BWS is only defined before ';' (strictly invalid, widely tolerated)"),
    ("chunk data longer than its size", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}xx\r\n0\r\n\r\n",
     "reject", "9112 §7.1: chunk-data must be followed by CRLF"),
    ("chunked line with bare LF", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\n{}\n0\n\n",
     "either", "9112 §2.2: MAY accept bare LF"),
    ("Transfer-Encoding: chunked, then gzip",
     b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n",
     "reject", "9112 §6.3(4): chunked not final in a request → 400 and close"),
    ("Transfer-Encoding: xchunked", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n",
     "reject", "9112 §6.1: unknown coding → 501 (or 400 since chunked is not final)"),
    ("Transfer-Encoding: chunked twice", b"POST /healthz HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
     "reject", "9112 §6.1: MUST NOT apply chunked more than once"),
    ("Transfer-Encoding in HTTP/1.0", b"POST /healthz HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
     "either", "9112 §6.1: framing is faulty; MUST close after processing (reject is safest)"),
    ("missing Host (HTTP/1.1)", b"GET /healthz HTTP/1.1\r\n\r\n", "reject", "9112 §3.2: MUST respond 400"),
    ("two Host headers", b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "reject", "9112 §3.2: MUST respond 400"),
    ("missing Host (HTTP/1.0)", b"GET /healthz HTTP/1.0\r\n\r\n", "accept", "Host is only required in HTTP/1.1"),
    ("absolute-form target", b"GET http://a/healthz HTTP/1.1\r\nHost: a\r\n\r\n", "accept",
     "9112 §3.2.2: a server MUST accept the absolute-form"),
    ("asterisk-form with GET", b"GET * HTTP/1.1\r\nHost: a\r\n\r\n", "reject", "9112 §3.2.4: '*' only for OPTIONS"),
    ("fragment in target", b"GET /healthz#x HTTP/1.1\r\nHost: a\r\n\r\n", "reject",
     "9112 §3.2: request-target has no fragment"),
    ("double space in request line", b"GET  /healthz HTTP/1.1\r\nHost: a\r\n\r\n", "either",
     "9112 §3: MAY parse on whitespace boundaries"),
    ("lowercase http/1.1", b"GET /healthz http/1.1\r\nHost: a\r\n\r\n", "reject", "9112 §2.3: HTTP-name is case-sensitive"),
    ("HTTP/2.0 in an HTTP/1 request line", b"GET /healthz HTTP/2.0\r\nHost: a\r\n\r\n", "reject", "505 (unsupported major)"),
    ("HTTP/1.2", b"GET /healthz HTTP/1.2\r\nHost: a\r\n\r\n", "either", "9112 §2.3: treat as highest 1.x supported (or 505)"),
    ("invalid method char", b"GE(T /healthz HTTP/1.1\r\nHost: a\r\n\r\n", "reject", "9110 §9: method is a token"),
    ("control char in header name", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX\x01Y: z\r\n\r\n", "reject", "9110 §5.1: field-name is a token"),
    ("NUL in header value", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n", "reject",
     "9110 §5.5: NUL MUST be rejected or replaced by SP"),
    ("obs-text in header value", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX: caf\xe9\r\n\r\n", "accept", "9110 §5.5: obs-text allowed"),
    ("empty header name", b"GET /healthz HTTP/1.1\r\nHost: a\r\n: v\r\n\r\n", "reject", "9110 §5.1: field-name is 1*tchar"),
    ("header line without colon", b"GET /healthz HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", "reject", "9112 §5: field-line needs ':'"),
    ("leading empty line", b"\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", "accept",
     "9112 §2.2: SHOULD ignore at least one empty line before the request line"),
    ("Host with userinfo", b"GET /healthz HTTP/1.1\r\nHost: user@a\r\n\r\n", "reject", "9110 §7.2: Host = uri-host [:port], no userinfo"),
    ("header name with trailing tab", b"GET /healthz HTTP/1.1\r\nHost\t: a\r\n\r\n", "reject", "9112 §5.1: no whitespace before colon"),
]


# ------------------------------------------------------------------------------ the parsers
def run_h11(data):
    conn = h11.Connection(h11.SERVER)
    try:
        conn.receive_data(data)
        got_request = False
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                return "incomplete" if not got_request else "incomplete"
            if isinstance(event, h11.Request):
                got_request = True
            if isinstance(event, h11.EndOfMessage):
                return "accept"
            if event is h11.PAUSED:
                return "accept"
    except h11.RemoteProtocolError as error:
        return "reject"


def run_httptools(data):
    done = []

    class Callbacks:
        def on_message_complete(self):
            done.append(True)

    parser = httptools.HttpRequestParser(Callbacks())
    try:
        parser.feed_data(data)
    except httptools.HttpParserUpgrade:
        return "accept"
    except httptools.HttpParserError:
        return "reject"
    return "accept" if done else "incomplete"


def run_ours(data, port):
    """Sends the bytes, half-closes, reads the answer; classifies by status."""
    try:
        with socket.create_connection((HOST, port), timeout=5) as sock:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
            received = b""
            while True:
                try:
                    chunk = sock.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                received += chunk
    except OSError as error:
        return f"error ({error})", None
    if not received:
        return "incomplete", None
    status = int(received.split(b" ", 2)[1])
    if status in (200, 404, 405, 415):
        return "accept", status
    return "reject", status


def rfc_ok(verdict, expectation):
    if expectation == "either":
        return verdict in ("accept", "reject")
    return verdict == expectation


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/layoutd")
    parser.add_argument("--port", type=int, help="use a server already listening on 127.0.0.1:PORT")
    parser.add_argument("--out", help="also write the Markdown report to this file")
    args = parser.parse_args()

    server = None
    port = args.port
    if port is None:
        with socket.socket() as s:
            s.bind((HOST, 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([args.binary, "serve", "--host", HOST, "--port", str(port), "--log-level", "error"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection((HOST, port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
    lines = [
        f"# HTTP/1.1 request parsing: h11 {h11.__version__}, httptools {httptools.__version__}, layoutd",
        "",
        "Generated by `Tests/Scripts/parser_diff.py`. accept = a complete request was parsed (layoutd: the",
        "router answered); reject = parse error (layoutd's status in brackets); incomplete = still waiting",
        "for bytes. RFC = what RFC 9112 / 9110 require (either = both are allowed).",
        "",
        "| # | case | h11 | httptools | layoutd | RFC | note |",
        "|---|------|-----|-----------|---------|-----|------|",
    ]
    disagreements = []
    wrong_ours = []
    try:
        for i, (name, data, expectation, reason) in enumerate(CASES, 1):
            a = run_h11(data)
            b = run_httptools(data)
            c, status = run_ours(data, port)
            ours = f"{c} ({status})" if status else c
            lines.append(f"| {i} | {name} | {a} | {b} | {ours} | {expectation} | {reason} |")
            if len({a, b, c}) > 1:
                right = [who for who, v in (("h11", a), ("httptools", b), ("layoutd", c)) if rfc_ok(v, expectation)]
                wrong = [who for who, v in (("h11", a), ("httptools", b), ("layoutd", c)) if not rfc_ok(v, expectation)]
                if not wrong:
                    verdict = f"all three are allowed ({reason})"
                else:
                    verdict = (f"{', '.join(right) or 'none'} right, {', '.join(wrong)} wrong — {reason}"
                               + ("" if all(v != "incomplete" for v in (a, b, c)) else
                                  " (incomplete: that parser frames the bytes differently and waits for more —"
                                  " a desync between it and a strict peer)"))
                disagreements.append(f"- #{i} {name}: h11 {a}, httptools {b}, layoutd {c} → {verdict}.")
            if not rfc_ok(c, expectation):
                wrong_ours.append(f"#{i} {name}")
    finally:
        if server:
            server.terminate()
            server.wait(timeout=10)
    lines += ["", f"## Disagreements ({len(disagreements)})", ""] + (disagreements or ["(none)"])
    lines += ["", "h11 and httptools are libraries: some checks (version, Host, target form) are left to the "
              "server above them, so their 'accept' there is not necessarily what a server built on them answers."]
    lines += ["", f"layoutd against the RFC column: {len(CASES) - len(wrong_ours)}/{len(CASES)} as required"
              + (f"; not as required: {', '.join(wrong_ours)}" if wrong_ours else "") + "."]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    sys.exit(1 if wrong_ours else 0)


if __name__ == "__main__":
    main()
