"""Issue 26, points 2 and 4: a password is one type (`Secret`) and parser differentials are named.

(a) Every public function of `uri1630` is called on URLs of every scheme whose password holds every character
    RFC 1738's own `password` production allows (read from the package's grammar, not typed here), valid and
    not; every value they return (walked into tuples, lists, dataclass fields, generators) and every error
    they raise is looked at: the password, as read or as written or fully %-encoded, is in no `str`, `repr`,
    `format`, markdown or HTML of it, nor in the pickle or JSON of a value that carries a parsed password; the
    renderers (their error boxes too), a retrieval's trace and error, and the CLI's output show none. Only
    `Secret.reveal()` and `SchemeURL.reveal()` give it.
(b) A hypothesis property: for logins built from RFC 1738's user characters and the characters RFC 3986
    readers split at (`? # \\ @ / ; :`, escapes), wherever urllib or rfc3986 reads another user, host or port
    than uri1630, `risks()` names a `host-differs` risk with the other reading; where they agree, none.

What is data, not a display, is left as it is: a function's plain `str` result (`canonical`, `resolve`: the
URL asked for), the lossless generic split `URI` and the `GenericURL` of an unknown scheme (RFC 1630's
generic syntax has no login: nothing there was read as a password), and the fields of `Found` and
`ResolutionStep` (their reprs mask).
"""
import dataclasses, inspect, json, os, pickle, subprocess, sys, types
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
from hypothesis import given, settings, HealthCheck, strategies as st

import uri1630
from uri1630 import URIError, check_production, risks, parse_url

# (the findings' tests at the end also run on a uri1630 without `Secret`: 3e24157, where they fail)
Secret = getattr(uri1630, "Secret", type("NoSecret", (), {}))

ROOT = Path(__file__).resolve().parent.parent


# ---- the password: every character RFC 1738's `password` production allows, read from the grammar ----
def _allowed() -> str:
    "The ASCII characters that `password` (RFC 1738 §5, as the package's grammar has it) takes alone"
    def ok(c):
        try: check_production(c, production="password", grammar="rfc1738"); return True
        except URIError: return False
    return "".join(c for c in map(chr, range(128)) if ok(c))


ALLOWED = _allowed()
# an escape is allowed too (`uchar = unreserved | escape`): the last character is written %5A ('Z')
assert "Z" in ALLOWED and "?" in ALLOWED
try:
    check_production("%5A", production="password", grammar="rfc1738")
except URIError:
    raise AssertionError("the grammar refuses an escape in a password")
WRITTEN = "Zq" + ALLOWED + "%5A"                     # as written in the URL
CLEAR = unquote(WRITTEN, encoding="latin-1")         # as read
NEEDLES = {CLEAR, WRITTEN, quote(CLEAR, safe=""), *CLEAR.split("?"), *WRITTEN.split("?")}


def leaks(text) -> list:
    "The needles (forms and parts of the password) found in `text` (str or bytes)"
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("latin-1")
    return [n for n in NEEDLES if n in text]


def urls_with_password():
    "Valid and invalid URLs of every scheme, each with the password in a `//user:password@` login"
    pw = WRITTEN
    out = [f"ftp://u:{pw}@h.example/pub/f;type=a", f"ftp://u:{pw}@h.example:2121/", f"<URL:ftp://u:{pw}@h.example/f>",
           f"url:telnet://u:{pw}@h.example:23/", f"rlogin://u:{pw}@h.example", f"tn3270://u:{pw}@h.example/",
           f"x-new://u:{pw}@h.example/p", f"ftp://u:{pw}@010.0.0.1:25/a%0Db",
           # invalid: each fails after the login was read, or in it
           f"ftp://u:{pw}@h^x/", f"ftp://u:{pw}@h.example/%zz", f"telnet://u:{pw}@h.example/x/y",
           f"ftp://u:{pw}@h.example:99999999/", f"ftp://u:{pw} x@h/", f"ftp://u:{pw}@@h/"]
    out += [f"{s}://u:{pw}@h.example/x" for s in uri1630.SCHEMES if _reads_login(s)]
    return out


def _reads_login(scheme) -> bool:
    "Whether `scheme://…@` is a login to uri1630: a record with a login rule, a host, or the generic syntax"
    # (a mailto address, a news or mid id, a urn holding `//u:p@h` hold no login: nothing there is a password)
    e = uri1630.SCHEME_ENTRIES.get(scheme)
    if e is not None and e.login is not None: return True
    try: u = parse_url(f"{scheme}://h.example/x")
    except URIError: return False
    return hasattr(u, "host") or isinstance(u, uri1630.GenericURL)


