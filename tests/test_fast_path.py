"""The fast path of `parse_url` (one regex match per scheme) against the slow path (the scheme's parser), over the
shared corpus and over invalid inputs made from it: the same object for every URL the fast path reads, and for every
URL the slow path rejects, no answer from the fast path (so the error, its position and rule come from the parser)."""
import os, pickle, random
from pathlib import Path
import pytest
from uri1630.errors import URIError
from uri1630.schemes import parse_url, url_record, _parse_slow, _FAST, _fast_generic, _head, _load_builtins, _BUILTIN, _getter
from uri1630.syntax import parse

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get('URI1630_CORPUS', ROOT.parent / 'shared' / 'corpus'))
SAMPLE = ["http://info.cern.ch/hypertext/WWW/TheProject.html", "HTTP://h.example:080/a;b?c=d&e#f", "http://1.2.3.4/",
          "file:///etc/motd", "file://vms.host.edu/disk$user/my/notes/note12345.txt", "https://example.org/a/b?q#top",
          "x-magic:a/b%2Fc?d+e#f", "ftp://u:p@h/d;type=a", "news:comp.infosystems.www", "mailto:a@b.c", "z:", "z:?#"]


def _corpus(limit=4000):
    urls = list(SAMPLE)
    for name in ('kasztp.txt', 'userbait.txt', 'node_files.txt', 'isaacs_files.txt'):
        p = CORPUS / name
        if p.exists(): urls += [l.strip() for l in p.read_text(encoding='utf-8-sig').splitlines()[:limit] if l.strip()]
    return list(dict.fromkeys(urls))


def _mutants(urls, n=6000, seed=1630):
    "Invalid (and some still valid) inputs: a character inserted, replaced or deleted anywhere"
    rnd, out = random.Random(seed), []
    alphabet = " %<>\"#{}|\\^~[]`@:/?;=&+-._!*'(),$0aZ\x00\x7f\xe9\u0100"
    for _ in range(n):
        u = rnd.choice(urls)
        k = rnd.randrange(len(u) + 1)
        op = rnd.randrange(3)
        c = rnd.choice(alphabet)
        out.append(u[:k] + c + u[k:] if op == 0 else u[:k] + c + u[k + 1:] if op == 1 else u[:k] + u[k + 1:])
    return out


def _outcome(f, text):
    "What `f(text)` gives: ('ok', type, object, str, repr, pickle round trip) or ('err', type, position, rule, message)"
    try: o = f(text)
    except URIError as e: return ('err', type(e), e.position, e.rule, e.message)
    return ('ok', type(o), o, str(o), repr(o), pickle.loads(pickle.dumps(o)))


def _record(text):
    "What `url_record(text)` should be: `parse`, and the class and field values of the parser's object"
    o = _parse_slow(text)
    return parse(text), type(o), _getter(type(o))(o)


def _agree(texts):
    _load_builtins()
    n_fast = 0
    for t in texts:
        assert _outcome(parse_url, t) == _outcome(_parse_slow, t), t
        assert _outcome(url_record, t) == _outcome(_record, t), t    # the CLI's reader: the same parts, the same errors
        m = _head().match(t)
        if m is None: continue
        s = m[1].lower()
        f = _FAST.get(s) or (_fast_generic if s not in _BUILTIN and s != 'url' else None)
        if f is None: continue
        fast = f(t, s, m.end())
        slow = _outcome(_parse_slow, t)
        if fast is None: continue
        n_fast += 1
        got = fast[0](*fast[1])                  # the fast reader gives (class, field values); parse_url builds the object
        assert url_record(t) == (parse(t), *fast)
        assert slow[0] == 'ok' and got == slow[2] and str(got) == t and type(got) is slow[1], (t, got, slow)
    return n_fast


def test_fast_and_slow_agree_on_the_corpus():
    urls = _corpus()
    assert _agree(urls) > len(SAMPLE) // 2       # the fast path reads most of them


def test_fast_path_never_accepts_what_the_parser_rejects():
    urls = _corpus()
    assert _agree(_mutants(urls)) > 0


@pytest.mark.parametrize("text", ["http://h?q", "http://u@h/", "http://h:/", "http://-h/", "http://h./", "http://a.3com/",
                                  "http://1.2.3/", "http://h:123456789012345678901/", "file://h", "file://h:1/", "x:a b",
                                  "x:%4", "url:x:a b", "<URL:http://h/ x>", "http://h/a#b#c"])
def test_errors_come_from_the_parser(text):
    "A rejected URL raises the parser's error (position, rule), whichever path it took first"
    with pytest.raises(URIError) as fast: parse_url(text)
    with pytest.raises(URIError) as slow: _parse_slow(text)
    assert (fast.value.position, fast.value.rule, fast.value.message) == (slow.value.position, slow.value.rule, slow.value.message)


def test_a_replaced_parser_drops_the_fast_reader():
    "register_scheme(..., replace=True) with another parser: parse_url uses that parser, not the old fast reader"
    from uri1630.schemes import register_scheme, SCHEME_ENTRIES, _ENTRIES, _REGISTRY
    from uri1630.schemes.http import _parse_http, _fast_http
    from uri1630.schemes import _register
    calls = []
    def mine(src): calls.append(src.text); return _parse_http(src)
    try:
        register_scheme("http", mine, replace=True)
        assert SCHEME_ENTRIES["http"].fast is None and "http" not in _FAST
        parse_url("http://h/x"); assert calls == ["http://h/x"]
    finally:
        register_scheme("http", _parse_http, replace=True)
        _register("http", "fast", _fast_http, False, "register_scheme")
    assert _FAST["http"] is _fast_http


def test_the_reader_cache_is_bounded_and_follows_the_registry():
    "Hostile input naming a new scheme on every line cannot grow the cache of fast readers; a registration empties it"
    from uri1630.schemes import _READERS, register_scheme, _parse_generic, _reader, _fast_generic
    for k in range(2000): parse_url(f"x{k}:a"); url_record(f"Y{k}:b")
    assert 0 < len(_READERS) <= 256
    assert _reader("X-Cache-Test") == ("x-cache-test", _fast_generic)     # no parser yet: the generic reader
    def mine(src): return _parse_generic(src)
    register_scheme("x-cache-test", mine)
    assert "X-Cache-Test" not in _READERS and _reader("X-Cache-Test") == ("x-cache-test", None)   # now its parser reads it
    assert parse_url("X-Cache-Test:z").path == "z"


def test_the_reader_cache_keeps_no_long_name():
    "A line whose scheme name is megabytes long leaves nothing of it in the cache (256 such lines would hold 256 of them)"
    from uri1630.schemes import _READERS
    for k in range(3):
        name = f"x{k}" + "a" * 1_000_000
        assert parse_url(f"{name}:p").path == "p" and url_record(f"{name}:q")[2][2] == "q"
    assert all(len(n) <= 32 for n in _READERS)
