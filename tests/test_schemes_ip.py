"""Property tests for the IP-based schemes (uri1630.schemes and its modules http, ftp, gopher, telnet,
wais, file, prospero, further): valid URLs built from generated parts parse back to
those parts; one forbidden character inserted anywhere gives URISyntaxError at (or before) it; arbitrary text
never raises anything but URIError; every object is immutable, hashable and pickles."""
import pickle, time
import pytest
from hypothesis import given, strategies as st, assume, example
from uri1630 import parse_url, escape, URIError, URISyntaxError, SchemeURL, GenericURL
from uri1630.schemes import DEFAULT_PORTS
from strategies import uri_text, any_text

RFCS = st.sampled_from(["1738", "1630"])
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
LATIN1 = st.text(st.characters(min_codepoint=0, max_codepoint=255), max_size=12)


def enc(s, safe=""):
    """Encode everything but alphanumerics and `safe`: valid by both RFCs' grammars."""
    return escape(s, safe=safe)


# --- generated parts --------------------------------------------------------------------------------
label = st.from_regex(r"[a-z]([a-z0-9-]{0,6}[a-z0-9])?", fullmatch=True)
hostname = st.builds(lambda ls, top: ".".join(ls + [top]), st.lists(st.from_regex(r"[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?", fullmatch=True), max_size=3), label)
hostnumber = st.builds(lambda a: ".".join(map(str, a)), st.lists(st.integers(0, 255), min_size=4, max_size=4))
host = st.one_of(hostname, hostnumber)
port = st.one_of(st.none(), st.integers(0, 65535))
user = st.one_of(st.none(), st.text(ALNUM + "-_.+", max_size=8))          # alphanum2: valid by both RFCs
password = st.one_of(st.none(), st.text(ALNUM + "-_.+", max_size=8))
seg = LATIN1


def login(u, pw, h, p):
    s = "" if u is None else u + ("" if pw is None else ":" + pw) + "@"
    return s + h + ("" if p is None else f":{p}")


def hostport(h, p): return h + ("" if p is None else f":{p}")


def check_obj(obj, url):
    assert isinstance(obj, SchemeURL)
    assert obj.reveal() == url  # the clear text, through the one accessor (#26)
    pw = getattr(obj, "password", None)
    assert str(obj) == (url.replace(f":{pw.reveal()}@", ":***@", 1) if pw else url)  # masked
    back = pickle.loads(pickle.dumps(obj))
    if pw:  # a pickle withholds the password (#26): the copy shows ***, and its reveal() refuses
        assert str(back) == str(obj)
        with pytest.raises(URIError):
            back.password.reveal()
    else:
        assert back == obj and hash(back) == hash(obj)
    with pytest.raises(Exception):
        obj.scheme = "x"


# --- valid inputs parse back to their parts ---------------------------------------------------------
@given(user, password, host, port, st.lists(seg, min_size=1, max_size=5), st.sampled_from([None, "a", "i", "d"]))
def test_ftp_parts(u, pw, h, p, segs, tc):
    assume(u is not None or pw is None)
    path = "/".join(enc(s) for s in segs)
    url = f"ftp://{login(u, pw, h, p)}/{path}" + ("" if tc is None else f";type={tc}")
    o = parse_url(url)
    check_obj(o, url)
    assert (o.user, o.password, o.host, o.port, o.default_port) == (u, pw, h, p, 21)
    assert o.cwd == tuple(segs[:-1]) and o.name == segs[-1] and o.typecode == tc
    bad = any(c in x for x in segs + [u or "", pw or ""] for c in "\r\n\0")
    try:
        cmds = o.commands(anonymous_password="me@h.dom")
        assert not bad
        assert all("\r" not in c and "\n" not in c and "\0" not in c for c in cmds)
        assert [c for c in cmds if c.startswith("CWD ")] == ["CWD " + s for s in segs[:-1]]
        assert cmds[-1] == (("NLST " + segs[-1] if segs[-1] else "NLST") if tc == "d" or (tc is None and segs[-1] == "") else f"RETR {segs[-1]}")
    except URIError:
        assert bad


