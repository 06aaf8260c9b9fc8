"""Issue 20, the parsing side: invariants tested over the whole surface, not attack by attack.

4. Bounded numbers: every digit string a grammar or reply parser reads goes through one helper, `errors._bounded`;
   a field too big is a `URIError`/`RetrievalError` at its position, the fast and slow parsers agree, `parse -` streams on.
5. Secrets from the parse: the password span is the one `parse_login` reads; every character RFC 1738 allows in a user
   or password is masked in `str`, `repr`, tracebacks and CLI output.
8. What is built parses back (`URI.replace`, `with_fragment`, `relative`, `to_level`, `canonical`), or is refused.
10. The CLI under any codec: status 2 and one line on stderr, never a traceback.
11. Output in proportion: every renderer's HTML is at most 100 times its input, plus a fixed frame.
(12, one argument contract, is in tests/test_reliability.py.)
"""
import ast, codecs, encodings, encodings.aliases, io, json, pkgutil, socket, sys, traceback
from pathlib import Path
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck, assume, example

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from strategies import uri_text
import uri1630
from uri1630 import URIError
from uri1630.errors import _bounded
from uri1630.schemes import parse_url, _parse_slow, url_record, split_url, parse_login, USER_CHARS
from uri1630.transport import RetrievalError, Deadline, _Conn
from uri1630.security import risks
from uri1630.encoding import canonical, compare, equivalent, to_level, LEVELS
from uri1630.cli import main

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))

# ---- 4. bounded numbers ---------------------------------------------------------------------------------------

@st.composite
def digit_strings(draw):
    "ASCII digits: up to 5,000 leading zeros, then up to 5,000 significant digits (either may be none)"
    z = draw(st.sampled_from([0, 1, 2, 4300, 5000]) | st.integers(0, 5000))
    n = draw(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 19, 20, 21, 4300, 4301, 5000]) | st.integers(0, 5000))
    body = draw(st.text("0123456789", min_size=1, max_size=8))
    sig = '' if n == 0 else (draw(st.sampled_from("123456789")) + body * n)[:n]
    return '0' * z + sig

def value(d, most):
    "What a field holding digits `d` reads as: its value, or None if it is not a number of at most `most` (no int() of a long string)"
    sig = d.lstrip('0')
    if not d or len(sig) > len(str(most)): return None
    v = int(sig or '0')
    return v if v <= most else None

# (name, template, rfc, the field's maximum, rule, how to read the field from the parsed object)
PORT_SCHEMES = ["http", "ftp", "gopher", "telnet", "rlogin", "tn3270", "wais", "prospero", "nntp"]
PATHS = {"http": "/", "ftp": "/", "gopher": "/1", "telnet": "", "rlogin": "", "tn3270": "", "wais": "/db", "prospero": "/p", "nntp": "/g"}
FIELDS = [(f"{s} port {rfc}", f"{s}://h:{{}}{PATHS[s]}", rfc, 65535, 'port', lambda u: u.port)
          for s in PORT_SCHEMES for rfc in ("1738", "1630") if not (s == "nntp" and rfc == "1630")]
FIELDS += [(f"host group {g} {s}", "%s://%s/" % (s, '.'.join('{}' if k == g else '1' for k in range(4))), "1738", 255, 'hostnumber', lambda u: u.host)
           for g in range(4) for s in ("http", "ftp")]
FIELDS += [("nntp article", "nntp://h/g/{}", "1738", 10**20 - 1, 'digits', lambda u: u.article),
           ("wais field 1630", "wais://h/db/t/{}=x;", "1630", 10**20 - 1, 'wpath', lambda u: u.wpath_fields[0][0])]

def outcome(f, *a):
    "What `f(*a)` gives: ('ok', value) or ('error', position, rule); anything but a URIError fails the test"
    try: return ('ok', f(*a))
    except URIError as e: return ('error', e.position, e.rule)

