"""The forwarding half of the tests' proxies: every request goes to a real `herald serve` (UPSTREAM_HOST UPSTREAM_PORT,
the first two arguments) and every JSON answer passes through a rewrite on its way back. The messaging feature is
announced as version 1, so terminals short-poll a JSON queue through the proxy instead of an event stream. Loopback
only; prints its address once it listens."""
import http.client, http.server, json, sys


def serve(answer, request=lambda path, body, headers: (path, body, headers)):
    """Forwards until killed. `answer(document, path)` rewrites a JSON answer; `request(path, body, headers)` what a
    client sends (path with its query, body bytes or None, headers without Host, Content-Length and Connection)."""
    upstream_host, upstream_port = sys.argv[1], int(sys.argv[2])

    class Proxy(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length", "connection")}
            path, body, headers = request(self.path, self.rfile.read(length) if length else None, headers)
            upstream = http.client.HTTPConnection(upstream_host, upstream_port, timeout=30)
            upstream.request(self.command, path, body=body, headers=headers)
            reply = upstream.getresponse()
            data = reply.read()
            if reply.getheader("Content-Type", "").startswith("application/json") and data:
                document = json.loads(data)
                if path.split("?")[0] == "/1/features":
                    document["features"]["messaging"] = 1
                data = json.dumps(answer(document, path)).encode()
            self.send_response(reply.status)
            for name in ("Content-Type", "Retry-After"):
                if reply.getheader(name):
                    self.send_header(name, reply.getheader(name))
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
