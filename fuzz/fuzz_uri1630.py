"""Coverage-guided fuzzing of uri1630 with atheris (libFuzzer for Python).

    python fuzz/fuzz_uri1630.py -max_total_time=60 fuzz/corpus      # a short run (CI: .ci/steps/70-fuzz.sh)
    nice -n 10 python fuzz/fuzz_uri1630.py -max_total_time=900 -print_final_stats=1 fuzz/corpus

One harness, many targets: the first input byte picks a target, the rest is decoded to text (surrogates included).
Targets: the named properties below (parse, validate in every grammar, canonical, to_level, resolve, relative,
parse_url, extract, risks, …) and, for coverage of everything else, every public function of `fuzz/surface.py`.
Each target checks the error contract (only the URIError family, with message, rule and an in-range position) and
its own invariants; a violation raises, atheris saves the input as crash-<sha1>, and the run fails.
Every crash found becomes a test in tests/test_regressions.py.
"""
import sys, os
from pathlib import Path
import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
with atheris.instrument_imports(include=["uri1630"]):
    import uri1630
    import surface
    # import every uri1630 module here, while instrumented: the package imports lazily since #15, and a module first
    # imported after this block would be fuzzed blind (coverage fell from 1,268 to 478 edges until this line)
    _MODULES = list(surface._modules())
    from uri1630 import (parse, validate, canonical, to_level, equivalent, unescape, escape, LEVELS, GRAMMARS, URIError)

FUNCS = [f for f in surface.public_functions() if f.qualname not in surface.KNOWN_BROKEN_FUNCS]
OPT = {p.name: surface.option_values(p) for f in FUNCS for p in f.params if p.kind == 'option'}


def _get(mod, name):
    import importlib
    try: return getattr(importlib.import_module(f"uri1630.{mod}"), name)
    except Exception: return None


resolve, relative = _get("partial", "resolve"), _get("partial", "relative")
parse_url, extract = _get("schemes", "parse_url"), _get("context", "extract")
url_record, json_line = _get("schemes", "url_record"), _get("cli", "_json_line")
risks = _get("security", "risks")
RESERVED_ESC = ("%2F", "%23", "%3F", "%25")


def _contract(fn, *a, **kw):
    "Call fn; return its result or None if it raised a URIError; raise anything else"
    try: return fn(*a, **kw)
    except URIError as e:
        assert isinstance(e.message, str) and e.message, f"URIError without message: {e!r}"
        if e.position is not None:
            assert e.text is not None and 0 <= e.position <= len(e.text), f"position {e.position} outside text: {e!r}"
        return None


def _count(s, toks): return tuple(s.upper().count(t) for t in toks)


def t_parse(t, t2, pick):
    u = parse(t)
    assert str(u) == t


def t_validate(t, t2, pick):
    g = sorted(GRAMMARS)[pick % len(GRAMMARS)]
    for partial in (False, True):
        try: validate(t, g, partial)
        except URIError as e: assert e.rule and 0 <= e.position <= len(t), repr(e)
        except ValueError as e:      # a grammar without a partial form says so, for any text
            assert partial and "partial" in str(e), repr(e)


