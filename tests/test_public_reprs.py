"""Every public record type of the package masks a password in its repr (RFC 1738 §6), found by type.

Round 16 found `RetrievalOptions` (what every registered retrieval is handed) with the default NamedTuple
repr, the URL's password and the `password` option in clear: no walk of public calls had reached it. So the
types are read from the package itself: every public NamedTuple or dataclass of every module, built with a
URL holding a password in each field that carries a URL or a text from one (by its name: url, uri, text,
context, target, base, location, request, selector, password, login, source, result), and every other
`str` field "x". What cannot be built from such values (a `URI` checks that its parts parse back) is
counted; most must build. `Change` is one unit of `explain_level` (a character: data, never a whole URL).
"""
import dataclasses, importlib, inspect, pkgutil, re, typing

import pytest

import uri1630

PW = "Kv7Qx3JmZq"
URL = f"ftp://us:{PW}@h.example/p"
URLISH = re.compile("url|uri|text|context|target|base|location|request|selector|password|login|source|result", re.I)
DATA = {"Change"}   # explain_level's unit: one character of the input and what it became


def _types():
    out = {}
    for m in pkgutil.walk_packages(uri1630.__path__, "uri1630."):
        try:
            mod = importlib.import_module(m.name)
        except ImportError:   # an optional extra (widgets without ipywidgets)
            continue
        for n, c in vars(mod).items():
            if (not n.startswith("_") and inspect.isclass(c) and c.__module__.startswith("uri1630")
                    and (hasattr(c, "_fields") or dataclasses.is_dataclass(c))):
                out[c.__qualname__] = c
    return out


def _value(t, name):
    args = typing.get_args(t)
    if t is str or (typing.get_origin(t) in (typing.Union, getattr(__import__("types"), "UnionType", None)) and str in args):
        return URL if URLISH.search(name) else "x"
    return {int: 1, float: 1.0, bool: False, bytes: URL.encode() if URLISH.search(name) else b"x"}.get(t)


def _built():
    built, skipped = {}, []
    for q, c in sorted(_types().items()):
        try:
            hints = typing.get_type_hints(c)
        except Exception:
            hints = getattr(c, "__annotations__", {})
        fields = c._fields if hasattr(c, "_fields") else [f.name for f in dataclasses.fields(c) if f.init]
        try:
            built[q] = c(**{f: _value(hints.get(f), f) for f in fields})
        except Exception:
            skipped.append(q)
    return built, skipped


BUILT, SKIPPED = _built()


def test_most_record_types_build():
    assert "RetrievalOptions" in BUILT and len(BUILT) >= 25 and len(SKIPPED) <= 3, (sorted(BUILT), SKIPPED)


@pytest.mark.parametrize("name", sorted(set(BUILT) - DATA))
def test_repr_masks(name):
    shown = repr(BUILT[name]) + str(BUILT[name])
    assert not any(PW[i:i + 3] in shown for i in range(len(PW) - 2)), (name, shown[:300])