@pytest.mark.parametrize("name,template,rfc,most,rule,get", FIELDS, ids=[f[0] for f in FIELDS])
@SETTINGS
@given(d=digit_strings())
def test_every_numeric_field_is_bounded(name, template, rfc, most, rule, get, d):
    "Any digit string in any numeric field: its value (at most the field's maximum) or a URIError at the field, by both parsers"
    assume(d or rule != 'hostnumber')                        # a void host group is another error (an empty label)
    text = template.format(d)
    start = text.index(d) if d else template.index('{}')
    fast, slow = outcome(parse_url, text, rfc), outcome(_parse_slow, text, rfc)
    assert fast == slow, (name, fast, slow)                   # the fast path (RFC 1738) and the scheme's parser agree
    if rfc == "1738": assert outcome(lambda: url_record(text)[1:]) [0] == fast[0]
    v = value(d, most)
    if v is None: assert fast == ('error', start, rule), (name, fast)
    elif rule == 'hostnumber':                               # a group of a host number, leading zeros and all: kept as written, or refused at the group
        assert fast in (('ok', fast[1]), ('error', start, rule)) and (fast[0] == 'error' or get(fast[1]) == text[len(template.split('://')[0]) + 3:-1])
    else: assert fast[0] == 'ok' and get(fast[1]) == v, (name, fast)
    for f in (lambda: risks(text, rfc), lambda: canonical(text), lambda: compare(text, text), lambda: equivalent(text, template.format(1))):
        outcome(f)                                           # no ValueError, whatever the number

class _Sock:
    "A socket that has `data` to give, and takes whatever is sent"
    family = socket.AF_INET
    def __init__(self, data): self.data = data
    def settimeout(self, t): pass
    def recv(self, n): b, self.data = self.data[:n], self.data[n:]; return b
    def sendall(self, b): pass
    def close(self): pass
    def getpeername(self): return ('127.0.0.1', 0)

def conn(data, max_bytes=1 << 16):
    "A `_Conn` reading `data` (the real reading code, no network)"
    c = _Conn.__new__(_Conn)
    c.url, c.rule, c.max_bytes, c.trace, c.n, c.deadline = "x://u:pw@h/", "x", max_bytes, None, 0, Deadline(60, 10)
    c.buf, c.pos, c.sock = bytearray(), 0, _Sock(data)
    return c

def reply(f, data, *a):
    "('ok', result) or ('error', status) of a reply parser reading `data`: never an error outside RetrievalError"
    try: return ('ok', f(conn(data), *a))
    except RetrievalError as e: return ('error', e.status)

def test_reply_numbers_are_bounded_generated():
    "Every number a reply parser reads (status, reply code, PASV/EPSV, Content-Length, chunk size, Gopher+ length, menu port)"
    from uri1630.schemes.http import _http_head, _http_body
    from uri1630.schemes.ftp import _ftp_reply, _ftp_data_port
    from uri1630.schemes.gopher import _gopher_plus_body, parse_menu
    @SETTINGS
    @given(d=digit_strings())
    def check(d):
        b = d.encode()
        r = reply(_http_head, b"HTTP/1.0 %s OK\r\n\r\n" % b, "GET /")
        assert r[0] == 'error' or (len(d) == 3 and r[1][0] == int(d))
        r = reply(_ftp_reply, b"%s ok\r\n" % b, "X")
        assert r[0] == 'error' or (len(d) >= 3 and r[1][0] == int(d[:3]))
        assert reply(_ftp_data_port, b"227 (127,0,0,1,%s,1)\r\n" % b)[0] in ('ok', 'error')
        assert reply(_ftp_data_port, b"229 (|||%s|)\r\n" % b)[0] in ('ok', 'error')
        v = value(d, 10**19 - 1)
        for f, data in ((lambda c: _http_body(c, 200, {'content-length': d}, "GET /"), b"x" * 10),
                        (lambda c: _gopher_plus_body(c, "sel"), b"+%s\r\n" % b + b"x" * 10)):
            r = reply(f, data)
            assert (r == ('ok', b"x" * v)) if v is not None and v <= 10 else r[0] == 'error', (d[:30], r)
        hexd = d.replace('9', 'f')
        r = reply(lambda c: _http_body(c, 200, {'transfer-encoding': 'chunked'}, "GET /"), hexd.encode() + b"\r\n" + b"x" * 20 + b"\r\n0\r\n\r\n")
        hv = value(hexd.replace('f', '9'), 10**30) if hexd else None
        assert r[0] == 'error' or (hv is not None and len(r[1]) == int(hexd.lstrip('0') or '0', 16) <= 20), (hexd[:30], r)
        try: items = parse_menu(b"1x\tsel\th\t%s\r\n" % b)
        except URIError: assert value(d, 65535) is None
        else: assert items[0].port == value(d, 65535)
    check()

