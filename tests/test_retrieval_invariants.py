"""Issue 20, the retrieval and host-identity invariants (1, 2, 3, 6, 7, 8 for menus and redirects, 9).

Each test holds for the whole surface it names, with generated cases where it can. Nothing here talks to an
address outside 127.0.0.0/8: every name goes to a resolver stub (`socket.getaddrinfo` replaced), and the stub
answers only with loopback addresses and refuses any string the system resolver would read differently from
uri1630 (a host number that is not plain dotted decimal).
"""
import ipaddress, ntpath, os, re, selectors, socket, sys, threading, time, tracemalloc
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck, assume

import servers as S
from uri1630 import parse_url, equivalent, compare, risks, URIError
from uri1630.access import retrieve
from uri1630.transport import RetrievalError
from uri1630.schemes.gopher import MenuItem, iter_menu, parse_menu

SLOW = settings(deadline=None, max_examples=min(60, settings.default.max_examples),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])   # each example opens connections
QUICK = settings(deadline=None)                                                                      # the profile's count (conftest.py)


# ---- the resolver stub -----------------------------------------------------------------------------------------

Resolver = S.StubResolver


class Listeners:
    "Listeners on 127.0.0.1 … 127.0.0.N, all on one port; each accepted connection is recorded by the address it reached, then closed"
    def __init__(self, n=8):
        for _ in range(20):
            socks = []
            try:
                first = socket.create_server(('127.0.0.1', 0)); socks.append(first); port = first.getsockname()[1]
                for k in range(2, n + 1): socks.append(socket.create_server((f'127.0.0.{k}', port)))
                break
            except OSError:
                for s in socks: s.close()
        self.port, self.socks, self.hits, self._stop = port, socks, [], False
        self.sel = selectors.DefaultSelector()
        for s in socks: s.setblocking(False); self.sel.register(s, selectors.EVENT_READ)
        self.thread = threading.Thread(target=self._run, daemon=True); self.thread.start()

    def _run(self):
        while not self._stop:
            for key, _ in self.sel.select(0.05):
                try: c, _ = key.fileobj.accept()
                except OSError: continue
                self.hits.append(c.getsockname()[0]); c.close()

    def wait(self, n=1, within=5.0):
        end = time.monotonic() + within
        while len(self.hits) < n and time.monotonic() < end: time.sleep(0.005)
        return list(self.hits)

    def close(self):
        self._stop = True; self.thread.join(2)
        for s in self.socks: s.close()


@pytest.fixture(scope='module')
def listeners():
    ls = Listeners(); yield ls; ls.close()


# ---- 1. connect where you parsed ----------------------------------------------------------------------------------

def _pad(n:int, zeros:int) -> str: return '0' * zeros + str(n)
_label = st.from_regex(r'[A-Za-z][A-Za-z0-9]{0,6}(-[A-Za-z0-9]{1,4})?', fullmatch=True)
_hostname = st.lists(_label, min_size=1, max_size=3).map('.'.join)
_zeros = st.integers(0, 3)

@SLOW
@given(scheme=st.sampled_from(['http', 'gopher', 'ftp']), k=st.integers(1, 8), name=st.one_of(st.none(), _hostname),
       pads=st.tuples(_zeros, _zeros, _zeros, _zeros), port_zeros=_zeros, proxy=st.booleans(), rfc=st.sampled_from(['1738', '1630']))
