"""A real SMTP server for the tests (aiosmtpd, Debian's python3-aiosmtpd) on 127.0.0.1.

usage: smtp_server.py PORT MAILBOX [CERT KEY]

Every message it accepts is appended to MAILBOX, after a line "X-Envelope-From: <MAIL FROM>" and followed by a line
"--- end of message ---". It asks for AUTH PLAIN
or LOGIN as herald / secret. With CERT and KEY it offers STARTTLS and requires it before anything else. A message
to drop@… is taken and the connection cut before the reply (as a server that fails mid-answer). It prints "ready"
when it listens and stops on SIGTERM or SIGINT.
"""
import signal
import warnings
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

warnings.simplefilter("ignore")
port, mailbox = int(sys.argv[1]), sys.argv[2]
cert, key = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else (None, None)


class Handler:
    async def handle_DATA(self, server, session, envelope):
        with open(mailbox, "ab") as f:
            f.write(b"X-Envelope-From: <" + envelope.mail_from.encode() + b">\n")
            f.write(envelope.original_content + b"\n--- end of message ---\n")
        if any(rcpt.startswith("drop@") for rcpt in envelope.rcpt_tos):
            server.transport.abort()
            return None
        return "250 2.0.0 queued"


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"herald" and auth_data.password == b"secret"
    return AuthResult(success=ok, handled=False)


options = dict(authenticator=authenticate, auth_require_tls=cert is not None, auth_required=True)
if cert:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    options.update(tls_context=context, require_starttls=True)
controller = Controller(Handler(), hostname="127.0.0.1", port=port, **options)
controller.start()
print("ready", flush=True)
signal.sigwait({signal.SIGTERM, signal.SIGINT})
controller.stop()