URLS = urls_with_password()


# ---- (a) the walk: every public function, every value it returns, every error it raises ----
SKIP = {'retrieve', 'retrieve_menu', 'iter_menu', 'http_request', 'ftp_session', 'gopher_exchange', 'register_scheme',
        'declare', 'register_grammar', 'register_retrieval', 'main', 'local_cluster', 'from_lines', 'map_bag'}


def _functions():
    import uri1630.partial, uri1630.render, uri1630.cli, uri1630.scale
    for mod in (uri1630, uri1630.partial, uri1630.render, uri1630.scale):
        for name in getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]:
            f = getattr(mod, name, None)
            if name not in SKIP and inspect.isfunction(f):
                yield name, f


def _walk(v, seen):
    if id(v) in seen: return
    seen.add(id(v))
    if isinstance(v, types.GeneratorType):
        for x in v: yield from _walk(x, seen)
        return
    yield v
    if isinstance(v, (tuple, list, frozenset, set)) and not isinstance(v, str):
        for x in v: yield from _walk(x, seen)
    elif isinstance(v, dict):
        for x in v.values(): yield from _walk(x, seen)
    elif dataclasses.is_dataclass(v) and not isinstance(v, type):
        for f in dataclasses.fields(v): yield from _walk(getattr(v, f.name), seen)


def _reached():
    "Every value and error that public calls on `URLS` give (one- and two-argument calls)"
    values, errors, calls = [], [], 0
    for name, f in _functions():
        try: params = [p for p in inspect.signature(f).parameters.values() if p.default is p.empty]
        except (TypeError, ValueError): continue
        if params and params[0].annotation is uri1630.Source:
            argsets = []
            for u in URLS:
                try: argsets.append((uri1630.split_url(u),))
                except URIError as e: errors.append(e)
        elif len(params) == 1: argsets = [(u,) for u in URLS]
        elif len(params) == 2: argsets = [(u, b) for u in URLS[:8] for b in ("g", "../g", URLS[0])]
        else: continue
        for a in argsets:
            calls += 1
            try: values.extend(_walk(f(*a), set()))
            except URIError as e: errors.append(e)
            except (TypeError, ValueError, NotImplementedError, KeyError, AttributeError): pass
    for u in URLS:                                    # and what the parsed objects derive
        try: obj = parse_url(u)
        except URIError: continue
        for m in ("commands", "request_target", "advice", "to_local_path", "header"):
            try: r = getattr(obj, m)
            except Exception: continue
            try: values.extend(_walk(r() if callable(r) else r, set())) if m != "commands" else None
            except Exception as e: errors.append(e) if isinstance(e, URIError) else None
    return values, errors, calls


VALUES, ERRORS, CALLS = _reached()


def _carries_secret(v) -> bool:
    "Whether `v` holds a parsed password: a `Secret`, or a value with one among its parts"
    if isinstance(v, Secret): return bool(v)
    parts = [getattr(v, f.name) for f in dataclasses.fields(v)] if dataclasses.is_dataclass(v) and not isinstance(v, type) \
        else list(v) if isinstance(v, tuple) else []
    return any(_carries_secret(x) for x in parts if x is not v)


def test_the_walk_reaches_every_kind_of_value():
    kinds = {type(v).__name__ for v in VALUES}
    assert CALLS > 1000 and {"FtpURL", "TelnetURL", "Login", "Secret", "Risk", "Found", "ResolutionStep",
                            "Comparison", "GenericURL", "URI"} <= kinds, kinds
    assert len({type(e) for e in ERRORS}) >= 2 and len(ERRORS) > 50


def test_no_display_of_a_value_shows_the_password():
    "str, repr, format, markdown and HTML of every value reached (plain `str` results are the data asked for)"
    bad = []
    for v in VALUES:
        if type(v) in (str, bytes, int, float, bool, type(None), tuple, list, dict) or isinstance(v, type): continue
        shown = [repr(v)]
        # the str of URI (the lossless split) and of GenericURL (an unknown scheme: no login read) is the text
        if not isinstance(v, (uri1630.URI, uri1630.GenericURL)): shown += [str(v), format(v, "")]
        for m in ("_repr_markdown_", "_repr_html_"):
            if callable(getattr(v, m, None)): shown.append(getattr(v, m)())
        found = leaks(" ".join(shown))
        if isinstance(v, uri1630.ResolutionStep):
            # RFC 1630's resolution reads a '?' in the context as its search's start: a result cut
            # there has no login left (no password, by the parse); the whole password never shows
            found = [n for n in found if "?" in n or n == quote(CLEAR, safe="")]
        if found: bad.append((type(v).__name__, found))
    assert not bad, bad[:5]


