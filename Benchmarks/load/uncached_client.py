#!/usr/bin/env python3
"""Sends COUNT /compute requests over one keep-alive connection (stdlib only).

  uncached_client.py PORT COUNT TEMPLATE [FIRST]

Each request is TEMPLATE (make_requests.py's tree1000.template) with the root width and
padding uncached.lua would give request number FIRST + i, so every request is a new tree (a
cache miss) and two runs with the same FIRST send the same bytes. A TEMPLATE without the
placeholders (request.json) is sent as it is: every request after the first is a cache hit.
Fails on any answer but 200.
"""
import http.client
import sys


def body(template, k):
    if "@W@" not in template:
        return template
    width = "%.2f" % (300 + (k % 100000) / 100)
    padding = "%.2f" % ((k // 100000 % 1000) / 100)
    return template.replace("@W@", width, 1).replace("@P@", padding, 1)


def main():
    port, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    with open(path) as f:
        template = f.read()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    for i in range(count):
        connection.request("POST", "/compute", body(template, first + i), {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        if response.status != 200:
            sys.exit(f"request {i}: HTTP {response.status}: {answer[:300]!r}")
    connection.close()


if __name__ == "__main__":
    main()