def test_connect_where_you_parsed(listeners, monkeypatch, scheme, k, name, pads, port_zeros, proxy, rfc):
    "Every host form the parsers accept (names any case, numbers with leading zeros, ports with leading zeros): the connection reaches the address parse_url reports"
    stub = Resolver({name: [(f'127.0.0.{k}', listeners.port)]} if name else {})
    monkeypatch.setattr(socket, 'getaddrinfo', stub)
    host = name or '.'.join(_pad(g, z) for g, z in zip((127, 0, 0, k), pads))
    url = f"{scheme}://{host}:{_pad(listeners.port, port_zeros)}/{'1' if scheme == 'gopher' else 'x'}"
    u = parse_url(url, rfc)
    assert (u.host, u.port) == (host, listeners.port)
    want = f'127.0.0.{k}'                                   # the decimal reading of the number, or the name's address
    if not name: assert str(ipaddress.IPv4Address(bytes(int(g) for g in u.host.split('.')))) == want
    listeners.hits.clear()
    kw = dict(timeout=2, total_timeout=5, rfc=rfc)
    if proxy:            # the gateway is named by the same host forms (its port is an argument: plain digits)
        try: retrieve("http://target.example/x", proxy=f"{host}:{listeners.port}", **kw)
        except URIError: pass
    else:
        try: retrieve(url, **kw)
        except URIError: pass
    assert stub.misread == [], stub.misread                 # no string the resolver reads differently ever reached it
    assert listeners.wait(1) == [want]


@QUICK
@given(pads=st.tuples(_zeros, _zeros, _zeros, _zeros), groups=st.tuples(*[st.integers(0, 255)] * 4))
def test_host_number_zeros_named_by_risks(pads, groups):
    "risks() names a host number with a leading zero (another reader may take it as octal); the decimal reading is what equivalent compares"
    host = '.'.join(_pad(g, z) for g, z in zip(groups, pads))
    plain = '.'.join(map(str, groups))
    found = [r for r in risks(f"http://{host}/") if r.kind == 'host-number-zeros']
    lead = [i for i, part in enumerate(host.split('.')) if len(part) > 1 and part[0] == '0']
    assert bool(found) == bool(lead)
    if found: assert found[0].position == 7 + sum(len(p) + 1 for p in host.split('.')[:lead[0]])
    assert equivalent(f"http://{host}/", f"http://{plain}/")
    assert compare(f"http://{host}:80/", f"http://{plain}/").equivalent


@QUICK
@given(scheme=st.sampled_from(['http', 'ftp', 'gopher', 'telnet', 'wais', 'prospero', 'nntp']), port=st.integers(0, 65535),
       za=_zeros, zb=_zeros, other=st.integers(0, 65535))
def test_ports_in_decimal_compare_equal(scheme, port, za, zb, other):
    "RFC 1738: ports are \"in decimal\": :01234 and :1234 are one port for equivalent and compare; different ports stay different"
    a, b = f"{scheme}://h.example:{_pad(port, za)}/x", f"{scheme}://h.example:{_pad(port, zb)}/x"
    assert equivalent(a, b) and compare(a, b).equivalent
    c = f"{scheme}://h.example:{other}/x"
    assert equivalent(a, c) == (port == other) == compare(a, c).equivalent


# ---- 2. a local file stays local, on every OS ----------------------------------------------------------------------

_RESERVED = {'CON', 'PRN', 'AUX', 'NUL', 'CONIN$', 'CONOUT$'} | {f'{d}{n}' for d in ('COM', 'LPT') for n in '0123456789¹²³'}

def _windows_local(p:str) -> bool:
    "An independent reading of a Windows file name: absolute on a drive or the current drive's root, no UNC or device prefix, no stream, no device name"
    if p.startswith(('\\\\', '//', '\\/', '/\\')): return False           # UNC, \\?\, \\.\
    drive, rest = ntpath.splitdrive(p)
    if drive and not re.fullmatch(r'[A-Za-z]:', drive): return False
    if not rest.startswith('\\'): return False                              # drive-relative (C:x) or relative
    for name in rest[1:].split('\\'):
        if any(c in '<>:"|?*' or ord(c) < 32 for c in name): return False  # ':' here: an alternate data stream
        if name != name.rstrip(' .'): return False                         # Windows strips them: another name
        if name.split('.')[0].rstrip(' ').upper() in _RESERVED: return False
    return True