def test_no_pickle_or_json_of_a_parsed_password():
    "A value that carries a parsed password pickles and JSON-writes without it"
    checked = 0
    for v in VALUES:
        if type(v) in (tuple, list) or not _carries_secret(v): continue   # a container's items are checked each
        checked += 1
        for proto in (2, pickle.HIGHEST_PROTOCOL):
            assert not leaks(pickle.dumps(v, proto)), (type(v).__name__, proto)
        d = dataclasses.asdict(v) if dataclasses.is_dataclass(v) else v._asdict() if hasattr(v, "_asdict") else v
        assert not leaks(json.dumps(d, default=str)), type(v).__name__
    assert checked >= 10


def test_no_error_message_shows_the_password():
    assert ERRORS
    for e in ERRORS:
        assert not leaks(str(e) + repr(e) + str(e.args)), (type(e).__name__, str(e))


def test_only_the_accessors_reveal():
    "The documented accessors give the password back, as read and as written; the URL in clear"
    for u in URLS[:6]:
        obj = parse_url(u)
        assert isinstance(obj.password, Secret) and obj.password == CLEAR
        assert obj.password.reveal() == CLEAR and obj.password.reveal(written=True) == WRITTEN
        assert WRITTEN in obj.reveal() and not leaks(str(obj)) and uri1630.parse_url(obj.reveal()) == obj
    ftp = parse_url(URLS[0])
    assert f"PASS {CLEAR}" in ftp.commands()      # the wire gets it (RFC 1738 §3.2.1)


def test_every_renderer_and_its_error_boxes():
    from uri1630 import render
    fns = [n for n in dir(render) if n.endswith("_html") and not n.startswith("_") and inspect.isfunction(getattr(render, n))]
    assert {"level_html", "resolution_html", "parse_html", "error_html", "parts_html"} <= set(fns)
    shown = 0
    for u in URLS:
        outs = [render.level_html(u), render.parse_html(u), render.parse_html(u, grammar="generic"),
                render.resolution_html(u, "../g"), render.resolution_html(u, "g h\x00"),
                render.resolution_html("//" + u.split("//", 1)[-1], "g")]       # a context that is no URI: an error box
        try: outs.append(render.parts_html(parse_url(u)))
        except URIError as e: outs.append(render.error_html(e, u))
        for h in outs:
            assert not leaks(h), (u, leaks(h))
            shown += "***" in h
    assert shown > len(URLS)


def test_retrieval_trace_and_error():
    "The trace sends PASS *** and the error never quotes the password, even when the server echoes it"
    import servers as S
    def echo(c, rec):
        c.sendall(b"220 hi\r\n"); S.read_until(c)
        c.sendall(b"331 pw\r\n"); rec.append(S.read_until(c))
        c.sendall(b"530 bad password " + CLEAR.encode("latin-1") + b"\r\n")
    seen = []
    with S.Misbehaving(echo) as m:
        url = f"ftp://u:{WRITTEN}@{m.host}:{m.port}/f"
        with pytest.raises(URIError) as ei:
            uri1630.retrieve(url, trace=lambda d, line: seen.append(line))
        assert m.received and CLEAR.encode("latin-1") in m.received[0]    # the server got it in clear
    e = ei.value
    assert "PASS ***" in seen and not leaks(" ".join(seen)) and not leaks(str(e) + repr(e)), (seen, str(e))


def _cli(*args):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "uri1630", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


# the commands whose output is the URL asked for (data): only their messages are displays
DATA_OUTPUT = {"canon", "resolve", "relative", "extract"}


@pytest.mark.parametrize("cmd", ["parse", "parse --json", "check", "canon", "compare", "resolve", "relative",
                                 "extract", "get"])