def test_one_helper_reads_every_number():
    "No `int()` of text anywhere in uri1630 but in `_bounded` and the fixed-width `%XX` escapes (two hex digits)"
    escapes = {"int(m.group(1), 16)", "int(s[i + 1:i + 3], 16)", "int(path[1:3], 16)", "int(t[1:], 16)",
               "int(text[k + 1:k + 3], 16)", "int(url.text[p + 1:p + 3], 16)", "int(m.group()[1:], 16)"}
    found = []
    for path in sorted((ROOT / "uri1630").rglob("*.py")):
        if path.name == "_modidx.py": continue
        tree = ast.parse(path.read_text())
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'int':
                fn = node
                while fn in parents and not isinstance(fn, ast.FunctionDef): fn = parents[fn]
                where = getattr(fn, 'name', '<module>')
                if where == '_bounded' or ast.unparse(node) in escapes: continue
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {where}: {ast.unparse(node)}")
    assert not found, "int() of text outside errors._bounded:\n" + "\n".join(found)

def test_parse_stream_goes_on_past_a_huge_number():
    "`uri1630 parse -`: a line with a 5,000-digit number is one error line; the lines after it are still parsed"
    lines = ["http://a/", "http://h:" + "0" * 5000 + "80/", "ftp://" + "0" * 5000 + "1.2.3.4/", "wais://h/db/t/" + "9" * 5000 + "=x;",
             "nntp://h/g/" + "9" * 5000, "http://b/"]
    out, err = io.StringIO(), io.StringIO()
    rc = main(['parse', '-'], stdin=io.StringIO('\n'.join(lines) + '\n'), stdout=out, stderr=err)
    rows = out.getvalue().splitlines()
    assert len(rows) == len(lines) and json.loads(rows[0])['host'] == 'a' and json.loads(rows[-1])['host'] == 'b'
    assert json.loads(rows[1])['port'] == 80 and json.loads(rows[2])['kind'] == 'FtpURL'
    errs = err.getvalue().splitlines()      # line 4 is refused for its '=' (RFC 1738's wpath is *uchar), line 5 for its number
    assert rc == 2 and len(errs) == 2 and 'line 4' in errs[0] and 'line 5' in errs[1] and 'Traceback' not in err.getvalue()

# ---- 5. secrets from the parse ----------------------------------------------------------------------------------

UCHAR = st.one_of(st.sampled_from(USER_CHARS), st.builds(lambda a, b: '%' + a + b, st.sampled_from("0123456789ABCDEFabcdef"), st.sampled_from("0123456789ABCDEFabcdef")))
login_part = st.lists(UCHAR, max_size=12).map(''.join)
MARK = "Zq7"          # in every generated password, so that it is found wherever it leaks (and nowhere else)

def shown(e):
    "Everything a person may see of error `e`"
    return str(e) + repr(e) + ''.join(traceback.format_exception(e))