@given(host, port, st.lists(st.text(ALNUM + "$-_.+!*'(),;:@&=", max_size=6), max_size=4),
       st.one_of(st.none(), st.text(ALNUM + "$-_.+!*'(),;:@&=", max_size=8)), st.one_of(st.none(), st.text(ALNUM + "-_.", max_size=5)))
def test_http_parts(h, p, segs, search, frag):
    path = "/".join(segs)
    url = f"http://{hostport(h, p)}/{path}" + ("" if search is None else "?" + search) + ("" if frag is None else "#" + frag)
    o = parse_url(url)
    check_obj(o, url)
    assert (o.host, o.port, o.path, o.search, o.fragment) == (h, p, path, search, frag)
    assert o.request_target() == "/" + path + ("" if search is None else "?" + search)
    assert o.proxy_target() == url.split("#")[0]
    assert "#" not in o.request_target()


@given(host, port, st.sampled_from(list(ALNUM + "+?!$")), st.text(st.characters(min_codepoint=1, max_codepoint=255).filter(lambda c: c != "\t"), max_size=10),
       st.one_of(st.none(), st.text(st.characters(min_codepoint=0, max_codepoint=255).filter(lambda c: c != "\t"), max_size=8)),
       st.one_of(st.none(), LATIN1))
def test_gopher_parts(h, p, gtype, selector, search, gplus):
    assume(search is not None or gplus is None)
    gp = gtype.replace("?", "%3F") + enc(selector)
    if search is not None: gp += "%09" + enc(search)
    if gplus is not None: gp += "%09" + enc(gplus)
    url = f"gopher://{hostport(h, p)}/{gp}"
    o = parse_url(url)
    check_obj(o, url)
    assert (o.gtype, o.selector, o.search, o.gopher_plus) == (gtype, selector, search, gplus)
    line = any(c in x for x in (selector, search or "") for c in "\r\n\0")
    ask = gplus is not None and gplus.startswith("+\t1\r\n")
    try:
        r = o.request()
    except URIError:
        assert line or "\0" in (gplus or "") or (gplus is not None and not ask and ("\r" in gplus or "\n" in gplus)) or (ask and not gplus.endswith("\r\n.\r\n"))
        return
    assert not line
    assert r.startswith(selector) and r.endswith("\r\n")
    if not ask: assert r.count("\r\n") == 1


@given(st.sampled_from(["telnet", "rlogin", "tn3270"]), user, password, host, port, st.booleans())
def test_telnet_parts(scheme, u, pw, h, p, slash):
    assume(u is not None or pw is None)
    url = f"{scheme}://{login(u, pw, h, p)}" + ("/" if slash else "")
    o = parse_url(url)
    check_obj(o, url)
    assert (o.user, o.password, o.host, o.port, o.effective_port) == (u, pw, h, p, DEFAULT_PORTS[scheme] if p is None else p)


@given(host, port, st.text(ALNUM + "$-_.+!*'(),", min_size=1, max_size=8),
       st.one_of(st.none(), st.text(ALNUM + "-_.", max_size=8)),
       st.one_of(st.none(), st.tuples(st.text(ALNUM, min_size=1, max_size=4), LATIN1)))
def test_wais_parts(h, p, db, search, doc):
    url = f"wais://{hostport(h, p)}/{db}"
    if search is not None and doc is None: url += "?" + search
    if doc is not None: url += f"/{doc[0]}/{enc(doc[1])}"
    o = parse_url(url)
    check_obj(o, url)
    assert o.database == db
    if doc is not None: assert (o.kind, o.wtype, o.document_id) == ("document", doc[0], doc[1])
    elif search is not None: assert (o.kind, o.search) == ("search", search)
    else: assert o.kind == "database"


@given(st.lists(st.tuples(st.integers(0, 999), LATIN1), min_size=1, max_size=4))
def test_wais_1630_fields(fields):
    wpath = "".join(f"{n}={enc(v)};" for n, v in fields)
    o = parse_url(f"wais://h/db/TEXT/{wpath}", rfc="1630")
    assert o.wpath_fields == tuple(fields)


