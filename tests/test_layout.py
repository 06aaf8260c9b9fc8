"""The package layout (issue #15): `import uri1630` loads nothing heavy, the public API is what `__all__` lists, and the scheme registry
keeps one entry per scheme under one lock."""
import importlib, json, subprocess, sys, threading, warnings
import pytest
import uri1630
from uri1630.errors import URIError

def _run(code:str) -> str:
    "Run `code` in a fresh interpreter; its stdout"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout


def test_import_loads_no_grammar_socket_or_retrieval():
    "A structural check (not a time bound): after `import uri1630` no grammar, regex, socket or retrieval module is loaded"
    out = json.loads(_run("import sys, json; import uri1630; print(json.dumps(sorted(sys.modules)))"))
    ours = [m for m in out if m.startswith("uri1630.")]
    assert ours == [], ours
    for heavy in ("socket", "uri1630.transport", "uri1630.url_grammar", "uri1630.grammar", "uri1630.cli", "uri1630.scale"):
        assert heavy not in out, heavy


def test_first_use_loads_what_it_needs():
    "Reading a name imports its module; `SCHEMES` lists every built-in scheme; parse_url alone builds no URL grammar"
    out = json.loads(_run("import sys, json, uri1630; u = uri1630.parse_url('http://h/p?q'); "
                          "print(json.dumps([type(u).__name__, 'http' in uri1630.SCHEMES, len(uri1630.SCHEMES), "
                          "bool(sys.modules['uri1630.url_grammar']._BUILT) if 'uri1630.url_grammar' in sys.modules else False, "
                          "'socket' in sys.modules]))"))
    assert out[0] == "HttpURL" and out[1] and out[2] >= 15
    assert out[3:] == [False, False]


def test_public_api_is_all_and_unchanged():
    "Every name of `__all__` resolves, to the object its module exports; `dir` lists them; `import *` gives them"
    table = uri1630._exports()
    mods = {m: importlib.import_module(f"uri1630.{m}") for m in table}
    for m, mod in mods.items():
        assert set(table[m].split()) == set(mod.__all__), m   # the table in __init__ follows the modules
        for n in mod.__all__: assert getattr(uri1630, n) is getattr(mod, n), n
    assert set(uri1630.__all__) <= set(dir(uri1630))
    ns = {}
    exec("from uri1630 import *", ns)
    assert set(uri1630.__all__) <= set(ns)
    assert callable(uri1630.retrieve)                                  # the function, not the module of that name
    out = _run("import importlib, types, uri1630; f = uri1630.retrieve; importlib.import_module('uri1630.access'); "
               "importlib.reload(importlib.import_module('uri1630.access')); print(isinstance(uri1630.retrieve, types.FunctionType))")
    assert out.strip() == "True"
    with pytest.raises(AttributeError): uri1630.no_such_name


def test_every_public_name_of_every_slice_is_exported():
    "A rule, not a list (#28): every scheme slice's `__all__` is exported, read from the slice, with no line in __init__"
    from uri1630.catalog import _slices
    table = uri1630._exports()
    assert {m for m in table if m.startswith("schemes.")} == {f"schemes.{m}" for m in _slices()}
    assert not any(m.startswith("schemes.") for m in uri1630._EXPORTS)   # no slice is pinned by hand
    for m in _slices():
        mod = importlib.import_module(f"uri1630.schemes.{m}")
        classes = {n for n, v in vars(mod).items() if isinstance(v, type) and v.__module__ == mod.__name__ and not n.startswith("_")}
        assert classes <= set(mod.__all__) <= set(uri1630.__all__), m   # every public class of a slice is exported
    out = _run("import sys, uri1630; uri1630.FtpURL; print(sorted(m for m in sys.modules if m.startswith('uri1630.schemes.')))")
    assert "uri1630.schemes.ftp" in out


# ---------------------------------------------------------------- the registry: one entry per scheme, one lock
from uri1630.schemes import (SCHEMES, SCHEME_ENTRIES, SchemeEntry, register_scheme, parse_url, _register,
                             _parse_generic, _ENTRIES, _REGISTRY)


def _forget(*names):
    for n in names:
        dict.pop(_ENTRIES, n, None); dict.pop(_REGISTRY, n, None)


