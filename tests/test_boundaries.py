"""Issue #26: nothing raw crosses a boundary. Each invariant is tested over its whole surface, by generation.

1. Server text: hostile loopback servers (HTTP, FTP, gopher, Gopher+) put every C0 and C1 control, DEL and each
   bidirectional override into every field each protocol reads; none may reach `str(exception)` (nor its message,
   args, repr or command), a `trace` line, a menu's display string as shown, or the stderr of `uri1630 get` raw.
2. A proxy is a URL's host and port: a login in `proxy=` is refused at its position, masked, before any lookup;
   its host passes the host-number checks a URL's host does; only the host reaches the resolver.
3. Every renderer holds its output bound (100 x input + 16,384) under every text encoding Python knows.
4. The argument contract over all of `uri1630.__all__`: wrong-typed arguments raise TypeError or ValueError
   (the URIError family is ValueError), nothing else.

Each finding of the issue has a test here that fails on main 3e24157 (run with PYTHONPATH set to that checkout):
`test_http_fields`/`test_gopher_fields`/`test_cli_get_stderr` (server text raw), `test_proxy_login_never_resolved`
(proxy login to resolver), `test_level_html_unicode_escape_bound` and `test_renderers_every_codec` (the
unicode_escape bound), `test_undot_none` and `test_argument_contract_all` (undot(None)).
"""
import codecs, encodings, encodings.aliases, inspect, os, pkgutil, socket, subprocess, sys
from pathlib import Path

import pytest

import servers as S
import uri1630
from uri1630 import URIError
from uri1630.access import retrieve
from uri1630.transport import RetrievalError
from uri1630.schemes.gopher import retrieve_menu, parse_menu

ROOT = Path(uri1630.__file__).resolve().parent.parent      # the checkout whose uri1630 is under test

# ---- what must never be shown raw --------------------------------------------------------------------------------

C0 = [chr(c) for c in range(0x20)]
C1 = [chr(c) for c in range(0x80, 0xA0)]
BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
HOSTILE = C0 + ["\x7f"] + C1 + BIDI            # 74 characters
RAW = frozenset(HOSTILE)


def wire(ch: str) -> bytes:
    "The octets a server sends for `ch`: one octet up to U+00FF, UTF-8 beyond (a bidi override as a browser would)"
    return ch.encode("latin-1") if ord(ch) < 256 else ch.encode("utf-8")


def raw_in(text) -> set:
    "The hostile characters in `text` as written (a `str` subclass is read as the `str` it holds)"
    return RAW.intersection(str.__str__(text)) if isinstance(text, str) else set()


def assert_shown(e: BaseException, trace_lines=(), where=""):
    "No hostile character raw in anything an exception or a trace shows"
    seen = {"str": str(e), "repr": repr(e), "message": getattr(e, "message", ""), "command": getattr(e, "command", "")}
    seen.update({f"args[{k}]": a for k, a in enumerate(e.args) if isinstance(a, str)})
    seen.update({f"trace[{k}]": line for k, line in enumerate(trace_lines)})
    bad = {name: sorted(map(hex, map(ord, raw_in(v)))) for name, v in seen.items() if raw_in(v)}
    assert not bad, (where, bad)


def refused(fn, exc=URIError):
    with pytest.raises(exc) as ei: fn()
    return ei.value


def caught(fn, seen):
    "The URIError `fn()` raises (counted in `seen`), or None: a control some readers skip may leave a reply valid"
    try: fn()
    except URIError as e:
        seen.append(e)
        return e
    return None


class Box:
    "A loopback server whose reply is rebuilt for each connection from `self.reply(request)`"
    def __init__(self, script):
        self.reply = None
        self.srv = S.Misbehaving(lambda c, rec: script(self, c))
        self.host, self.port = self.srv.host, self.srv.port
    def __enter__(self): return self
    def __exit__(self, *a): self.srv.close()