def test_cli(cmd, tmp_path):
    valid, bad = f"ftp://u:{WRITTEN}@h.example/f", f"ftp://u:{WRITTEN}@h^x/f"
    closed = f"ftp://u:{WRITTEN}@127.0.0.1:1/f"
    name, *opts = cmd.split()
    if name == "extract":
        p = tmp_path / "t.txt"; p.write_text(f"see <URL:{valid}> and <URL:{bad}>")
        runs = [_cli(name, str(p))]
    elif name in ("compare", "resolve", "relative"):
        runs = [_cli(name, valid, valid), _cli(name, bad, valid), _cli(name, valid, bad)]
    elif name == "get":
        runs = [_cli(name, closed), _cli(name, bad)]
    else:
        runs = [_cli(name, *opts, valid, bad)]
    for r in runs:
        assert "Traceback" not in r.stderr, r.stderr
        assert not leaks(r.stderr), (cmd, r.stderr)
        if name not in DATA_OUTPUT: assert not leaks(r.stdout), (cmd, r.stdout)


# ---- the findings of issue 26 that these tests must catch on 3e24157 ----
def test_finding_error_boxes_and_reprs():
    "level_html's and resolution_html's error boxes, and the reprs of Found and ResolutionStep, showed the password"
    from uri1630.render import level_html, resolution_html
    pw = "hunter2pw"
    assert pw not in level_html(f"ftp://u:{pw}@h/a%zz")
    assert pw not in resolution_html(f"//u:{pw}@h/a", "g")
    assert pw not in repr(uri1630.find_urls(f"see <URL:ftp://u:{pw}@h/x>"))
    assert pw not in repr(uri1630.resolve_steps(f"ftp://u:{pw}@h/a/b", "c"))


def test_finding_host_differs_named():
    "ftp://evil.example?@allowed.example/x: uri1630 reads allowed.example, urllib evil.example; risks() says so"
    for url in ("ftp://evil.example?@allowed.example/x", "telnet://evil.example?@allowed.example"):
        assert parse_url(url).host == "allowed.example" and urlsplit(url).hostname == "evil.example"
        named = [r for r in risks(url) if r.kind == "host-differs"]
        assert len(named) == 1 and named[0].position == url.index("?"), risks(url)
        d = named[0].detail
        assert "host='evil.example'" in d and "host='allowed.example'" in d and getattr(uri1630, "LOGIN_SENTENCE", "?!") in d


# ---- (b) the property: every disagreement with an RFC 3986 reader is named ----
rfc3986 = pytest.importorskip("rfc3986")

_USER = sorted(set(uri1630.USER_CHARS))
_PIECES = st.one_of(st.sampled_from(_USER), st.sampled_from(list("?#\\@/;:")),
                    st.sampled_from(["%3F", "%40", "%3A", "%2F", "%41", "%5C", "%23"]))
_HOSTS = st.sampled_from(["allowed.example", "h", "10.0.0.1", "a-b.c"])
_LOGINS = st.builds(lambda parts, host, port, scheme: f"{scheme}://{''.join(parts)}@{host}{port}/x",
                    st.lists(_PIECES, min_size=0, max_size=14), _HOSTS,
                    st.sampled_from(["", ":21", ":0021", ":8080"]), st.sampled_from(["ftp", "telnet", "http", "FTP"]))


def _urllib(url):
    "(user, host, port) as urllib reads them (user decoded, host lower-cased); port 'invalid' if it refuses it"
    s = urlsplit(url)
    try: port = s.port
    except ValueError: port = "invalid"
    user = None if s.username is None else unquote(s.username, encoding="latin-1")
    return user, (s.hostname or ""), port


def _rfc3986(url):
    "(user, host, port) as the rfc3986 package reads them, or None where it reads no authority"
    try: a = rfc3986.uri_reference(url).authority_info()
    except Exception: return None
    ui = a["userinfo"]
    user = None if ui is None else unquote(ui.split(":", 1)[0], encoding="latin-1")
    port = a["port"]
    return user, (a["host"] or "").lower(), (int(port) if port and port.isdigit() else port or None)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_LOGINS)
def test_every_disagreement_is_named(url):
    try: u = parse_url(url)
    except URIError: return                     # uri1630 reads no host: nothing to disagree with
    mine = (u.user, u.host.lower(), u.port)
    named = [r for r in risks(url) if r.kind == "host-differs"]
    others = {"urllib": _urllib(url), "rfc3986": _rfc3986(url)}
    differ = {k: o for k, o in others.items() if o is not None and o != mine}
    if others["rfc3986"] is None and rfc3986.uri_reference(url).authority.startswith("@"):
        differ["rfc3986"] = "no host"            # an empty login: it reads none (authority_info raises)
    if differ:
        assert len(named) == 1, (url, mine, differ)
        d = named[0].detail.lower()
        h = others["urllib"][1].lower()
        assert f"host={h!r}" in d, (url, d)    # the other reading, as urllib has it
    else:
        assert not named, (url, mine, others)  # no false alarm
