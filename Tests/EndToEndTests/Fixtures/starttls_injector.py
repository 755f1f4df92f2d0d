"""An SMTP server with a man in the middle, for Herald's tests: replies are injected after the cleartext 220 to STARTTLS.

usage: starttls_injector.py PORT CERT KEY

Greets, offers STARTTLS and AUTH PLAIN, and answers STARTTLS with "220" followed, in the same write, by the replies a
client would need to hand a message over (250, 235, 250, 250, 354, 250). Behind TLS the real server then refuses the
sender with 554 and everything after it with 503: a client that takes the injected replies stores as sent an email
the server refused. Prints "ready" when it listens; stops when killed.
"""
import socket
import ssl
import sys
import threading

port, cert, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
context.load_cert_chain(cert, key)
INJECTED = (b"250-injected\r\n250 AUTH PLAIN\r\n235 2.7.0 injected\r\n250 2.1.0 injected\r\n250 2.1.5 injected\r\n"
            b"354 injected\r\n250 2.0.0 injected: queued\r\n")


def lines(stream):
    while True:
        line = stream.readline()
        if not line:
            return
        yield line.rstrip(b"\r\n")


def serve(conn):
    try:
        conn.sendall(b"220 injector ESMTP\r\n")
        clear = conn.makefile("rb")
        for line in lines(clear):
            verb = line.split(b" ")[0].upper()
            if verb == b"EHLO":
                conn.sendall(b"250-injector\r\n250-STARTTLS\r\n250 AUTH PLAIN\r\n")
            elif verb == b"STARTTLS":
                conn.sendall(b"220 2.0.0 ready to start TLS\r\n" + INJECTED)
                break
            else:
                conn.sendall(b"530 5.7.0 STARTTLS first\r\n")
        else:
            return
        tls = context.wrap_socket(conn, server_side=True)
        secure = tls.makefile("rb")
        for line in lines(secure):
            verb = line.split(b" ")[0].upper()
            if verb == b"EHLO":
                tls.sendall(b"250-real\r\n250 AUTH PLAIN\r\n")
            elif verb == b"AUTH":
                tls.sendall(b"235 2.7.0 ok\r\n")
            elif verb == b"MAIL":
                tls.sendall(b"554 5.7.1 the real server refuses this sender\r\n")
            elif verb == b"QUIT":
                tls.sendall(b"221 bye\r\n")
                return
            else:
                tls.sendall(b"503 5.5.1 no\r\n")
    except (OSError, ssl.SSLError):
        pass
    finally:
        conn.close()


server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", port))
server.listen(8)
print("ready", flush=True)
while True:
    conn, _ = server.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
