"""Integration tests of `uri1630.retrieve` against real, independent servers started on 127.0.0.1.

HTTP: CPython's http.server; FTP: pyftpdlib (PyPI, extra `e2eserve`); gopher: Debian's pygopherd; plus
tiny misbehaving socket servers for failure cases, and curl (Debian) as an independent client for the
differential checks. Every server runs in its own process, on a free port, and is stopped by PID.
"""
import os, pickle, shutil, subprocess, time
from pathlib import Path
import pytest
from hypothesis import given, settings, strategies as st

import servers as S
from uri1630 import parse_url, URIError
from uri1630.access import retrieve
from uri1630.transport import RetrievalError
from uri1630.schemes.gopher import retrieve_menu, parse_menu, undot, MenuItem   # moved from uri1630.retrieve (#15)

IN_CI = os.environ.get('CI') == 'true'

def _need(ok, what):
    if not ok:
        if IN_CI: pytest.fail(f"{what} is not installed (CI must install it: .ci/apt-packages, extra e2eserve)")
        pytest.skip(f"{what} is not installed")


@pytest.fixture(scope='module')
def httpd():
    srv = S.start_http(); assert srv.alive()
    yield srv
    srv.stop(); assert not srv.alive()

@pytest.fixture(scope='module')
def ftpd():
    _need(S.have_pyftpdlib(), 'pyftpdlib')
    srv = S.start_ftp(); assert srv.alive()
    yield srv
    srv.stop(); assert not srv.alive()

@pytest.fixture(scope='module')
def gopherd():
    _need(S.have_pygopherd(), 'pygopherd')
    srv = S.start_gopher(); assert srv.alive()
    yield srv
    srv.stop(); assert not srv.alive()


def _err(url, **kw) -> RetrievalError:
    with pytest.raises(RetrievalError) as ei: retrieve(url, **kw)
    return ei.value

# ---- HTTP ---------------------------------------------------------------------------------------------

def test_http_body_and_binary(httpd):
    H = f"http://{httpd.host}:{httpd.port}"
    assert retrieve(f"{H}/pub/hello.txt") == b"Hello, world.\nSecond line.\n"
    assert retrieve(f"{H}/pub/data.bin") == S.BINARY
    assert retrieve(f"{H}") == b"<title>root</title>\n"

def test_http_fragment_not_sent_search_sent(httpd):
    with S.Recorder(httpd.port) as rec:
        retrieve(f"http://{rec.host}:{rec.port}/pub/hello.txt?x+y#andy")
        [sent] = rec.take()
    assert sent.startswith(b"GET /pub/hello.txt?x+y HTTP/1.0\r\n") and b"andy" not in sent

def test_http_status_and_redirect(httpd):
    H = f"http://{httpd.host}:{httpd.port}"
    e = _err(f"{H}/missing")
    assert (e.status, e.command, e.rule) == (404, "GET /missing", 'http')
    assert _err(f"{H}/pub").status == 301                   # not followed unless asked
    assert b"hello.txt" in retrieve(f"{H}/pub", redirects=1)
    assert pickle.loads(pickle.dumps(e)).status == 404

def test_http_max_bytes(httpd):
    assert "max_bytes=10" in str(_err(f"http://{httpd.host}:{httpd.port}/pub/data.bin", max_bytes=10))

@pytest.mark.parametrize("raw, msg", [
    (b"garbage\r\n", "malformed HTTP status line"),
    (b"HTTP/1.0 200 OK\r\nContent-Length: 100\r\n\r\nonly some", "after 9 of 100 octets"),
    (b"HTTP/1.0 200 OK\r\nContent-Length: x\r\n\r\n", "malformed Content-Length"),
    (b"", "without a reply"),
])
def test_http_misbehaving(raw, msg):
    with S.Misbehaving(lambda c, rec: (S.read_until(c, b"\r\n\r\n"), c.sendall(raw))) as m:
        assert msg in str(_err(f"http://{m.host}:{m.port}/"))