@SETTINGS
@given(user=login_part, pw=login_part, scheme=st.sampled_from(["ftp", "telnet", "http", "x-any", "gopher", "wais", "prospero", "nntp", "file"]),
       where=st.sampled_from(["host", "password", "after", "wrapped"]))
def test_passwords_never_shown(user, pw, scheme, where):
    "Any login RFC 1738 allows (`user = *[ uchar | ';' | '?' | '&' | '=' ]`, password likewise): the password is masked wherever the URL is shown"
    pw = MARK + pw
    url = {"host": f"{scheme}://{user}:{pw}@h^st/x", "password": f"{scheme}://{user}:{pw} #@h/x",
           "after": f"{scheme}://{user}:{pw}@h:99999999/x", "wrapped": f"<URL:{scheme}://{user}:{pw}@h/x%zz>"}[where]
    errors = []
    for f in (parse_url, split_url, risks, canonical, lambda u: to_level(u, 'decoded'), lambda u: parse_login(split_url(u))):
        try: f(url)
        except URIError as e: errors.append(e)
    errors.append(RetrievalError("failed", url)); errors.append(URIError(f"not following {url}", url, 3, 'x'))
    for e in errors: assert MARK not in shown(e), shown(e)
    try: src = split_url(url)
    except URIError: pass
    else: assert MARK not in repr(src)
    for argv in (['check', url], ['check', '--grammar', 'rfc1738', url], ['parse', url], ['parse', '--json', url],
                 ['canon', url], ['compare', url, 'x:y'], ['get', url.replace('^', '')]):
        out, err = io.StringIO(), io.StringIO()
        if argv[0] == 'get' and where != 'host': continue     # `get` only for a URL that fails before a connection
        main(argv, stdin=io.StringIO(''), stdout=out, stderr=err)
        if argv[0] in ('canon',) and not err.getvalue(): continue   # canon's output is the URL itself, asked for
        assert MARK not in out.getvalue() + err.getvalue(), (argv, out.getvalue(), err.getvalue())
    out, err = io.StringIO(), io.StringIO()
    main(['check', '-'], stdin=io.StringIO(url + '\n'), stdout=out, stderr=err)
    assert MARK not in out.getvalue() + err.getvalue()

def test_password_masked_in_login_repr_and_messages():
    "The reprs of what the parser reads, and a message that quotes a URL"
    from uri1630.schemes.gopher import iter_menu
    pw = 'se?' + 'cr&t'                     # built, so that no source line of a traceback holds it
    s = split_url(f"ftp://us?r:{pw}@h/")
    assert pw not in repr(s) + repr(parse_login(s)) and parse_login(s).password == pw
    try: iter_menu(f"ftp://u:{pw}@h/")
    except URIError as e: assert pw not in shown(e)

# ---- 8. what is built parses back -------------------------------------------------------------------------------

from uri1630.syntax import parse, URI
from uri1630.fragment import with_fragment, split_fragment
from uri1630.partial import relative, resolve

part = st.one_of(st.none(), uri_text)

@SETTINGS
@given(scheme=st.one_of(st.none(), st.sampled_from(["x", "http", "a+b", "", "1a", "a:b", "a/b"])), path=uri_text, search=part, fragment=part)
def test_uri_replace_parses_back(scheme, path, search, fragment):
    "`URI(...)`, `URI.replace`, `URI._replace`: the text of the URI built parses back to exactly those parts, or the parts are refused"
    outcomes = []
    for build in (lambda: URI(scheme, path, search, fragment), lambda: parse("x:").replace(scheme=scheme, path=path, search=search, fragment=fragment),
                  lambda: parse("x:")._replace(scheme=scheme, path=path, search=search, fragment=fragment)):
        try: u = build()
        except URIError as e: assert 0 <= e.position <= len(e.text); outcomes.append(e.position); continue
        assert parse(str(u)) == u == (scheme, path, search, fragment); outcomes.append(u)
    assert outcomes[0] == outcomes[1] == outcomes[2]

