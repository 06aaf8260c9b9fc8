"""What the attack rounds' tests share: a scripted loopback server."""

import socket
import threading


class Srv:
    "A server on 127.0.0.1 that runs `handler(connection)` for each connection, in a thread"

    def __init__(self, handler):
        self.s = socket.socket()
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.s.bind(("127.0.0.1", 0))
        self.s.listen(8)
        self.port = self.s.getsockname()[1]
        self.h = handler
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            try:
                c, _ = self.s.accept()
            except OSError:
                return
            threading.Thread(target=self.one, args=(c,), daemon=True).start()

    def one(self, c):
        try:
            c.settimeout(5)   # a handler never waits for ever
            self.h(c)
        except Exception:
            pass
        finally:
            c.close()

    def close(self):
        self.s.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_head(c):
    "Read a request's head (to its blank line, or the end) from connection `c`"
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = c.recv(4096)
        if not d:
            break
        buf += d
    return buf