def test_http_timeout():
    with S.Misbehaving(lambda c, rec: time.sleep(2)) as m:
        t = time.monotonic()
        assert "timed out after 0.3s" in str(_err(f"http://{m.host}:{m.port}/", timeout=0.3))
        assert time.monotonic() - t < 1.5

def test_connection_refused():
    assert "cannot connect" in str(_err(f"http://127.0.0.1:{S.free_port()}/"))

# ---- FTP ----------------------------------------------------------------------------------------------

def _ftp_sent(ftpd, path, **kw):
    "The FTP commands uri1630 sends for `path` (through the recording proxy), and the data"
    with S.Recorder(ftpd.port) as rec:
        data = retrieve(f"ftp://{rec.host}:{rec.port}{path}", **kw)
        [sess] = rec.take()
    return [l for l in sess.decode('latin-1').split('\r\n') if l], data

def test_ftp_anonymous(ftpd):
    sent, data = _ftp_sent(ftpd, "/pub/hello.txt", email="tester@localhost")
    assert data == b"Hello, world.\nSecond line.\n"
    assert sent == ["USER anonymous", "PASS tester@localhost", "CWD pub", "TYPE I", "PASV", "RETR hello.txt", "QUIT"]

def test_ftp_named_login(ftpd):
    url = f"ftp://{S.FTP_USER}:{S.FTP_PASSWORD}@{ftpd.host}:{ftpd.port}/private.txt"
    assert retrieve(url) == b"for alice only\n"
    assert retrieve(f"ftp://{S.FTP_USER}@{ftpd.host}:{ftpd.port}/private.txt", password=S.FTP_PASSWORD) == b"for alice only\n"

def test_ftp_password_asked_but_absent(ftpd):
    e = _err(f"ftp://{S.FTP_USER}@{ftpd.host}:{ftpd.port}/private.txt")
    assert (e.status, e.command) == (331, f"USER {S.FTP_USER}") and "password=" in str(e)

def test_ftp_refused_login(ftpd):
    e = _err(f"ftp://{S.FTP_USER}:nope@{ftpd.host}:{ftpd.port}/private.txt")
    assert (e.status, e.command) == (530, "PASS ***") and "nope" not in str(e)

def test_ftp_encoded_slash(ftpd):
    sent, data = _ftp_sent(ftpd, "/pub/%2Fetc/motd")
    assert data == b"Message of the day.\n" and sent[2:4] == ["CWD pub", "CWD /etc"]
    e = _err(f"ftp://{ftpd.host}:{ftpd.port}/pub/etc/motd")            # relative: pub has no etc
    assert (e.status, e.command) == (550, "CWD etc")

def test_ftp_null_cwd(ftpd):
    sent, data = _ftp_sent(ftpd, "/pub//etc/motd")
    assert sent[2:5] == ["CWD pub", "CWD ", "CWD etc"] and data == b"Message of the day.\n"

@pytest.mark.parametrize("suffix, cmds, data", [
    ("/pub/hello.txt;type=a", ["TYPE A", "PASV", "RETR hello.txt"], b"Hello, world.\r\nSecond line.\r\n"),
    ("/pub/hello.txt;type=i", ["TYPE I", "PASV", "RETR hello.txt"], b"Hello, world.\nSecond line.\n"),
    ("/pub/sub;type=d", ["PASV", "NLST sub"], b"deep.txt\r\n"),
])
def test_ftp_typecodes(ftpd, suffix, cmds, data):
    sent, got = _ftp_sent(ftpd, suffix)
    assert got == data and sent[-len(cmds) - 1:-1] == cmds

def test_ftp_missing_file(ftpd):
    e = _err(f"ftp://{ftpd.host}:{ftpd.port}/pub/nothing.txt")
    assert (e.status, e.command, e.rule) == (550, "RETR nothing.txt", 'ftp')

def test_ftp_closes_early():
    def script(c, rec): c.sendall(b"220 hi\r\n"); S.read_until(c)
    with S.Misbehaving(script) as m:
        assert "closed the connection before the reply to USER anonymous" in str(_err(f"ftp://{m.host}:{m.port}/x"))

