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


# ---- what rounds 16 and 17's scripts share: a password, the look for it, and how a finding reports ----
P = "Kv7Qx3Jm"  # the password; any 3-character piece of it counts as a leak
PIECES = {P[i:i + 3] for i in range(len(P) - 2)}


def leaks(text):
    "Whether `text` shows a piece of the password"
    return any(g in str(text) for g in PIECES)


def show(texts):
    "The first of `texts` that shows a piece of the password (AssertionError if none does)"
    for t in texts:
        if leaks(t):
            return str(t)
    raise AssertionError("no piece of the password shown: fixed")


def err_texts(f):
    "What uri1630 shows of the URIError `f()` raises (str, repr, args, .text, .command, pickle)"
    import pickle
    import uri1630
    try:
        r = f()
    except uri1630.URIError as e:
        return [str(e), repr(e), repr(e.args), repr(e.text), repr(getattr(e, "command", None)),
                repr(pickle.dumps(e))]
    return [f"no error: {r!r}"]


def cli_output(*argv, stdin=""):
    "stdout and stderr of `uri1630 ARGV` run in this process"
    import io
    from uri1630.cli import main
    o, e = io.StringIO(), io.StringIO()
    try:
        main(list(argv), io.StringIO(stdin), o, e)
    except SystemExit:
        pass
    return o.getvalue() + e.getvalue()


def report(namespace):
    "Run every `fNN_*` finding of a script's `namespace`: print LEAK (and what shows) or fixed"
    for name, f in sorted(namespace.items()):
        if name[:1] == "f" and name[1:3].isdigit() and callable(f):
            try:
                print(f"{name}: LEAK  {ascii(f()[:260])}")
            except AssertionError as e:
                print(f"{name}: fixed ({e})")


def verdicts(script):
    "{'f01': 'fixed (...)' or 'LEAK ...'} from running an attack round's `script` in a fresh interpreter"
    import subprocess, sys
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return {line[:3]: line.split(": ", 1)[1] for line in r.stdout.splitlines() if line[:1] == "f" and ": " in line}


def http_server(reply):
    "A loopback HTTP server that reads a request's head and sends `reply` (bytes)"
    def h(c):
        read_head(c)
        c.sendall(reply)
    return Srv(h)


def ftp_server(reply_for):
    "A loopback FTP server: a greeting, then `reply_for(command)` to each command line, to QUIT"
    def h(c):
        c.sendall(b"220 hi\r\n")
        f = c.makefile("rb")
        while line := f.readline():
            cmd = line.decode("latin-1").rstrip("\r\n")
            c.sendall(reply_for(cmd))
            if cmd.upper().startswith("QUIT"):
                return
    return Srv(h)