def test_entry_holds_parser_retrieval_and_risks():
    def p(src): return _parse_generic(src)
    def fetch(u, o): return b"x"
    def risky(u): return []
    try:
        register_scheme("x-slice", p)
        _register("x-slice", "retrieval", fetch, False, "register_retrieval")
        _register("x-slice", "risks", risky, False, "risks")
        assert SCHEME_ENTRIES["x-slice"] == SchemeEntry(p, fetch, risky)
        assert SCHEMES["x-slice"] is p
        with pytest.raises(URIError) as ei: _register("x-slice", "retrieval", lambda u, o: b"", False, "register_retrieval")
        assert ei.value.rule == "register_retrieval"
        _register("x-slice", "retrieval", fetch, False, "register_retrieval")          # the same function again: fine
        _register("x-slice", "retrieval", risky, True, "register_retrieval")
        assert SCHEME_ENTRIES["x-slice"].retrieval is risky and SCHEME_ENTRIES["x-slice"].parser is p
    finally: _forget("x-slice")


def test_refusal_and_replace():
    def p(src): return _parse_generic(src)
    try:
        register_scheme("x-ref", p)
        with pytest.raises(URIError) as ei: register_scheme("x-ref", lambda s: None)
        assert ei.value.rule == "register_scheme"
        with pytest.raises(URIError): register_scheme("HTTP", p)           # a built-in is taken too
        q = lambda s: _parse_generic(s)._replace() if False else _parse_generic(s)
        register_scheme("x-ref", q, replace=True)
        assert SCHEMES["x-ref"] is q and SCHEME_ENTRIES["x-ref"].parser is q
    finally: _forget("x-ref")


def test_views_are_read_only():
    for view in (SCHEMES, SCHEME_ENTRIES):
        with pytest.raises(TypeError): view["x-ro"] = lambda s: None
        with pytest.raises(AttributeError): view.pop("http")
    assert "http" in SCHEMES and "x-ro" not in SCHEMES


def test_concurrent_registration_one_winner_per_slot():
    "8 threads register different parsers and retrievals for one name: exactly one of each wins, the entry is whole"
    wins, errs = {"parser": [], "retrieval": []}, []
    barrier = threading.Barrier(16)
    def racer(k, slot):
        def f(*a, k=k): return _parse_generic(a[0])
        f.__qualname__ = f"racer_{slot}{k}"
        barrier.wait()
        try: _register("x-race2", slot, f, False, "race"); wins[slot].append(f)
        except URIError: errs.append(k)
    ts = [threading.Thread(target=racer, args=(k, s)) for k in range(8) for s in ("parser", "retrieval")]
    try:
        [t.start() for t in ts]; [t.join() for t in ts]
        assert (len(wins["parser"]), len(wins["retrieval"]), len(errs)) == (1, 1, 14)
        e = SCHEME_ENTRIES["x-race2"]
        assert (e.parser, e.retrieval) == (wins["parser"][0], wins["retrieval"][0])
        assert SCHEMES["x-race2"] is e.parser
    finally: _forget("x-race2")


# ---------------------------------------------------------------- #15 phase 2: the access algorithms live in their slices
def test_transport_imports_no_slice_and_parsing_loads_no_transport():
    out = _run("import sys, uri1630; uri1630.parse_url('http://h/'); uri1630.parse_url('ftp://h/f'); "
               "print('socket' in sys.modules, 'uri1630.transport' in sys.modules)")
    assert out.split() == ["False", "False"]
    out = _run("import sys, uri1630.transport; print(sorted(m for m in sys.modules if m.startswith('uri1630.schemes.')))")
    assert out.strip() == "[]"


def test_register_retrieval_writes_the_entry():
    from uri1630.access import register_retrieval, retrieve
    fetch = lambda u, o: u.path.encode()
    try:
        register_retrieval("x-entry", fetch)
        assert SCHEME_ENTRIES["x-entry"].retrieval is fetch
        assert retrieve("x-entry:abc") == b"abc"
        with pytest.raises(URIError, match="already has a retrieval algorithm"): register_retrieval("X-Entry", lambda u, o: b"")
    finally: _forget("x-entry")
    assert SCHEME_ENTRIES["http"].retrieval.__module__ == "uri1630.schemes.http"