def test_ftp_timeout():
    with S.Misbehaving(lambda c, rec: time.sleep(2)) as m:
        assert "timed out after 0.3s waiting for the reply to the greeting" in str(_err(f"ftp://{m.host}:{m.port}/x", timeout=0.3))

def test_ftp_pasv_address_ignored():
    "A PASV reply naming another host is not followed: the data connection goes to the control peer"
    def script(c, rec):
        c.sendall(b"220 hi\r\n")
        for reply in (b"331 pw\r\n", b"230 ok\r\n", b"200 type\r\n", b"227 Entering Passive Mode (192,0,2,1,4,1).\r\n"):
            rec.append(S.read_until(c)); c.sendall(reply)
        rec.append(S.read_until(c))
    with S.Misbehaving(script) as m:
        e = _err(f"ftp://{m.host}:{m.port}/x", timeout=1)
        assert "cannot connect to 127.0.0.1:1025" in str(e) or "timed out" in str(e)

# ---- Gopher -------------------------------------------------------------------------------------------

def test_gopher_empty_selector_and_menu(gopherd):
    G = f"gopher://{gopherd.host}:{gopherd.port}"
    with S.Recorder(gopherd.port) as rec:
        menu = retrieve_menu(f"gopher://{rec.host}:{rec.port}")
        assert rec.take() == [b"\r\n"]
    assert [i.gtype for i in menu] == ['i', '0', '0', '1', '7', '9']
    hello = menu[1]
    assert hello.url == f"{G}/0/pub/hello.txt" and retrieve(hello.url) == b"Hello, world.\nSecond line.\n"
    assert [i.display for i in retrieve_menu(f"{G}/1/pub")] == ['data.bin', 'dots.txt', 'hello.txt', 'sub']

def test_gopher_search(gopherd):
    with S.Recorder(gopherd.port) as rec:
        found = retrieve_menu(f"gopher://{rec.host}:{rec.port}/7/search%09tab%20and%20space")
        assert rec.take() == [b"/search\ttab and space\r\n"]
    assert found[0].display == "You searched for: tab and space"

def test_gopher_text_binary_plus(gopherd):
    G = f"gopher://{gopherd.host}:{gopherd.port}"
    assert retrieve(f"{G}/0/pub/dots.txt") == S.TEXT.encode()          # no '.' line: returned as it came
    assert retrieve(f"{G}/9/pub/data.bin") == S.BINARY
    assert retrieve(f"{G}/0/pub/hello.txt%09%09+") == b"Hello, world.\nSecond line.\n"

def test_gopher_missing(gopherd):
    e = _err(f"gopher://{gopherd.host}:{gopherd.port}/0/no/such")
    assert e.rule == 'gopher' and "does not exist" in str(e)

def test_gopher_closes_early_and_timeout():
    with S.Misbehaving(lambda c, rec: (S.read_until(c), c.sendall(b"+50\r\nshort"))) as m:
        assert "after 5 of 50 octets" in str(_err(f"gopher://{m.host}:{m.port}/0x%09%09+"))
    with S.Misbehaving(lambda c, rec: time.sleep(2)) as m:
        assert "timed out after 0.3s" in str(_err(f"gopher://{m.host}:{m.port}/", timeout=0.3))

@pytest.fixture(scope='module')
def gophernicus():
    _need(S.have_gophernicus(), 'gophernicus')
    srv = S.start_gophernicus(); assert srv.alive()
    yield srv
    srv.stop(); assert not srv.alive()

def test_gophernicus_menu_terminator_and_text(gophernicus):
    "A second, independent gopher server: its menus end with the '.' line, its text files do not"
    N = f"gopher://{gophernicus.host}:{gophernicus.port}"
    from uri1630.schemes.gopher import gopher_exchange
    assert gopher_exchange(gophernicus.host, gophernicus.port, "/pub\r\n", "9").endswith(b"\r\n.\r\n")
    menu = retrieve_menu(f"{N}/1/pub")
    assert {i.selector for i in menu if i.gtype in '09'} == {'/pub/data.bin', '/pub/dots.txt', '/pub/hello.txt'}
    assert all(retrieve(i.url) for i in menu if i.gtype in '09')
    assert retrieve(f"{N}/0/pub/dots.txt") == S.TEXT.encode()
    with S.Recorder(gophernicus.port) as rec:
        retrieve(f"gopher://{rec.host}:{rec.port}/7/pub%09x")
        assert rec.take() == [b"/pub\tx\r\n"]

