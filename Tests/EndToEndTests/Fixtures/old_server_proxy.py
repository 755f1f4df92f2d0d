#!/usr/bin/env python3
"""A Herald server from before wire versions, for tests: forwards every request to a real `herald serve` (UPSTREAM) and
takes out of its JSON answers what older servers did not tell (version, commit, wire). The messaging feature is
announced as version 1, so terminals short-poll instead of holding an event stream through it. Loopback only; prints
its address."""
import http.client, http.server, json, sys

UPSTREAM_HOST, UPSTREAM_PORT = sys.argv[1], int(sys.argv[2])
NEWER = {"version", "commit", "wire"}


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length", "connection")}
        upstream = http.client.HTTPConnection(UPSTREAM_HOST, UPSTREAM_PORT, timeout=30)
        upstream.request(self.command, self.path, body=body, headers=headers)
        answer = upstream.getresponse()
        data = answer.read()
        if answer.getheader("Content-Type", "").startswith("application/json") and data:
            document = json.loads(data)
            if isinstance(document, dict):
                document = {k: v for k, v in document.items() if k not in NEWER}
                if self.path.startswith("/1/features"):
                    document["features"]["messaging"] = 1
            data = json.dumps(document).encode()
        self.send_response(answer.status)
        for name in ("Content-Type", "Retry-After"):
            if answer.getheader(name):
                self.send_header(name, answer.getheader(name))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    do_GET = do_POST = do_PUT = do_DELETE = forward

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
