"""A CardDAV server that misbehaves on purpose, for Herald's tests.

Usage: hostile_dav.py PORT MODEFILE. Before each request the mode is read from MODEFILE:
  ok        a small honest server: no sync-collection (403), PROPFIND and multiget of one card /ana/contacts/a.vcf
  401 403 404 507   that status for every request
  doctype   a multistatus with a DOCTYPE declaring entities (the "billion laughs")
  malformed a multistatus cut in the middle
  outside   an honest answer that also lists /other/secret.vcf, outside the collection
  late-doctype  honest answers whose DOCTYPE (an entity the card's name uses) follows a 5 KB comment
  utf16     honest answers in UTF-16 with a byte-order mark, their DOCTYPE declaring an entity the card's name uses
  drop      the connection closed without an answer
"""
import http.server
import socketserver
import sys

PORT = int(sys.argv[1])
MODE_FILE = sys.argv[2]
CARD = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a\r\nFN:Ana Honest\r\nN:Honest;Ana;;;\r\nEND:VCARD\r\n"


def listing(extra=""):
    return ('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">'
            '<d:response><d:href>/ana/contacts/</d:href><d:propstat><d:prop><d:getetag>"c"</d:getetag></d:prop>'
            '<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>'
            '<d:response><d:href>/ana/contacts/a.vcf</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop>'
            '<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>' + extra + '</d:multistatus>')


OUTSIDE = ('<d:response><d:href>/other/secret.vcf</d:href><d:propstat><d:prop><d:getetag>"9"</d:getetag></d:prop>'
           '<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>')


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", content_type="application/xml"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        request = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        mode = open(MODE_FILE).read().strip()
        if mode == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if mode.isdigit():
            return self.answer(int(mode), b"no")
        if mode == "doctype":
            body = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
                    '<d:multistatus xmlns:d="DAV:"><d:response><d:href>&lol2;</d:href></d:response></d:multistatus>')
            return self.answer(207, body.encode())
        if mode == "malformed":
            return self.answer(207, b'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/ana/con')
        if self.command == "REPORT" and "sync-collection" in request:
            return self.answer(403, b'<?xml version="1.0"?><d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>')
        if mode in ("late-doctype", "utf16"):
            return self.answer(207, hostile_prolog(mode, self.honest()))
        if self.command == "PROPFIND":
            return self.answer(207, listing(OUTSIDE if mode == "outside" else "").encode())
        if self.command == "REPORT":
            return self.answer(207, ('<?xml version="1.0"?>' + multiget(CARD)).encode())
        return self.answer(405)

    def honest(self):
        """The honest answer's root element, the card's name spelled with the entity &who; the DOCTYPE declares."""
        if self.command == "PROPFIND":
            return listing().split("?>", 1)[1]
        return multiget(CARD.replace("Ana Honest", "&who;"), escape=False)

    do_PROPFIND = do_REPORT = do_PUT = do_DELETE = do_GET = handle_any


def multiget(card, escape=True):
    if escape:
        card = card.replace("&", "&amp;").replace("<", "&lt;")
    return ('<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">'
            '<d:response><d:href>/ana/contacts/a.vcf</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag>'
            '<c:address-data>' + card + '</c:address-data></d:prop><d:status>HTTP/1.1 200 OK</d:status>'
            '</d:propstat></d:response></d:multistatus>')


def hostile_prolog(mode, root):
    doctype = '<!DOCTYPE d:multistatus [<!ENTITY who "Ana Entity">]>'
    if mode == "late-doctype":
        return ('<?xml version="1.0"?><!--' + "x" * 5000 + '-->' + doctype + root).encode()
    return ('<?xml version="1.0" encoding="UTF-16"?>' + doctype + root).encode("utf-16")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", PORT), Handler).serve_forever()
