"""A DAV server whose discovery answers lead astray, for Herald's discovery tests.

Usage: discovery_redirects.py PORT. Paths:
  /loop/N        302 to /loop/N+1, without end
  /offsite       301 to another host (http://elsewhere.invalid/dav/)
  /downgrade     a principal on another origin over http (http://elsewhere.invalid/principal/)
  /big           a 207 of 6 MiB
  /.well-known/carddav  301 to /loop/0
"""
import http.server
import socketserver
import sys

PORT = int(sys.argv[1])


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, headers=(), body=b""):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_PROPFIND(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        path = self.path
        if path.startswith("/loop/"):
            n = int(path.split("/")[2] or 0)
            return self.answer(302, [("Location", "/loop/%d" % (n + 1))])
        if path == "/.well-known/carddav":
            return self.answer(301, [("Location", "/loop/0")])
        if path == "/offsite":
            return self.answer(301, [("Location", "http://elsewhere.invalid/dav/")])
        if path == "/downgrade":
            body = ('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/downgrade</d:href><d:propstat><d:prop>'
                    '<d:resourcetype><d:collection/></d:resourcetype><d:current-user-principal><d:href>http://elsewhere.invalid/principal/'
                    '</d:href></d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>'
                    '</d:multistatus>').encode()
            return self.answer(207, [("Content-Type", "application/xml")], body)
        if path == "/big":
            body = b'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">' + b"<!-- padding -->" * (6 << 16) + b"</d:multistatus>"
            return self.answer(207, [("Content-Type", "application/xml")], body)
        return self.answer(404)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", PORT), Handler).serve_forever()
