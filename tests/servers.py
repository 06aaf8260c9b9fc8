"""Real, independent servers on 127.0.0.1 for the retrieval tests and notebook, plus a recording proxy.

- HTTP: CPython's `http.server` in a subprocess (`python -m http.server`).
- FTP: pyftpdlib (PyPI, the `e2eserve` extra) in a subprocess: anonymous login and one named user.
- Gopher: pygopherd (Debian package `pygopherd`) in a subprocess, with its own config file; and
  gophernicus (Debian package `gophernicus`), an inetd service, behind a small listener that plays inetd.
- re-exported from `uri1630.testing` (nbs/00b_testing.ipynb): `Recorder`, a TCP proxy that forwards to a real server and
  records what each client sends on the wire, so that uri1630 and curl are observed the same way; `Misbehaving`, a tiny
  socket server for failure cases only (closes early, stalls, garbles replies); `StubResolver`, `BlackHoles`, `read_until`.

Every server listens on 127.0.0.1 only, on a free port; `Server.stop()` ends it by its PID.
"""
import atexit, os, shutil, signal, socket, subprocess, sys, tempfile, time
from pathlib import Path
# the small socket servers ship in the package (nbs/00b_testing.ipynb), so the notebooks need no file of tests/
from uri1630.testing import (HOST, BlackHoles, Misbehaving, Recorder, StubResolver,  # noqa: F401
                             free_port, read_until, reads_as_number)

PYGOPHERD = shutil.which('pygopherd') or '/usr/sbin/pygopherd'
FTP_USER, FTP_PASSWORD = 'alice', 'wonderland'


def have_pyftpdlib() -> bool:
    try: import pyftpdlib  # noqa: F401
    except ImportError: return False
    return True

def have_pygopherd() -> bool: return os.path.exists(PYGOPHERD)
def have_curl() -> bool: return shutil.which('curl') is not None


class Server:
    "A server process listening on `HOST`:`port`; `stop()` ends it by PID"
    def __init__(self, name, proc, port, root=None, tmp=None):
        self.name, self.proc, self.port, self.root, self._tmp = name, proc, port, root, tmp
        self.host = HOST

    @property
    def pid(self): return self.proc.pid
    def alive(self) -> bool: return self.proc.poll() is None

    def url(self, scheme, path=''):
        return f"{scheme}://{self.host}:{self.port}/{path}"

    def stop(self):
        "End the process (and its process group, which pygopherd's forks join) by PID"
        if self.alive():
            try: os.killpg(self.proc.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError): self.proc.terminate()
            try: self.proc.wait(5)
            except subprocess.TimeoutExpired:
                try: os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError: pass
                self.proc.wait(5)
        if self._tmp: shutil.rmtree(self._tmp, ignore_errors=True); self._tmp = None

    def __enter__(self): return self
    def __exit__(self, *a): self.stop()
    def __repr__(self): return f"<{self.name} pid={self.pid} on {self.host}:{self.port} {'alive' if self.alive() else 'stopped'}>"