@given(st.sampled_from(["", "localhost", "LOCALHOST", "other.dom"]), st.lists(seg, min_size=1, max_size=5))
def test_file_parts(h, segs):
    url = f"file://{h}/" + "/".join(enc(s) for s in segs)
    o = parse_url(url)
    check_obj(o, url)
    assert o.segments == tuple(segs) and o.host == h
    assert o.is_local == (h.lower() in ("", "localhost"))
    try:
        lp = o.to_local_path("posix", encoding="latin-1")        # one character per octet, like `segments`
        assert o.is_local and lp == "/" + "/".join(segs)
    except URIError:                                             # issue #14: a level never leaves its directory
        assert not o.is_local or any("/" in s or "\\" in s or "\0" in s or s in (".", "..") for s in segs)


@given(host, port, st.lists(seg, max_size=4), st.lists(st.tuples(st.text(ALNUM + "-", min_size=1, max_size=6), LATIN1), max_size=3, unique_by=lambda t: t[0]))
def test_prospero_parts(h, p, segs, fields):
    hso = "/".join(enc(s) for s in segs)
    url = f"prospero://{hostport(h, p)}/{hso}" + "".join(f";{n}={enc(v)}" for n, v in fields)
    o = parse_url(url)
    check_obj(o, url)
    assert o.hsoname == "/".join(segs)
    assert o.field_items == tuple(fields) and dict(o.fields) == dict(fields)


@given(host, port, st.from_regex(r"[a-z][a-z0-9.+_-]{0,12}", fullmatch=True), st.one_of(st.none(), st.integers(0, 10**9)))
def test_nntp_parts(h, p, group, art):
    url = f"nntp://{hostport(h, p)}/{group}" + ("" if art is None else f"/{art}")
    o = parse_url(url)
    check_obj(o, url)
    assert (o.host, o.port, o.group, o.article) == (h, p, group, art)


# --- invalid inputs: one forbidden character -------------------------------------------------------
FORBIDDEN = st.sampled_from(list(" <>{}|\\^~[]`\x00\x01\x7f\xe9\u20ac"))
VALID = ["ftp://u:p@ftp.dom:21/pub/a%20b/f.txt;type=i", "http://www.my.org:8000/a/b;c?x=y#frag",
         "gopher://g.dom/1sel%09se%09+", "telnet://u@h.dom:23/", "wais://w.dom/db/TEXT/abc",
         "wais://w.dom/db?cats", "file:///etc/passwd", "file://localhost/a/b", "prospero://p.dom//pros/name;A=b",
         "nntp://n.dom/comp.www/12", "rlogin://u@h", "tn3270://h.dom:2323"]


@given(st.sampled_from(VALID), st.data(), FORBIDDEN, RFCS)
def test_forbidden_char_is_located(url, data, c, rfc):
    i = data.draw(st.integers(0, len(url)))
    bad = url[:i] + c + url[i:]
    with pytest.raises(URISyntaxError) as e:
        parse_url(bad, rfc=rfc)
    assert e.value.position is not None and e.value.rule
    assert e.value.position <= i, (bad, e.value.position, e.value.rule)


@given(st.sampled_from(VALID), st.data())
def test_forbidden_char_prefixed(url, data):
    j = data.draw(st.integers(len(url.split(":")[0]) + 3, len(url)))       # inside the scheme-specific part
    bad = "URL:" + url[:j] + " " + url[j:]
    with pytest.raises(URISyntaxError) as e:
        parse_url(bad)
    assert e.value.position <= j + 4                                         # counted in the prefixed text


@given(host, st.text("0123456789", min_size=0, max_size=3), st.sampled_from("x-/a%. "))
def test_bad_port(h, digits, c):
    assume(c != "/" or digits == "")
    url = f"ftp://{h}:{digits}{c}1/"
    with pytest.raises(URISyntaxError) as e:
        parse_url(url)
    assert e.value.rule == "port"
    assert e.value.position == len(f"ftp://{h}:{digits}")


# --- arbitrary text: only URIError ------------------------------------------------------------------
PREFIXES = st.sampled_from(["", "url:", "URL:", "<URL:", "ftp://", "http://", "gopher://h/", "telnet://", "wais://h/",
                            "file://", "prospero://h/", "nntp://h/", "nntp:", "FTP://u@h/", "x-a:"])