# ---- file and refused schemes ---------------------------------------------------------------------------

def test_file(tmp_path):
    p = tmp_path / "f.txt"; p.write_bytes(b"x\n")
    assert retrieve(f"file://{p}") == retrieve(f"file://localhost{p}") == b"x\n"
    assert "only a void host" in str(_err(f"file://elsewhere.example{p}"))

def test_gopher_session_types_refused():
    assert "a telnet session" in str(_err("gopher://127.0.0.1:9/8session"))     # refused before any connection

@pytest.mark.parametrize("url", ["mailto:a@b.c", "news:comp.lang.python", "telnet://h/", "x-y:z"])
def test_no_retrieval(url):
    assert "RFC 1630 defines no retrieval for" in str(_err(url))

# ---- differential against curl --------------------------------------------------------------------------

def _curl_sent(srv, scheme, path):
    if not S.have_curl(): pytest.skip("curl is not installed")
    with S.Recorder(srv.port) as rec:
        subprocess.run(['curl', '-sS', '--max-time', '5', '-o', os.devnull, f"{scheme}://{rec.host}:{rec.port}{path}"], capture_output=True)
        return rec.take()

@pytest.mark.parametrize("path", ["", "/0/pub/hello.txt", "/7/search%09a%20b", "/0/pub/hello.txt%09%09+"])
def test_gopher_same_line_as_curl(gopherd, path):
    with S.Recorder(gopherd.port) as rec:
        try: retrieve(f"gopher://{rec.host}:{rec.port}{path}")
        except RetrievalError: pass
        ours = rec.take()
    assert ours == _curl_sent(gopherd, 'gopher', path)

def test_http_same_target_as_curl(httpd):
    with S.Recorder(httpd.port) as rec:
        retrieve(f"http://{rec.host}:{rec.port}/pub/hello.txt?q#frag")
        ours = rec.take()[0].split(b"\r\n")[0].split(b" ")[1]
    theirs = _curl_sent(httpd, 'http', "/pub/hello.txt?q#frag")[0].split(b"\r\n")[0].split(b" ")[1]
    assert ours == theirs == b"/pub/hello.txt?q"

def test_ftp_curl_departs_for_null_cwd(ftpd):
    "curl skips the empty segment of `//`; RFC 1738 §3.2.2 (and uri1630) send a null CWD"
    theirs = [l for l in _curl_sent(ftpd, 'ftp', "/pub//etc/motd")[0].decode().split('\r\n') if l.startswith('CWD')]
    ours = [l for l in _ftp_sent(ftpd, "/pub//etc/motd")[0] if l.startswith('CWD')]
    assert ours == ["CWD pub", "CWD ", "CWD etc"] and theirs == ["CWD pub", "CWD etc"]

# ---- properties (no network) ------------------------------------------------------------------------------

_sel = st.text(st.characters(min_codepoint=32, max_codepoint=255, blacklist_characters='\t'), max_size=30)

@settings(deadline=None)
@given(gtype=st.sampled_from('0179gIh'), selector=_sel)
def test_menu_item_url_roundtrip(gtype, selector):
    "A menu item turned into a URL sends exactly the menu's selector again"
    u = parse_url(MenuItem(gtype, 'd', selector, 'gopher.example.org', 7070).url)
    assert (u.gtype, u.selector, u.host, u.port, u.search) == (gtype, selector, 'gopher.example.org', 7070, None)
    assert u.request() == selector + "\r\n"

@settings(deadline=None)
@given(lines=st.lists(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=10), max_size=8))
def test_undot_inverts_dot_stuffing(lines):
    text = ''.join(l + '\r\n' for l in lines).encode()
    stuffed = b''.join((b'.' + l if l.startswith(b'.') else l) + b'\r\n' for l in text.split(b'\r\n')[:-1]) + b'.\r\n'
    assert undot(stuffed) == text