# ---- 1a. HTTP: reason phrase, header values, Location, the status line -----------------------------------------------

def _http_script(box, c):
    S.read_until(c, b"\r\n\r\n")
    c.sendall(box.reply)

HTTP_FIELDS = {
    "reason phrase": lambda b: b"HTTP/1.0 500 Bad" + b + b"Thing\r\nContent-Length: 0\r\n\r\n",
    "Transfer-Encoding": lambda b: b"HTTP/1.0 200 OK\r\nTransfer-Encoding: x" + b + b"y\r\n\r\n",
    "Content-Length": lambda b: b"HTTP/1.0 200 OK\r\nContent-Length: 1" + b + b"\r\n\r\n",
    "Location (not followed)": lambda b: b"HTTP/1.0 302 Found\r\nLocation: http://h.example/a" + b + b"b\r\nContent-Length: 0\r\n\r\n",
    "Location (followed)": lambda b: b"HTTP/1.0 302 Found\r\nLocation: /a" + b + b"b\r\nContent-Length: 0\r\n\r\n",
    "status line": lambda b: b"HTTP/1.0 2" + b + b"0 OK\r\n\r\n",
    "header line": lambda b: b"HTTP/1.0 200 OK\r\nX-" + b + b"\r\n\r\n",
}


@pytest.mark.parametrize("field", list(HTTP_FIELDS))
def test_http_fields(field):
    "Every hostile character in every HTTP field a message can quote: shown as an escape, never raw"
    seen = []
    with Box(_http_script) as box:
        for ch in HOSTILE:
            box.reply = HTTP_FIELDS[field](wire(ch))
            lines = []
            e = caught(lambda: retrieve(f"http://{box.host}:{box.port}/x", timeout=5, total_timeout=10,
                                        redirects=1 if "followed)" in field else 0,
                                        trace=lambda d, line: lines.append(line)), seen)
            assert_shown(e or URIError("-"), lines, (field, hex(ord(ch))))
    assert len(seen) >= len(HOSTILE) - 8, (field, len(seen))


# ---- 1b. FTP: the greeting, a reply's text, a multi-line reply, the PASV reply --------------------------------------------

def _ftp_script(box, c):
    greeting, user_reply = box.reply
    c.sendall(greeting)
    if not greeting.startswith(b"220"): return
    S.read_until(c)                                   # USER
    c.sendall(user_reply)
    if not user_reply.startswith(b"230"): return
    S.read_until(c)                                   # TYPE or PASV
    c.sendall(b"500 no" + box.ch + b"pasv\r\n")

FTP_FIELDS = {
    "greeting": lambda b: (b"421 bye" + b + b"now\r\n", b""),
    "reply text": lambda b: (b"220 ok\r\n", b"530 no" + b + b"way\r\n"),
    "multi-line reply": lambda b: (b"220 ok\r\n", b"530-first" + b + b"line\r\n530 end\r\n"),
    "PASV reply": lambda b: (b"220 ok\r\n", b"230 in\r\n"),
}


@pytest.mark.parametrize("field", list(FTP_FIELDS))
def test_ftp_fields(field):
    "Every hostile character in an FTP reply's text: shown as an escape, never raw"
    seen = []
    with Box(_ftp_script) as box:
        for ch in HOSTILE:
            box.reply, box.ch = FTP_FIELDS[field](wire(ch)), wire(ch)
            lines = []
            e = caught(lambda: retrieve(f"ftp://{box.host}:{box.port}/f", timeout=5, total_timeout=10,
                                        trace=lambda d, line: lines.append(line)), seen)
            assert_shown(e or URIError("-"), lines, (field, hex(ord(ch))))
    assert len(seen) >= len(HOSTILE) - 8, (field, len(seen))


# ---- 1c. gopher: a type-3 error line, a Gopher+ '-' header, a menu's display string, a malformed menu line ----------------