def _wait_listening(proc, port, name, timeout=15.0):
    "Wait until `port` accepts connections; fail if `proc` dies first"
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors='replace') if proc.stderr else ''
            raise RuntimeError(f"{name} exited with {proc.returncode}: {err[-2000:]}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5): return
        except OSError: time.sleep(0.05)
    proc.kill(); raise RuntimeError(f"{name} did not listen on {HOST}:{port} within {timeout}s")


def _spawn_on_free_port(name, make, root=None, tries=3, **kw):
    "Start `make(port)`'s command on a free port; retry on another port if someone took it meanwhile"
    for attempt in range(tries):
        port = free_port()
        try: return _spawn(name, make(port), port, root, None, **kw)
        except RuntimeError:
            if attempt == tries - 1: raise
    raise AssertionError('unreachable')


# A watchdog per server: it ends the server's process group as soon as the process that started the server is
# gone, however it went (a notebook's kernel shut down, an nbdev_test worker that never reaches atexit, a kill -9).
# It polls its parent's pid: once reparented, its parent is gone. Ends by itself when the group is gone.
_WATCHDOG = r'''
import os, signal, sys, time
parent, group = int(sys.argv[1]), int(sys.argv[2])
signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    try: os.killpg(group, 0)
    except (ProcessLookupError, PermissionError): sys.exit(0)
    if os.getppid() != parent:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try: os.killpg(group, sig)
            except ProcessLookupError: sys.exit(0)
            time.sleep(2)
        sys.exit(0)
    time.sleep(0.2)
'''


def _watch(proc) -> subprocess.Popen:
    "A watchdog that ends `proc`'s process group when this process is gone (see `_WATCHDOG`)"
    return subprocess.Popen([sys.executable, '-c', _WATCHDOG, str(os.getpid()), str(proc.pid)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _spawn(name, args, port, root=None, tmp=None, **kw):
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, **kw)
    _watch(proc)                       # never outlive the process that started it, even without atexit
    srv = Server(name, proc, port, root, tmp)
    atexit.register(srv.stop)          # and stop at a normal exit at once, with the temporary tree
    try: _wait_listening(proc, port, name)
    except BaseException: srv.stop(); raise
    return srv


# ---- fixture content -------------------------------------------------------------------------------

TEXT = "line one\r\n.starts with a dot\r\nlast line\r\n"
BINARY = bytes(range(256)) * 4

def make_tree(root) -> Path:
    "The files every server serves: text, binary, a directory, an odd name"
    root = Path(root)
    (root / 'pub').mkdir(parents=True, exist_ok=True)
    (root / 'pub' / 'hello.txt').write_text("Hello, world.\nSecond line.\n")
    (root / 'pub' / 'dots.txt').write_bytes(TEXT.encode())
    (root / 'pub' / 'data.bin').write_bytes(BINARY)
    (root / 'pub' / 'sub').mkdir(exist_ok=True)
    (root / 'pub' / 'sub' / 'deep.txt').write_text("deep\n")
    (root / 'etc').mkdir(exist_ok=True)
    (root / 'etc' / 'motd').write_text("Message of the day.\n")
    (root / 'a;b.txt').write_text("semicolon\n")
    (root / 'index.html').write_text("<title>root</title>\n")
    return root


# ---- HTTP: python -m http.server --------------------------------------------------------------------

def start_http(root=None) -> Server:
    "CPython's http.server serving `root` (a fresh tree if None) on 127.0.0.1"
    tmp = None
    if root is None: tmp = tempfile.mkdtemp(prefix='uri1630-http-'); root = make_tree(tmp)
    srv = _spawn_on_free_port('http.server', lambda port: [sys.executable, '-m', 'http.server', '--bind', HOST, '--directory', str(root), str(port)], root)
    srv._tmp = tmp
    return srv


# ---- FTP: pyftpdlib ----------------------------------------------------------------------------------

_FTPD = r'''
import logging, sys
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer
host, port, root, user, pw = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
logging.basicConfig(level=logging.WARNING)
a = DummyAuthorizer()
a.add_anonymous(root)
a.add_user(user, pw, root + "/home", perm="elr")
class H(FTPHandler):
    authorizer = a
    passive_ports = None
    permit_foreign_addresses = False
s = FTPServer((host, port), H)
s.serve_forever()
'''

def start_ftp(root=None) -> Server:
    "pyftpdlib serving `root` to anonymous, and `root/home` to `FTP_USER`/`FTP_PASSWORD`"
    tmp = None
    if root is None: tmp = tempfile.mkdtemp(prefix='uri1630-ftp-'); root = make_tree(tmp)
    home = Path(root) / 'home'; home.mkdir(exist_ok=True)
    (home / 'private.txt').write_text(f"for {FTP_USER} only\n")
    srv = _spawn_on_free_port('pyftpdlib', lambda port: [sys.executable, '-c', _FTPD, HOST, str(port), str(root), FTP_USER, FTP_PASSWORD], root)
    srv._tmp = tmp
    return srv


# ---- Gopher: pygopherd -------------------------------------------------------------------------------

_GOPHERD_CONF = """[pygopherd]
detach = no
port = {port}
interface = {host}
servername = {host}
servertype = ThreadingTCPServer
timeout = 20
abstract_headers = off
abstract_entries = never
tracebacks = no
usechroot = no
enable_tls = no
root = {root}
mimetypes = /etc/pygopherd/mime.types:/etc/mime.types
encoding = list(mimetypes.encodings_map.items())

[logger]
logmethod = none

[GopherEntry]
defaultmimetype = text/plain
mapping = [['text/html', 'h'], ['text/.+', '0'], ['image/gif', 'g'], ['image/.+', 'I'],
        ['application/gopher-menu', '1'], ['application/gopher\\\\+-menu', '1'],
        ['application/.+', '9'], ['.*', '0']]
eaexts = {{'.abstract' : 'ABSTRACT'}}

[handlers.HandlerMultiplexer]
handlers = [scriptexec.ExecHandler, gophermap.BuckGophermapHandler, UMN.UMNDirHandler, file.FileHandler]

[handlers.dir.DirHandler]
ignorepatt = /gophermap$|~$
cachetime = 0
cachefile = .cache.pygopherd.dir

[handlers.UMN.UMNDirHandler]
extstrip = none

[protocols.ProtocolMultiplexer]
protocols = [gopherp.GopherPlusProtocol, rfc1436.GopherProtocol]

[protocols.gopherp.GopherPlusProtocol]
admin = uri1630 tests <nobody@localhost>
"""

# a search engine for pygopherd's ExecHandler: the search string arrives in $SEARCHREQUEST
_SEARCH = """#!/bin/sh
printf 'iYou searched for: %s\\tfake\\t(NULL)\\t0\\r\\n' "$SEARCHREQUEST"
printf '0Result for %s\\t/pub/hello.txt\\t{host}\\t{port}\\r\\n' "$SEARCHREQUEST"
printf '.\\r\\n'
"""

def start_gopher(root=None) -> Server:
    "pygopherd (Debian) serving `root` on 127.0.0.1, with a search engine at selector `/search`"
    tmp = tempfile.mkdtemp(prefix='uri1630-gopher-')
    if root is None: root = make_tree(Path(tmp) / 'root')
    root = Path(root)
    (root / 'gophermap').write_text("iuri1630 test gopher server\tfake\t(NULL)\t0\n"
                                    "0Hello\t/pub/hello.txt\n0Dots\t/pub/dots.txt\n1Pub\t/pub\n"
                                    "7Search\t/search\n9Data\t/pub/data.bin\n")
    def make(port):
        s = root / 'search'; s.write_text(_SEARCH.format(host=HOST, port=port)); s.chmod(0o755)
        conf = Path(tmp) / 'pygopherd.conf'
        conf.write_text(_GOPHERD_CONF.format(port=port, host=HOST, root=root))
        return [PYGOPHERD, str(conf)]
    srv = _spawn_on_free_port('pygopherd', make, root, cwd=tmp)
    srv._tmp = tmp
    return srv


# ---- Gopher, a second implementation: gophernicus (Debian), run inetd-style --------------------------------

GOPHERNICUS = shutil.which('gophernicus') or '/usr/sbin/gophernicus'
def have_gophernicus() -> bool: return os.path.exists(GOPHERNICUS)

# gophernicus is an inetd service (one process per connection, the socket as stdin/stdout); this small
# listener plays inetd. As root it runs gophernicus as `nobody`, since gophernicus refuses to run as root.
_INETD = r"""
import os, socket, subprocess, sys
port, argv = int(sys.argv[1]), sys.argv[2:]
ls = socket.create_server(("127.0.0.1", port))
kw = dict(user="nobody", group="nogroup", extra_groups=[]) if os.geteuid() == 0 else {}
while True:
    c, _ = ls.accept()
    subprocess.Popen(argv, stdin=c.fileno(), stdout=c.fileno(), stderr=subprocess.DEVNULL, **kw)
    c.close()
"""

def start_gophernicus(root=None) -> Server:
    "gophernicus (Debian) serving `root` on 127.0.0.1 (menus without header and footer lines)"
    tmp = tempfile.mkdtemp(prefix='uri1630-gophernicus-')
    if root is None: root = make_tree(Path(tmp) / 'root')
    for d, _, files in os.walk(tmp):                       # readable by `nobody`
        os.chmod(d, 0o755)
        for f in files: os.chmod(os.path.join(d, f), 0o644)
    srv = _spawn_on_free_port('gophernicus', lambda port: [sys.executable, '-c', _INETD, str(port), GOPHERNICUS,
                              '-h', HOST, '-p', str(port), '-r', str(root), '-nv', '-nh', '-nf'], Path(root))
    srv._tmp = tmp
    return srv