def test_gateway_gets_the_entire_uri():
    "RFC 1630 \"HTTP\": a gateway gets the entire URI on the HTTP command line, fragment removed"
    def gw(c, rec):
        rec.append(S.read_until(c, b"\r\n\r\n")); c.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
    with S.Misbehaving(gw) as m:
        assert retrieve("gopher://127.0.0.1:9/1/x%09y#f", proxy=f"{m.host}:{m.port}") == b"ok"
        assert m.received[0].startswith(b"GET gopher://127.0.0.1:9/1/x%09y HTTP/1.0\r\n")


def test_total_timeout_bounds_a_dripping_server():
    "Each octet arrives within `timeout`, but the whole retrieval is bounded by `total_timeout`"
    def drip(c, rec):
        S.read_until(c, b"\r\n\r\n"); c.sendall(b"HTTP/1.0 200 OK\r\n\r\n")
        for _ in range(40): c.sendall(b"x"); time.sleep(0.05)
    with S.Misbehaving(drip) as m:
        t = time.monotonic()
        assert "total_timeout" in str(_err(f"http://{m.host}:{m.port}/", timeout=1, total_timeout=0.4))
        assert time.monotonic() - t < 1.5


def test_cli_get(httpd, tmp_path):
    "`uri1630 get URL [-o FILE]` as a subprocess: octets to stdout or FILE; a failed retrieval exits 1"
    import sys
    run = lambda *a: subprocess.run([sys.executable, '-m', 'uri1630', 'get', *a], capture_output=True, timeout=60)
    r = run(f"http://{httpd.host}:{httpd.port}/pub/data.bin")
    assert (r.returncode, r.stdout) == (0, S.BINARY)
    out = tmp_path / 'o.txt'
    assert run('-o', str(out), f"http://{httpd.host}:{httpd.port}/pub/hello.txt").returncode == 0
    assert out.read_bytes() == b"Hello, world.\nSecond line.\n"
    r = run(f"http://{httpd.host}:{httpd.port}/missing")
    assert r.returncode == 1 and r.stdout == b"" and b"HTTP 404" in r.stderr


def test_many_tiny_chunks_is_linear():
    "Reading is linear in the reply: 4x the chunks takes about 4x the time, not 16x"
    def timed(n):
        raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + b"1\r\nx\r\n" * n + b"0\r\n\r\n"
        with S.Misbehaving(lambda c, rec: (S.read_until(c, b"\r\n\r\n"), c.sendall(raw))) as m:
            t = time.perf_counter(); assert retrieve(f"http://{m.host}:{m.port}/") == b"x" * n
            return time.perf_counter() - t
    small, big = min(timed(10000) for _ in range(2)), min(timed(40000) for _ in range(2))
    assert big < 10 * small + 0.05, (small, big)


_field = st.text(st.characters(min_codepoint=0, max_codepoint=255, blacklist_characters='\t\r\n'), max_size=20)

@settings(deadline=None)
@given(items=st.lists(st.tuples(st.sampled_from('0179gIh'), _field, _field, st.from_regex(r'[a-z]{1,8}(\.[a-z]{1,8}){0,2}', fullmatch=True),
                                st.integers(1, 65535)), max_size=6), dot=st.booleans())
def test_parse_menu_roundtrip(items, dot):
    "Any menu of well-formed lines parses back to its fields, with or without the '.' line"
    raw = b''.join(f"{t}{d}\t{s}\t{h}\t{p}\r\n".encode('latin-1') for t, d, s, h, p in items) + (b".\r\n" if dot else b"")
    got = parse_menu(raw)
    # the display string is server text (#26): shown with its controls escaped, `raw` as the server sent it
    assert [(i.gtype, i.display.raw, i.selector, i.host, i.port) for i in got] == [tuple(x) for x in items]
    assert not any(ord(c) < 32 or 127 <= ord(c) < 160 for i in got for c in str.__str__(i.display))