def _gopher_script(box, c):
    S.read_until(c)
    c.sendall(box.reply)

GOPHER_FIELDS = {
    "type-3 error line": ("0sel", lambda b: b"3no" + b + b"such\tfake\t(NULL)\t0\r\n.\r\n"),
    "Gopher+ '-' header": ("0sel%09%09+", lambda b: b"--1 bad" + b + b"thing\r\nmore" + b + b"\r\n"),
    "malformed menu line": ("1", lambda b: b"1disp" + b + b"lay\r\n.\r\n"),
}


@pytest.mark.parametrize("field", list(GOPHER_FIELDS))
def test_gopher_fields(field):
    "Every hostile character in every gopher field a message quotes: shown as an escape, never raw"
    path, make = GOPHER_FIELDS[field]
    seen = []
    with Box(_gopher_script) as box:
        for ch in HOSTILE:
            box.reply = make(wire(ch))
            lines = []
            url = f"gopher://{box.host}:{box.port}/{path}"
            fn = retrieve_menu if path == "1" else retrieve
            e = caught(lambda: fn(url, timeout=5, total_timeout=10, trace=lambda d, line: lines.append(line)), seen)
            assert_shown(e or URIError("-"), lines, (field, hex(ord(ch))))
    assert len(seen) >= len(HOSTILE) - 8, (field, len(seen))


def test_menu_display_strings():
    "A menu's display string (and every trace line) shows a hostile character as an escape; `raw` keeps it"
    inline = [ch for ch in HOSTILE if ch not in "\t\r\n"]    # TAB, CR, LF end a field or a line
    with Box(_gopher_script) as box:
        for ch in inline:
            box.reply = b"0a" + wire(ch) + b"b\t/sel\t" + box.host.encode() + b"\t70\r\n.\r\n"
            lines = []
            items = retrieve_menu(f"gopher://{box.host}:{box.port}/1", timeout=5, trace=lambda d, line: lines.append(line))
            assert not raw_in(items[0].display) and not any(map(raw_in, lines)), hex(ord(ch))
            assert wire(ch).decode("latin-1") in items[0].display.raw
    for ch in inline:                                   # parsed as UTF-8: the override itself is one character
        item = parse_menu(("0a" + ch + "b\t/s\th\t70\r\n").encode("utf-8", "surrogatepass"), "utf-8")[0]
        assert not raw_in(item.display) and not raw_in(f"{item.display}") and not raw_in(repr(item)), hex(ord(ch))


# ---- 1d. the CLI: `uri1630 get` writes one line on stderr, whatever the server sent --------------------------------------

def _cli_get(url):
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "uri1630", "get", "--timeout", "5", url], capture_output=True,
                          cwd=ROOT, env=env, timeout=120)


@pytest.mark.parametrize("field", ["reason phrase", "Location (not followed)", "Transfer-Encoding"])
def test_cli_get_stderr(field):
    "`uri1630 get` against a server that puts every hostile character into one field: stderr holds none raw"
    with Box(_http_script) as box:
        box.reply = HTTP_FIELDS[field](b"".join(wire(ch) for ch in HOSTILE if ch not in "\r\n"))
        p = _cli_get(f"http://{box.host}:{box.port}/x")
    err = p.stderr.decode("utf-8", "surrogateescape")
    assert p.returncode == 1 and err.count("\n") == 1, (p.returncode, err)
    assert not raw_in(err.rstrip("\n")), sorted(map(hex, map(ord, raw_in(err.rstrip("\n")))))


def test_cli_get_stderr_gopher():
    "The gopher error line and the Gopher+ header through `uri1630 get`"
    for path, make in GOPHER_FIELDS.values():
        if path == "1": continue
        with Box(_gopher_script) as box:
            box.reply = make(b"".join(wire(ch) for ch in HOSTILE if ch not in "\r\n\t"))
            p = _cli_get(f"gopher://{box.host}:{box.port}/{path}")
        err = p.stderr.decode("utf-8", "surrogateescape").rstrip("\n")
        assert p.returncode == 1 and err and not raw_in(err), (path, err)


