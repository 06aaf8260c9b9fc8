"""Every value the library returns pickles and comes back equal (same type, equal, same hash), as do its errors.

The values are reached by calling every public function of `uri1630` (and of `uri1630.partial` and
`uri1630.scale`) on sample inputs of every scheme, valid and not; whatever comes back (walked into tuples,
lists and dataclass fields) or is raised is round-tripped, with the oldest protocol dask could use and the newest."""
import dataclasses, inspect, pickle
import pytest
import uri1630
import uri1630.catalog

SAMPLES = [
    "http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram/marie%2Dclaude",
    "HTTP://www.example.com:8080/a/b?c+d#frag", "http://u:p@h/p?q", "ftp://u:p@ftp.example/pub/f.txt;type=i",
    "ftp://h/d%2Fe;type=d", "gopher://h:70/1/dir", "gopher://h/7sel%09search", "news:comp.infosystems.www",
    "news:123@h", "nntp://h/g/1", "mailto:timbl@info.cern.ch", "telnet://u:p@h:23/", "wais://h/db?query",
    "wais://h/db/type/path", "file://localhost/etc/motd", "file:///tmp/x", "prospero://h/p;k=v", "x-new:thing",
    "magic://a/b/c//d/e/f", "../g", "//g", "#frag", "?search+words", "", "http://h/50%", "http://h/a b",
    "http://h/é", "http://h/\u0101", "ht tp://h/", "1http:x", "url:http://h/", "<URL:ftp://h/f>", "http://h:99999/",
    "see <URL:http://h/x> and http://h/y.", "http://h/a%2e%2E/./../b", "%0A:", "http://[::1]/",
    "mid:960830.1639@XIson.com", "cid:foo4*foo1@bar.net", "urn:ietf:rfc:2648", "urn:/iana/dns/ch/cern",
]
# and, for every scheme registered (by any notebook, now or later), a few shapes of URL
SAMPLES += [f"{name}:{rest}" for name in getattr(uri1630, 'SCHEMES', {})
            for rest in ("//h/p", "//u:p@h:1/p?q#f", "x@y", "a", "//h/1/sel", "//h/db?w")]
# and every record's own example (a scheme stricter than the shapes above is still reached)
SAMPLES += [e.example for e in uri1630.catalog.SCHEME_ENTRIES.values() if e.example]
SKIP = {'retrieve', 'retrieve_menu', 'iter_menu', 'http_request', 'ftp_session', 'gopher_exchange', 'register_scheme', 'declare',
        'register_grammar', 'local_cluster', 'from_lines', 'map_bag', 'main'}


def _functions():
    import uri1630.partial, uri1630.scale
    seen = {}
    for mod in (uri1630, uri1630.partial, uri1630.scale):
        for name in getattr(mod, '__all__', dir(mod)):
            f = getattr(mod, name, None)
            if name.startswith('_') or name in SKIP or not inspect.isfunction(f): continue
            seen[name] = f
    return seen


def _calls():
    "(function, args) for every public function: one-argument calls with each sample, two-argument with pairs"
    for name, f in _functions().items():
        try: params = [p for p in inspect.signature(f).parameters.values() if p.default is p.empty]
        except (TypeError, ValueError): continue
        if params and params[0].annotation is uri1630.Source:      # scheme readers take what split_url read
            for s in SAMPLES:
                try: yield f, (uri1630.split_url(s),)
                except uri1630.URIError: pass
        elif len(params) == 1:
            for s in SAMPLES: yield f, (s,)
        elif len(params) == 2:
            for a in SAMPLES[:12] + ["magic://a/b/c//d/e/"]:
                for b in ("g", "../g", "http://h/x", "magic://a/b/c//d/e/g", "http://info.cern.ch/albert/bertram%2Fmarie-claude"):
                    yield f, (a, b)


def _extra_calls():
    "Calls the sweep cannot guess: level names, a menu line"
    for name in ('decoded', 'canonical', 'conservative', 'alphanumeric'): yield uri1630.as_level, (name,)
    yield uri1630.as_level, ({'a', '~'},)
    if hasattr(uri1630, 'parse_menu'): yield uri1630.parse_menu, (b"1Dir\t/dir\th\t70\r\n0File\t/f\th\t70\r\n.\r\n",)


def _walk(v):
    import types
    if isinstance(v, types.MappingProxyType):                # a read-only view (it cannot pickle): its values can
        for x in v.values(): yield from _walk(x)
        return
    if isinstance(v, types.GeneratorType):                   # a streaming function's result (extract_stream): its items are the values
        for x in v: yield from _walk(x)
        return
    if isinstance(v, dict):
        for x in v.values(): yield from _walk(x)
        if any(callable(x) for x in v.values()): return     # a registry of functions: not a value
    yield v
    if isinstance(v, (tuple, list, frozenset)) and not isinstance(v, str):
        for x in v: yield from _walk(x)
    elif dataclasses.is_dataclass(v) and not isinstance(v, type):
        for fld in dataclasses.fields(v): yield from _walk(getattr(v, fld.name))