_piece = st.sampled_from(['', 'C:', 'c|', 'Z:', 'C:x', 'CON', 'nul.txt', 'Com1', 'LPT9.tar.gz', 'aux ', 'AuX .c', 'prn.', 'a.', 'a ',
                          '?', '.', '..', '...', 'x:y', 'x:$DATA', 'host', 'share', 'a*b', 'a"b', 'a<b', 'CONIN$', 'com\xb9', 'lpt\xb3.x',
                          'COM0', 'CONOUT$.log', 'ok', 'readme.txt', 'dir', 'a|b'])

def _encode(s:str, mask:int) -> str:
    "Write each character of `s` as itself or (by `mask`'s bits) as its %XX escapes (UTF-8)"
    out = []
    for i, ch in enumerate(s):
        raw = ch if (ch.isascii() and (ch.isalnum() or ch in '.-_:$')) else None
        out.append(raw if raw is not None and not (mask >> (i % 30)) & 1 else ''.join(f'%{b:02X}' for b in ch.encode('utf-8')))
    return ''.join(out)

@QUICK
@given(levels=st.lists(_piece, min_size=1, max_size=4), mask=st.integers(0, 2**30), host=st.sampled_from(['', 'localhost', 'LocalHost']))
def test_windows_path_stays_local(levels, mask, host):
    "to_local_path('windows'): a name Windows reads as a local file on a drive or root, or a URIError at the offending level"
    url = f"file://{host}/" + '/'.join(_encode(s, mask) for s in levels)
    try: u = parse_url(url)
    except URIError: return
    start = len(f"file://{host}/")
    try: p = u.to_local_path('windows')
    except URIError as e:
        assert e.position is not None and start <= e.position <= len(url), (url, e.position)
        return
    assert _windows_local(p), (url, p)


@pytest.mark.parametrize("url, pos", [
    ("file:////host/share/f", 8), ("file:///%2F%2Fhost/share", 8), ("file:////%3F/C:/x", 8), ("file:////./COM1", 8),
    ("file:///C:x", 9), ("file:///C:/a:b", 12), ("file:///C:/a%3Ab", 12), ("file:///C:/CON", 11), ("file:///c:/dir/nul.txt", 15),
    ("file:///C:/x/LpT1.tar.gz", 13), ("file:///C:/com%C2%B9", 11), ("file:///C:/a.", 12), ("file:///C:/a%20", 12),
    ("file:///C:/a%2A", 12), ("file:///C:/con%20.txt", 11), ("file:///C%7Cx", 9),
])
def test_windows_refusals_positions(url, pos):
    "Each kind is refused at its position in the URL (escapes count as written)"
    try: got = parse_url(url).to_local_path('windows')
    except URIError as e: assert (e.position, e.rule) == (pos, 'file-path'), (url, e.position, e.message)
    else: pytest.fail(f"{url} gave {got!r}")


def test_retrieve_on_windows_refuses_before_opening(monkeypatch, tmp_path):
    "retrieve on Windows (os.name 'nt') refuses a device name, a stream or a UNC path before it opens anything"
    import uri1630.schemes.file as F
    opened = []
    class NtOs:          # the file slice's `os` as on Windows (only there: pytest's own paths stay POSIX)
        name = 'nt'
        def open(self, *a, **k): opened.append(a); raise FileNotFoundError(a[0])
        def __getattr__(self, k): return getattr(os, k)
    monkeypatch.setattr(F, 'os', NtOs())
    for url in ("file:///C:/CON", "file:///C:/x/nul", "file:///C:/a:stream", "file:////evil/share/x", "file:///aux.txt"):
        with pytest.raises(URIError) as e: retrieve(url)
        assert not isinstance(e.value, RetrievalError), (url, e.value)
    assert opened == []


@QUICK
@given(path=st.lists(st.from_regex(r'[a-z0-9._~-]{1,8}', fullmatch=True), min_size=1, max_size=4).map('/'.join),
       host=st.sampled_from(['localhost', 'LOCALHOST', 'LocalHost']))