def test_body_is_unchanged():
    "The bytes a caller asked for are data: every octet the server sent, unchanged"
    body = bytes(range(256)) + "".join(BIDI).encode("utf-8")
    with Box(_http_script) as box:
        box.reply = b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body
        assert retrieve(f"http://{box.host}:{box.port}/x", timeout=5) == body


# ---- 2. the proxy: a URL's host and port -------------------------------------------------------------------------------------

@pytest.fixture
def lookups(monkeypatch):
    "Every name handed to the resolver (none is resolved: the stub knows no name)"
    stub = S.StubResolver()
    monkeypatch.setattr(socket, "getaddrinfo", stub)
    return stub.asked


@pytest.mark.parametrize("proxy", ["bob:hunter2@gw.example:3128", "bob:hunter2@127.0.0.1:3128", "bob@gw.example:3128",
                                   "bob:hun%40ter2@gw.example:3128", ":hunter2@gw.example:3128"])
def test_proxy_login_never_resolved(proxy, lookups):
    "A login in `proxy=` is a URIError at its position (0), the password masked; nothing reaches the resolver"
    e = refused(lambda: retrieve("http://h.example/", proxy=proxy, timeout=2))
    assert type(e) is not RetrievalError and e.position == 0, (type(e), e.position, str(e))
    assert "hunter2" not in str(e) and "hunter2" not in repr(e) and "hun%40ter2" not in str(e), str(e)
    assert lookups == [], lookups


# a host number with leading zeros ("010.0.0.1") is not here: uri1630 connects to the gateway itself, so it reads it in
# decimal as it does a URL's host it connects to (tests/test_retrieval_invariants.py::test_connect_where_you_parsed)
@pytest.mark.parametrize("proxy", ["0x7f.0.0.1:3128", "127.1:3128", "2130706433:3128", "0x7f000001:3128",
                                   "1.2.3.256:3128", "gw_x.example:3128", "gw.example", "gw.example:65536", "gw.example:80/p"])
def test_proxy_host_checks(proxy, lookups):
    "The proxy's host passes the checks a URL's host uri1630 connects to does (a name the C library reads as a number refused); refused before any lookup"
    refused(lambda: retrieve("http://h.example/", proxy=proxy, timeout=2))
    assert lookups == [], lookups


def test_proxy_only_host_resolved(monkeypatch):
    "A well-formed proxy: the resolver is asked for its host alone"
    stub = S.StubResolver({"gw.example": [("127.0.0.1", S.free_port())]})
    monkeypatch.setattr(socket, "getaddrinfo", stub)
    refused(lambda: retrieve("http://h.example/", proxy="GW.example:3128", timeout=2), RetrievalError)
    assert [h.lower() for h in stub.asked] == ["gw.example"], stub.asked


# ---- 3. every renderer, every codec ------------------------------------------------------------------------------------------

FACTOR, FRAME = 100, 16_384


def text_codecs():
    "Every codec name Python knows (aliases and modules) that encodes str to bytes"
    names = set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
    names |= {m.name for m in pkgutil.iter_modules(encodings.__path__) if not m.name.startswith("_")}
    out = {}
    for n in sorted(names):
        try: info = codecs.lookup(n)
        except LookupError: continue
        if getattr(info, "_is_text_encoding", True): out.setdefault(info.name, n)
    return sorted(out.values())


def test_codec_list_is_complete():
    "The walk finds the codecs the issue names"
    found = {codecs.lookup(n).name for n in text_codecs()}
    want = {codecs.lookup(n).name for n in ("unicode_escape", "raw_unicode_escape", "punycode", "utf-7", "idna",
                                            "utf-32", "latin-1", "cp500", "utf-16")}
    assert want <= found and len(found) > 90, (want - found, len(found))