def t_levels(t, t2, pick):
    level = list(LEVELS)[pick % len(LEVELS)]
    enc = ("latin-1", "utf-8")[pick // 8 % 2]
    x = _contract(to_level, t, level, enc)
    if x is None: return
    assert to_level(x, level, enc) == x, "to_level is not idempotent"
    assert _count(x, RESERVED_ESC) == _count(t, RESERVED_ESC), "a reserved escape was decoded or added"
    c = _contract(canonical, t, enc)
    if c is None: return       # e.g. a character beyond Latin-1 that the 'decoded' level keeps but canonical must encode
    assert equivalent(t, x, enc), "a level change changed the meaning"
    assert canonical(c, enc) == c and equivalent(c, t, enc)


def t_resolve(t, t2, pick):
    if resolve is None: return
    reading = ("examples", "literal")[pick % 2]
    r = _contract(resolve, t, t2, reading)
    if r is None: return
    assert isinstance(r, str)
    assert parse(r).scheme is not None, f"resolve gave a partial form {r!r}"
    if relative is not None:
        rel = _contract(relative, t, r, reading)
        if rel is not None:
            back = _contract(resolve, t, rel, reading)
            assert back is not None and (back == r or _contract(equivalent, back, r)), \
                f"relative/resolve round trip: {t!r} {r!r} -> {rel!r} -> {back!r}"


def _starred_from(s, clear):
    "Whether `s` is `clear` with some of its parts (each password) written `***`: its other pieces in order"
    pieces = s.split("***")
    if len(pieces) < 2 or not (clear.startswith(pieces[0]) and clear.endswith(pieces[-1])):
        return False
    at = len(pieces[0])
    for p in pieces[1:-1]:   # the leftmost place of each piece leaves the most room for the rest
        at = clear.find(p, at)
        if at < 0: return False
        at += len(p)
    return len(clear) - len(pieces[-1]) >= at


def t_parse_url(t, t2, pick):
    if parse_url is None: return
    rfc = ("1738", "1630")[pick % 2]
    u = _contract(parse_url, t, rfc)
    if rfc == "1738" and url_record is not None:     # the CLI's one reading of a line: the same parts and the same verdict
        r = _contract(url_record, t)
        assert (r is None) == (u is None), (t, r, u)
        if r is not None:
            assert r[0] == parse(t) and r[1] is type(u) and r[1](*r[2]) == u, (t, r, u)
            if json_line is not None:
                import json
                from uri1630.cli import parts, _shown
                assert json.loads(json_line(t)) == _shown(parts(t)), t     # a password shown as *** (RFC 1738 §6)
    if u is None: return
    hash(u); s = str(u); clear = u.reveal()
    # the URL as read is in the text; its str is that, each password as `***` (RFC 1738 §6), and only that
    assert isinstance(clear, str) and clear in t, (t, clear)
    assert isinstance(s, str) and (s == clear or _starred_from(s, clear) or s in t), (t, s, clear)
    for m in ("commands", "request", "request_target", "selector_line"):
        f = getattr(u, m, None)
        if callable(f):
            out = _contract(f)
            if out is not None:
                lines = out if isinstance(out, (tuple, list)) else (out,)
                for line in lines:
                    if isinstance(line, bytes): line = line.decode('latin-1')
                    if isinstance(line, str) and m == "commands":
                        assert "\r" not in line and "\n" not in line and "\0" not in line, f"{m} sends a control: {line!r}"
                    if isinstance(line, str) and m == "request" and u.scheme == "gopher":
                        assert "\0" not in line, f"gopher request sends NUL: {line!r}"
                        if "\t+\t1\r\n" not in line:     # not a Gopher+ ASK block: one line, ended by the only CR LF
                            assert line.endswith("\r\n") and "\r" not in line[:-2] and "\n" not in line[:-2], repr(line)


def t_extract(t, t2, pick):
    if extract is None: return
    _contract(extract, t)


def t_risks(t, t2, pick):
    if risks is None: return
    rs = _contract(risks, t)
    if rs is None: return
    for r in rs: assert 0 <= r.position <= len(t)


def t_unescape(t, t2, pick):
    e = escape(t, encoding="utf-8") if t.isprintable() and not any('\ud800' <= c <= '\udfff' for c in t) else None
    if e is not None: assert unescape(e, "utf-8") == t
    _contract(unescape, t)


def t_built(t, t2, pick):
    "Issue 20: what is built from a server's fields parses back to them (menu items, redirect targets); hosts, Windows names stay where they say"
    MenuItem, redirect_target = _get("schemes.gopher", "MenuItem"), _get("schemes.http", "_redirect_target")
    address, FileURL = _get("transport", "_address"), _get("schemes.file", "FileURL")
    if MenuItem is not None:
        f = (t.split('\t') + ['', '', ''])[:3]
        item = MenuItem(f[0][:1] or '0', '', f[1], f[2], (pick * 257) % 65536)
        url = _contract(lambda: item.url)
        if url is not None:
            u = parse_url(url)
            assert (u.host, u.effective_port, u.gtype, u.selector, u.search) == (item.host, item.port, item.gtype, item.selector, None), (item, url)
    if redirect_target is not None:
        base = parse_url(("http://h.example/a", "http://010.0.0.1:0080/b?c")[pick % 2])
        target = _contract(redirect_target, base, t)
        if target is not None:
            r = parse_url(target)
            if t.startswith('/') and not t.startswith('//'): assert (r.host, r.port) == (base.host, base.port), (t, target)
    if address is not None:
        got = _contract(address, t, 'x://')
        if got is not None and got[1]:
            import ipaddress, socket
            assert str(ipaddress.IPv4Address(socket.inet_aton(got[0]))) == got[0], (t, got)   # plain dotted decimal only
    u = _contract(parse_url, "file:///" + t) if FileURL is not None else None
    if u is not None and isinstance(u, FileURL):
        p = _contract(u.to_local_path, "windows")
        if p is not None:
            assert not p.startswith('\\\\') and ':' not in p[2:] and not any(c in p for c in '<>"|?*'), (t, p)


def t_secrets(t, t2, pick):
    "Issue 20, invariant 5: a password (any characters, no '/') is never shown by an error, however the URL fails"
    user, pw = t[:40], "Zq7" + t2[:60]
    if '/' in user + pw or "Zq7" in user + t[40:]: return
    url = f"{('ftp', 'telnet', 'http', 'x-y', 'gopher')[pick % 5]}://{user}:{pw}@{t[40:100]}"
    for f in (parse_url, risks, canonical, lambda u: to_level(u, 'decoded'), url_record):
        if f is None: continue
        try: f(url)
        except URIError as e:
            shown = str(e) + repr(e)
            assert "Zq7" not in shown, shown


def t_numbers(t, t2, pick):
    "Issue 20, invariant 4: digits of any length in a numeric field: the fast and the slow parser agree, only URIError"
    from uri1630.schemes import _parse_slow
    d = "0" * (pick * 20) + "".join(c for c in t if c.isdigit()) * (1 + pick % 40)
    for url in (f"http://h:{d}/", f"ftp://{d}.1.1.1/", f"nntp://h/g/{d}", f"telnet://h:{d}", f"gopher://h:{d}/1"):
        a, b = _contract(parse_url, url), _contract(_parse_slow, url)
        assert a == b, (url[:60], a, b)


NAMED = [t_parse, t_validate, t_levels, t_resolve, t_parse_url, t_extract, t_risks, t_unescape, t_built, t_secrets, t_numbers]


def t_surface(f, fdp):
    kw = {}
    for p in f.params:
        if p.kind == 'text': kw[p.name] = fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 200))
        elif p.kind == 'textlist': kw[p.name] = [fdp.ConsumeUnicode(20) for _ in range(fdp.ConsumeIntInRange(0, 3))]
        elif p.kind == 'option':
            vals = OPT.get(p.name) or ['']
            kw[p.name] = vals[fdp.ConsumeIntInRange(0, len(vals) - 1)]
        elif p.kind == 'bool': kw[p.name] = fdp.ConsumeBool()
        elif p.kind == 'int': kw[p.name] = fdp.ConsumeIntInRange(-2, 300)
    surface.check_call(f, kw, {})


def TestOneInput(data: bytes):
    fdp = atheris.FuzzedDataProvider(data)
    k = fdp.ConsumeIntInRange(0, len(NAMED) + len(FUNCS) - 1)
    if k < len(NAMED):
        pick = fdp.ConsumeIntInRange(0, 255)
        n = fdp.ConsumeIntInRange(0, 300)
        t = fdp.ConsumeUnicode(n)
        t2 = fdp.ConsumeUnicode(fdp.remaining_bytes())
        NAMED[k](t, t2, pick)
    else:
        t_surface(FUNCS[k - len(NAMED)], fdp)


def main():
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