@SETTINGS
@given(uri=uri_text, fragment=part)
@example(uri="x:a#b", fragment="c")
def test_with_fragment_parses_back(uri, fragment):
    "`with_fragment`: `split_fragment` gives back both, or the URL is refused (it holds a '#')"
    try: t = with_fragment(uri, fragment)
    except URIError as e: assert uri[e.position] == '#'; return
    assert split_fragment(t) == (uri, fragment)

@SETTINGS
@given(context=uri_text, target=uri_text)
def test_relative_parses_back(context, target):
    "`relative`: the partial form resolves to the target's very parts, or is refused"
    try: p = relative(context, target)
    except URIError: return
    assert parse(resolve(context, p)) == parse(target)

@SETTINGS
@given(uri=uri_text, level=st.sampled_from(list(LEVELS)))
def test_levels_parse_back(uri, level):
    "`to_level`/`canonical`: the same parts (absent stay absent), equivalent, and a fixed point"
    try: v = to_level(uri, level)
    except URIError: return
    a, b = parse(uri), parse(v)
    assert [x is None for x in a] == [x is None for x in b] and to_level(v, level) == v
    c = canonical(uri)                      # canonical: to_level's canonical form, the scheme name in lower case
    assert [x is None for x in parse(c)] == [x is None for x in a] and canonical(c) == c

# ---- 10. the CLI under any codec -------------------------------------------------------------------------------

def _codecs():
    names = set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values()) | {m.name for m in pkgutil.iter_modules(encodings.__path__)}
    out = []
    for n in sorted(names):
        try: codecs.lookup(n)
        except LookupError: continue
        out.append(n)
    return out

def _run(argv, data):
    "Run the CLI as a process would (stdin, stdout over bytes): (status, stderr)"
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.TextIOWrapper(io.BytesIO(data)), io.TextIOWrapper(io.BytesIO()), io.StringIO()
    try: return main(argv), sys.stderr.getvalue()
    finally: sys.stdin, sys.stdout, sys.stderr = old

def test_cli_under_every_codec():
    "Every codec Python knows, as --encoding (and --charset): a result, or status 2 with one line on stderr; never a traceback"
    names = _codecs(); assert len(names) > 300
    for n in names:
        for argv, data in ((['parse', '--encoding', n, '-'], b'http://h/\xff\x00\x80\xfe\x01\n'),
                           (['check', '--encoding', n, '-'], b'\x00\xd8\x00\xdc\n'),
                           (['extract', '--encoding', n], b'<URL:http://h/\x9f>\xff'),
                           (['canon', '--charset', n, 'http://h/\xe9\u20ac\ud800'], b'')):
            rc, err = _run(argv, data)
            assert 'Traceback' not in err and rc in (0, 1, 2), (n, argv, rc, err)
            if rc == 2:   # one line; a codec that is no text encoding is a usage error, after argparse's usage line
                assert len([l for l in err.splitlines() if 'error:' in l]) == 1, (n, argv, err)

def test_cli_unencodable_output():
    "Output the stream cannot encode (a lone surrogate from the caller): status 2 and one line"
    out = io.TextIOWrapper(io.BytesIO(), encoding='ascii', errors='strict')
    err = io.StringIO()
    rc = main(['canon', '--level', 'decoded', 'http://h/%E9'], stdout=out, stderr=err)
    assert rc == 2 and len(err.getvalue().splitlines()) == 1 and 'Traceback' not in err.getvalue()

# ---- 11. output in proportion ----------------------------------------------------------------------------------

FACTOR, FRAME = 100, 16_384     # every renderer: len(html) <= FACTOR * len(input) + FRAME (the frame: styles, legend, a bounded table)
hostile = st.lists(st.sampled_from(["a", " ", "<", "&", '"', "%41", "%2F", "%", "/", "//", "../", "./", "?", "#", ":", "@", "é", "\x00",
                                    "\u20ac", "~", ";type=a", "%09", "%0D%0A", "x:", "http://h/", "ftp://u:p@h/", "gopher://h/1"]), max_size=300).map(''.join)