def test_void_host_is_localhost(path, host):
    "RFC 1630: \"A void host field is equivalent to 'localhost'\": equivalent and compare agree; another host differs"
    a, b = f"file://{host}/{path}", f"file:///{path}"
    assert equivalent(a, b) and compare(a, b).equivalent and compare(b, a).equivalent
    assert not equivalent(f"file://otherhost/{path}", b) and not compare(f"file://otherhost/{path}", b).equivalent


# ---- 3. one deadline for the whole retrieval ----------------------------------------------------------------------

BlackHoles = S.BlackHoles

def test_black_hole_probe():
    "The black hole works here: a plain connect to one does not finish in 0.5 s"
    bh = BlackHoles(1)
    try:
        with pytest.raises(socket.timeout): socket.create_connection(bh.addrs[0], timeout=0.5)
    finally: bh.close()

@pytest.mark.parametrize("delay", [0.0, 30.0])
def test_one_deadline_multi_address_black_hole(monkeypatch, delay):
    "A name with five addresses that never answer (or a resolver that takes 30 s): total_timeout=3 ends the retrieval in about 3 s"
    bh = BlackHoles(5)
    stub = Resolver({'many.example': bh.addrs}, delay=delay)
    monkeypatch.setattr(socket, 'getaddrinfo', stub)
    try:
        t = time.monotonic()
        with pytest.raises(RetrievalError) as e: retrieve("http://many.example/", timeout=10, total_timeout=3)
        took = time.monotonic() - t
    finally: bh.close()
    print(f"black hole (resolver delay {delay}s): {took:.2f}s with total_timeout=3")
    assert 'total_timeout' in str(e.value) or 'total deadline' in str(e.value), e.value
    assert took < 3 + 1.0, took

def test_every_address_tried_within_the_deadline(monkeypatch):
    "Three black holes, then a server that answers: each address gets a share, the last one is reached"
    bh = BlackHoles(3)
    def ok(c, rec): S.read_until(c, b"\r\n\r\n"); c.sendall(b"HTTP/1.0 200 OK\r\n\r\nhere")
    with S.Misbehaving(ok) as m:
        monkeypatch.setattr(socket, 'getaddrinfo', Resolver({'many.example': bh.addrs + [(m.host, m.port)]}))
        try: assert retrieve("http://many.example/", timeout=0.5, total_timeout=5) == b"here"
        finally: bh.close()


# ---- 6. a proxy checks first -----------------------------------------------------------------------------------------

_REFUSED = ["mailto:a@b.example", "telnet://h.example/", "rlogin://u@h.example", "tn3270://h.example/", "urn:x:y", "mid:a@b", "cid:a@b",
            "gopher://h.example/1%09%09+%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A",   # gopher+ ASK without allow_ask
            "gopher://h.example/0a%0D%0ADELE", "gopher://h.example/8x", "gopher://h.example/Tx", "gopher://h.example/2x",
            "ftp://h.example/a%0D%0ADELE%20x", "ftp://h.example/a%00b", "http://h.example:65536/",
            "gopher://h.example:99999/1"]

@pytest.mark.parametrize("url", _REFUSED)
def test_proxy_checks_first(url, monkeypatch):
    "Whatever retrieve refuses directly before a byte leaves, it refuses through a gateway too, and the gateway gets nothing"
    monkeypatch.setattr(socket, 'getaddrinfo', Resolver({}))     # a direct retrieval that got as far as a name would fail here
    with pytest.raises(URIError) as direct: retrieve(url, timeout=1, total_timeout=2)
    assert 'stub: no such name' not in str(direct.value), "direct retrieval got to the resolver"
    with S.Misbehaving(lambda c, rec: rec.append(c.recv(100))) as gw:
        with pytest.raises(URIError) as via: retrieve(url, proxy=f"{gw.host}:{gw.port}", timeout=1, total_timeout=2)
        time.sleep(0.05)
        assert gw.received == [], gw.received
    assert type(via.value) is type(direct.value) and via.value.message == direct.value.message, (direct.value, via.value)