def _reached():
    values, errors = [], []
    for f, args in [*_calls(), *_extra_calls()]:
        try: values.extend(_walk(f(*args)))
        except uri1630.URIError as e: errors.append(e)
        except (TypeError, ValueError, NotImplementedError): pass     # not that kind of argument
    return values, errors


def _constants():
    "The public constants' values (tuples of examples, levels, grammars' disagreements, ...), mappings walked into"
    import types
    for name in dir(uri1630):
        v = getattr(uri1630, name)
        if name.startswith('_') or callable(v) or isinstance(v, types.ModuleType): continue
        yield from (x for x in _walk(v) if not callable(x))


VALUES, ERRORS = _reached()
CONSTANTS = list(_constants())


def _expected(v):
    "What `v` unpickles as: itself, but each non-void `Secret` in it withheld (RFC 1738 §6: no pickle holds a password)"
    from uri1630.errors import _withheld
    S = uri1630.Secret
    if isinstance(v, S): return _withheld() if v else v
    # a login no parse read (mailto://u:pw@h, the generic syntax): the pickle holds the parts masked
    from uri1630.schemes import SchemeURL, _loose_forms
    if isinstance(v, SchemeURL) and _loose_forms(v): return _Masked(v)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        ch = {f.name: _expected(getattr(v, f.name)) for f in dataclasses.fields(v) if isinstance(getattr(v, f.name), S)}
        return dataclasses.replace(v, **ch) if ch else v
    if isinstance(v, tuple) and hasattr(v, '_replace'):
        ch = {k: _expected(x) for k, x in zip(v._fields, v) if isinstance(x, S)}
        return v._replace(**ch) if ch else v
    if type(v) in (tuple, list): return type(v)(_expected(x) for x in v)
    return v


class _Masked:
    "What a scheme object whose text holds a password no parse read unpickles as: each part that holds none, equal"
    def __init__(self, v): self.v = v

    def check(self, w):
        from uri1630.schemes import _loose_forms
        forms = _loose_forms(self.v)
        assert type(w) is type(self.v) and "***" in w.text and not any(f in w.text for f in forms if len(f) >= 4), w.text
        for f in dataclasses.fields(self.v):
            a = getattr(self.v, f.name)
            if isinstance(a, uri1630.Secret): continue   # withheld, as every pickle's
            if not any(x in repr(a) for x in forms): assert getattr(w, f.name) == a, (f.name, a, w)


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_values_round_trip(protocol):
    kinds = set()
    for v in VALUES:
        w, want = pickle.loads(pickle.dumps(v, protocol)), _expected(v)
        if isinstance(want, _Masked):
            want.check(w); kinds.add(type(v).__name__); continue
        assert type(w) is type(v) and w == want, (v, w)
        try: h = hash(want)
        except TypeError: continue
        assert hash(w) == h, v
        kinds.add(type(v).__name__)
    # the library's own value types, at least these, were reached and checked
    assert {'URI', 'Comparison', 'Reason', 'Level', 'Change', 'Unsafe', 'Failure', 'GenericURL'} <= kinds, kinds
    assert sum(k.endswith('URL') for k in kinds) >= 5, kinds


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_constants_round_trip(protocol):
    "Public constants pickle too; those of a type with value equality come back equal"
    for v in CONSTANTS:
        w = pickle.loads(pickle.dumps(v, protocol))
        assert type(w) is type(v), v
        assert w == v or type(v).__eq__ is object.__eq__, (v, w)


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_errors_round_trip(protocol):
    assert len({type(e) for e in ERRORS}) >= 2
    for e in ERRORS:
        f = pickle.loads(pickle.dumps(e, protocol))
        assert type(f) is type(e) and str(f) == str(e) and f.args == e.args
        assert (f.message, f.text, f.position, f.rule) == (e.message, e.text, e.position, e.rule)


def test_every_public_value_type_is_reached():
    "Every public scheme class is produced by some call above; other public value types are reached, or built from defaults"
    reached = {type(v).__name__ for v in VALUES + CONSTANTS}
    public = {n: getattr(uri1630, n) for n in dir(uri1630) if not n.startswith('_') and inspect.isclass(getattr(uri1630, n))
              and (dataclasses.is_dataclass(getattr(uri1630, n)) or issubclass(getattr(uri1630, n), tuple))}
    scheme_base = getattr(uri1630, 'SchemeURL', None)
    abstract = {'SchemeURL', 'IPURL'}                        # base classes, never returned themselves
    missing = [n for n, c in public.items() if n not in reached and n not in abstract
               and scheme_base and issubclass(c, scheme_base)]
    assert not missing, f"scheme classes no sample reaches (add a URL to SAMPLES): {sorted(missing)}"
    for n, c in public.items():                              # e.g. option records: built from their defaults
        if n in reached or n in abstract: continue
        try: v = c()
        except TypeError: continue                           # needs arguments and is never returned by a public call
        assert pickle.loads(pickle.dumps(v)) == v, n
    src = uri1630.split_url("http://h/p")
    assert pickle.loads(pickle.dumps(src)) == src