def test_level_html_unicode_escape_bound():
    "The attacker's finding: level_html(…, encoding='unicode_escape') over the bound"
    from uri1630.render import level_html
    text = '"\U0001f600' * 5000
    assert len(level_html(text, "canonical", "unicode_escape")) <= FACTOR * len(text) + FRAME


# the inputs that make the most HTML per character: a changed unit between two of another class, each in its span
WORST = ['"\U0001f600', "<\"", " \"", "a\U000e0100", "/\U0001f600", "a\x85", "a\u202e", "&\U0001f600"]


@pytest.mark.parametrize("codec", text_codecs())
def test_renderers_every_codec(codec):
    "level_html's bound under every text encoding, at every level, on the inputs that make the most HTML"
    from uri1630.render import level_html
    for pat in WORST[:4]:
        text = pat * 600
        for level in ("canonical", "decoded"):
            h = level_html(text, level, codec)
            assert len(h) <= FACTOR * len(text) + FRAME, (codec, pat, level, len(h))


def test_every_renderer_is_held():
    "Every public renderer (the HTML functions of uri1630.render) holds the bound, whatever it is given"
    import uri1630.render as R
    from uri1630 import parse_url
    big = '"\U0001f600<&' * 3000
    calls = {"level_html": lambda: R.level_html(big, "alphanumeric", "unicode_escape"),
             "resolution_html": lambda: R.resolution_html("x:/" + big, big),
             "marked_html": lambda: R.marked_html(big, 5),
             "error_html": lambda: R.error_html(URIError(big, big, 3, big), big),
             "parts_html": lambda: R.parts_html(parse_url("ftp://h/" + "%22" * 3000)),
             "parse_html": lambda: R.parse_html("ftp://h/" + big)}
    assert set(calls) == {n for n in R.__all__ if n.endswith("_html")}
    for name, call in calls.items():
        h = call()
        n = {"resolution_html": len(big) * 2 + 3, "parts_html": 8 + 9000, "parse_html": 8 + len(big),
             "error_html": 2 * len(big)}.get(name, len(big))
        assert len(h) <= FACTOR * n + FRAME, (name, len(h))


# ---- 4. the argument contract over __all__ -----------------------------------------------------------------------------------

class _Obj: pass

WRONG = [None, 7, 1.5, b"http://h/", bytearray(b"http://h/"), memoryview(b"http://h/"), _Obj(), ["http://h/"], {"a": 1}]


def test_undot_none():
    "The attacker's finding: undot(None) raised AttributeError"
    from uri1630 import undot
    for bad in (None, 7, "text", memoryview(b"x")):
        with pytest.raises(TypeError): undot(bad)
    assert undot(b"a\r\n..b\r\n.\r\n") == b"a\r\n.b\r\n"


def _public_callables():
    for name in uri1630.__all__:
        f = getattr(uri1630, name)
        if callable(f) and not (isinstance(f, type) and issubclass(f, BaseException)):
            yield name, f


def _required(f):
    try: sig = inspect.signature(f)
    except (TypeError, ValueError): return 1
    return sum(1 for p in sig.parameters.values()
               if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*a, **k): raise AssertionError("the contract test must not reach the network")
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


def test_argument_contract_all(no_network):
    "Every public function and class, given wrong-typed arguments: TypeError or ValueError (URIError), nothing else"
    escaped = []
    for name, f in _public_callables():
        for k in range(1, max(_required(f), 1) + 1):
            for bad in WRONG:
                for args in ([bad] * k, ["http://h/"] * (k - 1) + [bad]):
                    try:
                        r = f(*args)
                        if inspect.isgenerator(r): next(r, None)
                    except (TypeError, ValueError):
                        pass
                    except Exception as e:
                        escaped.append((name, k, type(bad).__name__, type(e).__name__, str(e)[:80]))
    assert not escaped, escaped[:10]