def test_proxy_refuses_host_number_zeros():
    "A host number with a leading zero is read by the gateway, not uri1630: it is refused rather than sent"
    with S.Misbehaving(lambda c, rec: rec.append(c.recv(100))) as gw:
        with pytest.raises(URIError) as e: retrieve("http://010.0.0.1/", proxy=f"{gw.host}:{gw.port}", timeout=1, total_timeout=2)
        time.sleep(0.05); assert gw.received == []
    assert e.value.position == 7

@pytest.mark.parametrize("url", ["gopher://127.0.0.1:9/1/x%09y", "ftp://127.0.0.1/pub/f;type=a", "http://127.0.0.1:1/p?q",
                                 "news:comp.infosystems", "wais://h.example/db?q", "nntp://h.example/g/1", "x-foo:bar", "prospero://h.example/a"])
def test_proxy_still_sends_what_is_allowed(url):
    "What retrieve sends directly, and what only lacks a client here (RFC 1630: \"gateway locators for indirect access through new naming schemes\"), goes to the gateway"
    def gw(c, rec): rec.append(S.read_until(c, b"\r\n\r\n")); c.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
    with S.Misbehaving(gw) as m:
        assert retrieve(url, proxy=f"{m.host}:{m.port}", timeout=2) == b"ok"
        assert m.received[0].startswith(f"GET {url} HTTP/1.0\r\n".encode())


# ---- 7. no server sets the depth of a recursion ------------------------------------------------------------------

def test_redirects_run_in_a_loop():
    "A server that redirects to itself: the client's stack stays as deep at the 60th redirect as at the 2nd"
    def again(c, rec): S.read_until(c, b"\r\n\r\n"); c.sendall(b"HTTP/1.0 302 Found\r\nLocation: /again\r\nContent-Length: 0\r\n\r\n")
    depths = []
    def trace(direction, line):
        if direction == '>' and line.startswith('GET '):
            f, n = sys._getframe(), 0
            while f is not None: n += 1; f = f.f_back
            depths.append(n)
    with S.Misbehaving(again) as m:
        with pytest.raises(RetrievalError) as e: retrieve(f"http://{m.host}:{m.port}/", redirects=60, trace=trace, total_timeout=30)
    assert e.value.status == 302 and len(depths) == 61, len(depths)
    assert max(depths) == min(depths), depths[:3] + depths[-3:]


# ---- 8. what you build, you can parse back ------------------------------------------------------------------------

_host_chars = st.text(st.sampled_from('abcXYZ019.-:/@?#%[]_ \t\x00é'), min_size=0, max_size=12)

@QUICK
@given(gtype=st.characters(max_codepoint=0x2ff), selector=st.text(max_size=20), host=st.one_of(_hostname, _host_chars),
       port=st.integers(-5, 70000), display=st.text(max_size=5))
def test_menu_item_url_names_exactly_the_item(gtype, selector, host, port, display):
    "A URL built from a menu item names exactly that item's host, port, type and selector, or is refused (URIError)"
    item = MenuItem(gtype, display, selector, host, port)
    try: url = item.url
    except URIError: return
    if url is None: assert gtype in 'i3' or not host; return
    u = parse_url(url)
    assert (u.scheme, u.host, u.effective_port, u.gtype, u.selector, u.search) == ('gopher', host, port, gtype, selector, None), url
    assert u.request() == selector + '\r\n'

@QUICK
@given(loc=st.one_of(st.text(max_size=30).map(lambda s: '/' + s), st.text(max_size=30).map(lambda s: '//' + s),
                     st.from_regex(r'/[a-z0-9/._~-]{0,20}(\?[a-z0-9=&]{0,8})?(#[a-z]{0,4})?', fullmatch=True),
                     st.from_regex(r'//[a-z]{1,8}(\.[a-z]{1,5})?(:0*[0-9]{1,4})?/[a-z0-9/]{0,10}', fullmatch=True),
                     st.from_regex(r'http://[a-z]{1,8}(:[0-9]{1,4})?/[a-z0-9/]{0,10}', fullmatch=True)),
       base=st.sampled_from(["http://h.example/a/b", "http://h.example:8080/", "http://127.000.0.1:0080/x?y"]))
