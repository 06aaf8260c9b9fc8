"""Real, independent servers on 127.0.0.1 for the retrieval tests and notebook, and a proxy.

All of it ships in the package as `uri1630.testing` (nbs/00b_testing.ipynb), so that the
notebooks need no file of tests/; this module re-exports it for the tests:
- HTTP: CPython's `http.server` in a subprocess (`start_http`).
- FTP: pyftpdlib (PyPI, the `e2eserve` extra) in a subprocess: anonymous login and one named
  user (`start_ftp`).
- Gopher: pygopherd (Debian package `pygopherd`, `start_gopher`) and gophernicus (Debian
  package `gophernicus`, an inetd service behind a listener that plays inetd).
- `Recorder`, a TCP proxy that records what each client sends on the wire; `Misbehaving`, a
  tiny socket server for failure cases only; `StubResolver`, `BlackHoles`, `read_until`.

Every server listens on 127.0.0.1 only, on a free port; `Server.stop()` ends it by its PID, and a
watchdog ends it when the process that started it is gone.
"""

from uri1630.testing import (  # noqa: F401
    _WATCHDOG,
    BINARY,
    FTP_PASSWORD,
    FTP_USER,
    GOPHERNICUS,
    HOST,
    PYGOPHERD,
    TEXT,
    BlackHoles,
    Misbehaving,
    Recorder,
    Server,
    StubResolver,
    _spawn,
    _spawn_on_free_port,
    _wait_listening,
    _watch,
    free_port,
    have_curl,
    have_gophernicus,
    have_pyftpdlib,
    have_pygopherd,
    make_tree,
    read_until,
    reads_as_number,
    start_ftp,
    start_gopher,
    start_gophernicus,
    start_http,
)