@given(PREFIXES, st.one_of(uri_text, any_text), RFCS)
@example("ftp://h/;type=", "", "1738")
@example("gopher://h/", "%", "1738")
@example("<", "", "1738")
def test_only_urierror(prefix, rest, rfc):
    text = prefix + rest
    try:
        o = parse_url(text, rfc=rfc)
    except URIError as e:
        assert e.position is None or 0 <= e.position <= len(text)
        return
    assert isinstance(o, SchemeURL)
    assert pickle.loads(pickle.dumps(o)) == o
    hash(o)
    for m in ("request_target", "proxy_target", "commands", "request", "to_local_path"):
        if hasattr(o, m):
            try: getattr(o, m)()
            except URIError: pass


def test_not_str():
    for x in (None, b"ftp://h/", 3):
        with pytest.raises(TypeError):
            parse_url(x)


# --- no super-linear work ---------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda n: "ftp://h/" + "a/" * n + "f;type=i",
    lambda n: "gopher://h/1" + "%09" * n,
    lambda n: "prospero://h/x" + ";a=b" * (n // 4) + "".join(f";k{i}=v" for i in range(n // 4)),
    lambda n: "http://" + "a." * (n // 2) + "com/",
    lambda n: "wais://h/db/T/" + "1=x;" * n,
    lambda n: "file:///" + "%41" * n,
])
def test_linear_time(make):
    "10x the input, < 30x the CPU time (a quadratic takes 100x)"
    from scaling import assert_linear
    def work(n):
        s = make(n)
        try: parse_url(s, rfc="1630" if s.startswith("wais") else "1738")
        except URIError: pass
    assert_linear(work, 10000)


# --- RFC 1630's readings -----------------------------------------------------------------------------
FTP959 = st.sampled_from(["A", "AN", "AT", "AC", "E", "EN", "I", "L8", "L36", "a", "an", "i", "l7"])


@given(user, password, host, port, st.lists(seg, min_size=1, max_size=4), st.one_of(st.none(), FTP959))
def test_ftp_parts_1630(u, pw, h, p, segs, tc):
    assume(u is not None or pw is None)
    path = "/".join(enc(s) for s in segs)
    url = f"ftp://{login(u, pw, h, p)}/{path}" + ("" if tc is None else f";type={tc}")
    o = parse_url(url, rfc="1630")
    assert o.cwd == tuple(segs[:-1]) and o.name == segs[-1]
    assert o.typecode == (tc.upper() if tc else ("d" if segs[-1] == "" else None))
    if tc and not any(c in x for x in segs + [u or "", pw or ""] for c in "\r\n\0"):
        t = [c for c in o.commands() if c.startswith("TYPE ")]
        assert t == ["TYPE " + (tc.upper()[0] + " " + tc.upper()[1:] if len(tc) > 1 else tc.upper())]
    if tc and tc.upper() not in ("A", "I"):
        with pytest.raises(URISyntaxError) as e:
            parse_url(url, rfc="1738")
        assert e.value.rule == "ftptype"


@given(st.from_regex(r"[a-z][a-z0-9]{0,5}(\.[a-z][a-z0-9]{0,5}){0,3}", fullmatch=True), st.integers(0, 10**6))
def test_nntp_1630_forms(group, art):
    a = parse_url(f"nntp:{group}/{art}", rfc="1630")
    b = parse_url(f"nntp://news.dom/{group}/{art}", rfc="1630")
    assert (a.host, a.group, a.article) == ("", group, art)
    assert (b.host, b.group, b.article) == ("news.dom", group, art)


@given(st.text(ALNUM + "-_.", min_size=1, max_size=10), st.integers(0, 10**6), st.text(ALNUM, max_size=5))
def test_prospero_1630_version(name, version, attrs):
    assume(not attrs or not attrs[0].isdigit())
    o = parse_url(f"prospero://h//{name}%00{version}{attrs}", rfc="1630")
    assert (o.hsoname, o.version, o.attributes) == ("/" + name, str(version), attrs or None)
    o = parse_url(f"prospero://h//{name}%00{version}{attrs}")             # RFC 1738: a NUL inside the name
    assert o.version is None and "\0" in o.hsoname
