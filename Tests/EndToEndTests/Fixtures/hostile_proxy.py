#!/usr/bin/env python3
"""A hostile Herald server for tests: forwards every request to a real `herald serve` (UPSTREAM) and answers with the
real answer in which every free-text string (names, texts, ids, reasons, links) carries terminal escape sequences:
OSC title and clipboard writes, CSI colours, C1 CSI, BEL. What a client sends back (an id it was given) is cleaned of
them before it is forwarded, so every command works as on a real server. The messaging feature is announced as
version 1, so terminals short-poll a JSON queue instead of the event stream. Loopback only; prints its address."""
import http.client, http.server, json, sys, urllib.parse

UPSTREAM_HOST, UPSTREAM_PORT = sys.argv[1], int(sys.argv[2])
HOSTILE = "\x1b]0;owned\x07\x1b]52;c;SGVsbG8=\x07\x1b[31m\x9b1m\x07"
TEXT_KEYS = {"name", "text", "title", "body", "topic", "reason", "url", "referrer", "placeholder", "key", "messageId",
             "bulkId", "code", "clientPlaceholder", "description", "applicationKey", "defaultMessageKey", "keyId"}


def poison(value, key=None):
    if isinstance(value, dict):
        return {k: poison(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [poison(v, key) for v in value]
    if isinstance(value, str) and key in TEXT_KEYS:
        return value + HOSTILE
    return value


def clean(text):
    return text.replace(HOSTILE, "")


def clean_json(value):
    if isinstance(value, dict):
        return {k: clean_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_json(v) for v in value]
    return clean(value) if isinstance(value, str) else value


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if body:
            body = json.dumps(clean_json(json.loads(body))).encode()
        parts = urllib.parse.urlsplit(self.path)
        path = "/".join(urllib.parse.quote(clean(urllib.parse.unquote(s)), safe="") for s in parts.path.split("/"))
        query = urllib.parse.urlencode([(k, clean(v)) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)])
        headers = {k: clean(v) for k, v in self.headers.items() if k.lower() not in ("host", "content-length", "connection")}
        upstream = http.client.HTTPConnection(UPSTREAM_HOST, UPSTREAM_PORT, timeout=30)
        upstream.request(self.command, path + ("?" + query if query else ""), body=body, headers=headers)
        answer = upstream.getresponse()
        data = answer.read()
        if answer.getheader("Content-Type", "").startswith("application/json") and data:
            document = json.loads(data)
            if parts.path == "/1/features":
                document["features"]["messaging"] = 1
            data = json.dumps(poison(document)).encode()
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