def test_redirect_target_parses_back(loc, base):
    "A Location made into a URL names the host and port RFC 1630's partial form gives it, and the path and search as sent, or is refused"
    from uri1630.schemes.http import _redirect_target
    u = parse_url(base)
    try: target = _redirect_target(u, loc)
    except URIError: return
    t = parse_url(target)
    assert t.scheme == 'http'
    path = loc.split('#')[0]
    if loc.startswith('//'):
        hostport = re.split('[/?#]', loc[2:])[0]; h, _, p = hostport.partition(':')
        assert (t.host, t.port) == (h, int(p) if p else None)
    elif loc.startswith('/'):
        assert (t.host, t.port) == (u.host, u.port) and t.request_target() == path, (target, loc)
    else: assert target == loc

def test_redirect_network_path_goes_where_it_says(monkeypatch):
    "Location: //other.example:P/x names the host other.example (RFC 1630 partial form), not the path //other.example/x on the first server"
    def to_other(c, rec): rec.append(S.read_until(c, b"\r\n\r\n")); c.sendall(b"HTTP/1.0 302 Found\r\nLocation: //other.example:%d/x\r\n\r\n" % other.port)
    def ok(c, rec): rec.append(S.read_until(c, b"\r\n\r\n")); c.sendall(b"HTTP/1.0 200 OK\r\n\r\nother")
    with S.Misbehaving(ok) as other, S.Misbehaving(to_other) as first:
        monkeypatch.setattr(socket, 'getaddrinfo', Resolver({'first.example': [(first.host, first.port)], 'other.example': [(other.host, other.port)]}))
        assert retrieve(f"http://first.example:{first.port}/", redirects=1, timeout=2) == b"other"
        assert other.received[0].startswith(b"GET /x HTTP/1.0\r\nHost: other.example:")


# ---- 9. memory follows the data ---------------------------------------------------------------------------------------

def _peak(fn):
    tracemalloc.start()
    try: fn()
    finally: peak = tracemalloc.get_traced_memory()[1]; tracemalloc.stop()
    return peak

def test_file_read_sized_by_the_file_not_max_bytes(tmp_path):
    "A 10-octet file read with max_bytes=1 GiB: the memory is that of the file, not of the argument"
    f = tmp_path / 'small'; f.write_bytes(b'0123456789')
    got = []
    peak = _peak(lambda: got.append(retrieve(f.as_uri(), max_bytes=2**30)))
    assert got == [b'0123456789'] and peak < 2**20, peak

N_ITEMS = 300_000

def test_iter_menu_constant_state_per_item():
    "iter_menu over 300,000 items, each with a distinct host: the memory does not grow with the items"
    menu = b''.join(b"1item %d\t/sel/%d\thost%d.example.org\t70\r\n" % (i, i, i) for i in range(N_ITEMS)) + b".\r\n"   # made before measuring
    def serve(c, rec): S.read_until(c); c.sendall(menu)
    with S.Misbehaving(serve) as m:
        n = []
        with pytest.raises(RetrievalError): sum(1 for _ in iter_menu(f"gopher://{m.host}:{m.port}/1", max_bytes=4096))   # warm up (imports, patterns): not per item
        peak = _peak(lambda: n.append(sum(1 for _ in iter_menu(f"gopher://{m.host}:{m.port}/1", total_timeout=120))))
    print(f"iter_menu peak over {N_ITEMS} items with distinct hosts: {peak} octets")
    assert n == [N_ITEMS] and peak < 2 * 2**20, peak          # before: 29 MB (a string and a dict slot per distinct host)