@SETTINGS
@given(text=hostile, other=hostile, level=st.sampled_from(list(LEVELS)), rfc=st.sampled_from(["1738", "1630"]))
def test_renderers_in_proportion(text, other, level, rfc):
    "level_html, resolution_html, parse_html, marked_html, error_html: the HTML is at most 100 times the input, plus a fixed frame"
    from uri1630 import render as R
    ctx = "magic://a/b/c//d/e/f" + other
    for html, n in ((R.level_html(text, level), len(text)), (R.resolution_html(ctx, text), len(ctx) + len(text)),
                    (R.resolution_html(text or "x:", other, "literal"), len(text) + len(other)),
                    (R.parse_html(text, "rfc1630" if rfc == "1630" else "rfc1738", rfc), len(text)),
                    (R.marked_html(text, len(text) // 2), len(text)),
                    (R.error_html(URIError("m", text, 0, "r"), text), len(text))):
        assert len(html) <= FACTOR * n + FRAME, (len(html), n)

def test_renderers_worst_cases():
    "The inputs that were hundreds of times larger as HTML (one span and one table row per character)"
    from uri1630 import render as R
    for text in ("<a" * 5000, " " * 10000, "\x00" * 10000, "http://h/" + "%41" * 3000, "x:" + "/" * 10000, "".join(chr(0x100 + k) for k in range(5000))):
        for html in (R.level_html(text), R.level_html(text, "alphanumeric"), R.parse_html(text)):
            assert len(html) <= FACTOR * len(text) + FRAME, (text[:10], len(html))


# ---- #20 invariant 12, attacker's finding 6: a str subclass that overrides its methods is read as the str it holds ----

class _Hostile(str):
    def __len__(self): return 1
    def __getitem__(self, k): return 'e'
    def __iter__(self): return iter('e')
    def find(self, *a): return 0
    def split(self, *a, **k): return ['evil']
    def startswith(self, *a): return True
    def endswith(self, *a): return True
    def lower(self): return 'evil'


@pytest.mark.parametrize("name", ["escape", "unescape", "canonical", "to_level", "split_fragment"])
def test_str_subclass_is_read_as_its_str(name):
    import uri1630
    f, u = getattr(uri1630, name), 'http://h/a%41?b#c'
    assert f(_Hostile(u)) == f(u)


@pytest.mark.parametrize("name", ["find_urls", "extract"])
def test_str_subclass_does_not_hang_the_context_functions(name):
    import subprocess, sys
    code = ("import uri1630,sys; sys.path.insert(0,'tests'); from test_invariants_parse import _Hostile; "
            f"print(uri1630.{name}(_Hostile('see <URL:http://h/> x')) == uri1630.{name}('see <URL:http://h/> x'))")
    try: p = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired: pytest.fail(f"{name} on a str subclass did not return in 10 s")
    assert p.stdout.strip() == 'True', p.stderr[-500:]


def test_str_subclass_in_methods_and_records_is_read_as_its_str():
    "Invariant 12 beyond __all__'s functions: a record's constructor, a level's test, a file URL's style, FTP's arguments"
    from uri1630 import URI, LEVELS, parse_url
    u = URI(_Hostile('http'), _Hostile('//h/a'), None, _Hostile('f'))
    assert all(type(v) is str for v in u if v is not None) and str(u) == 'http://h/a#f'
    assert LEVELS['canonical'].allows(_Hostile('a')) == LEVELS['canonical'].allows('a')
    f = parse_url('file:///C:/dir/x.txt')
    assert f.to_local_path(_Hostile('windows')) == f.to_local_path('windows')
    ftp = parse_url('ftp://h/x')
    assert ftp.commands(_Hostile('me@example.org')) == ftp.commands('me@example.org')
