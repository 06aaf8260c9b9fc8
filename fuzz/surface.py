"""The public surface of uri1630, found by introspection, and the contract every public function must keep.

Shared by the atheris harness (fuzz/fuzz_uri1630.py), the hypothesis tests (tests/test_reliability.py)
and the scaling benchmark (bench/scaling_adversarial.py), so all three cover every function any
notebook exports, including ones added after this file was written.

Parameters are classified by signature:
- *text*: a required `str` parameter (or `Union[str, …]`), or one named in `TEXT_NAMES`: any `str` is legal input,
  and the only exception allowed is the `URIError` family (plus `TypeError` for non-`str`).
- *option*: a `str` parameter with a `str` default (an encoding, a grammar name, a level, a spec …): the default,
  the values in `OPTION_VALUES`, or arbitrary text; for an unknown value a `ValueError` with a message is allowed
  (never `UnicodeError`, `LookupError`, `KeyError`).
- everything else: bools, ints (`Optional[int]` too), lists of text; a function with a required parameter of another type is not called.
"""
import importlib, inspect, pkgutil, typing, collections.abc as cabc
import uri1630
from uri1630.errors import URIError

SKIP_MODULES = {'cli', 'widgets', '__main__', '_modidx'}
# functions that change global state (registries) are exercised by the thread tests, not with random text
SKIP_FUNCS = {'register_grammar', 'register_scheme', 'declare', 'unregister_scheme', 'register', 'nbdev_export',
              # network and file I/O: never called with random text (they would contact hosts named by the fuzzer)
              'retrieve', 'retrieve_menu', 'iter_menu', 'ftp_session', 'gopher_exchange', 'serve', 'fetch', 'open_url'}
# Functions of notebooks owned by others that break the contract on random text (reported; xfail in the tests):
# the fuzzer skips them so that it can look for new bugs instead of stopping on the known one.
KNOWN_BROKEN_FUNCS = {}
# str parameters that name one of a fixed set of things: an unknown name is a ValueError, like an unknown option
NAME_PARAMS = {'level', 'part', 'grammar', 'encoding', 'reserved', 'spec', 'mode', 'kind', 'production', 'reading', 'rfc', 'op'}
TEXT_NAMES = {'safe', 'text', 'uri', 'url', 'base', 'ref', 'reference', 'target', 'path', 'search', 'fragment',
              'a', 'b', 'word', 'host', 'user', 'password', 'selector', 'name', 'value'}
OPTION_VALUES = {'encoding': ['latin-1', 'utf-8', 'ascii', 'cp1252', 'utf-16', 'idna', 'punycode', 'utf-8-sig', 'rot13'],
                 'level': ['decoded', 'canonical', 'conservative', 'alphanumeric'],
                 'reserved': ['rfc1630', 'rfc1738'],
                 'part': ['path', 'search', 'fragment', 'login'],
                 'reading': ['examples', 'literal'],
                 'rfc': ['1738', '1630'],
                 'production': ['httpurl', 'ftpurl', 'hostport', 'login', 'search', 'hsegment', 'fpath']}


def _modules():
    for m in sorted(pkgutil.iter_modules(uri1630.__path__), key=lambda m: m.name):
        if m.name in SKIP_MODULES or m.name.startswith('_'): continue
        try: yield importlib.import_module(f"uri1630.{m.name}")
        except Exception as e:  # a half-written module of a colleague: reported, not fatal
            print(f"surface: cannot import uri1630.{m.name}: {e!r}")
    schemes = importlib.import_module("uri1630.schemes")   # the scheme slices (#15: http_request, parse_menu, undot moved there from uri1630.retrieve)
    for m in sorted(pkgutil.iter_modules(schemes.__path__), key=lambda m: m.name):
        if m.name.startswith('_'): continue
        try: yield importlib.import_module(f"uri1630.schemes.{m.name}")
        except Exception as e:
            print(f"surface: cannot import uri1630.schemes.{m.name}: {e!r}")


def _is_str(ann):
    if ann is str: return True
    return typing.get_origin(ann) is typing.Union and str in typing.get_args(ann)


def _is_str_list(ann):
    o = typing.get_origin(ann)
    return o in (list, tuple, cabc.Iterable, cabc.Sequence) and typing.get_args(ann)[:1] == (str,)


class Param(typing.NamedTuple):
    name: str
    kind: str        # "text", "option", "bool", "int", "textlist", "default"
    default: object


class Func(typing.NamedTuple):
    qualname: str    # "module.name"
    fn: object
    params: tuple    # of Param


def _classify(fn):
    try: sig = inspect.signature(fn)
    except (TypeError, ValueError): return None
    try: hints = typing.get_type_hints(fn)
    except Exception: hints = {}
    out = []
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD): continue
        ann, d, req = hints.get(p.name, p.annotation), p.default, p.default is inspect.Parameter.empty
        if p.name in NAME_PARAMS and (_is_str(ann) or isinstance(d, str) or ann is inspect.Parameter.empty):
            out.append(Param(p.name, 'option', d))
        elif (_is_str(ann) or (ann is inspect.Parameter.empty and p.name in TEXT_NAMES)) and (req or p.name in TEXT_NAMES or d is None):
            out.append(Param(p.name, 'text', d))
        elif _is_str(ann) or isinstance(d, str): out.append(Param(p.name, 'option', d))
        elif ann is bool or isinstance(d, bool): out.append(Param(p.name, 'bool', d))
        elif ann in (int, typing.Optional[int]) or (isinstance(d, int) and not isinstance(d, bool)): out.append(Param(p.name, 'int', d))
        elif _is_str_list(ann): out.append(Param(p.name, 'textlist', d))
        elif not req: out.append(Param(p.name, 'default', d))
        else: return None   # a required parameter we cannot synthesise
    return tuple(out)


def public_functions():
    "Every plain function in the `__all__` of every uri1630 module (classes and registries excluded)"
    seen, out = set(), []
    for mod in _modules():
        for name in getattr(mod, '__all__', ()):
            fn = getattr(mod, name, None)
            if not inspect.isfunction(fn) or name in SKIP_FUNCS or name.startswith('_') or fn in seen: continue
            if fn.__module__ != mod.__name__: continue   # re-exported from another module: counted there
            params = _classify(fn)
            if params is None or not any(p.kind in ('text', 'textlist') for p in params): continue
            seen.add(fn); out.append(Func(f"{mod.__name__.split('.', 1)[1]}.{name}", fn, params))
    return out


class ContractViolation(AssertionError):
    "A public function broke the error contract"


FORBIDDEN_OPTION_ERRORS = (UnicodeError, LookupError)


def check_call(f: Func, kwargs: dict, texts: dict):
    """Call `f(**kwargs)`; return the result or the URIError raised; raise ContractViolation for anything else.
    `texts` maps the text parameter names to the strings passed (to check `position`)."""
    options_arbitrary = any(p.kind == 'option' and kwargs.get(p.name) not in _legal_options(p) for p in f.params)
    try:
        return f.fn(**kwargs)
    except URIError as e:
        if not isinstance(e.message, str) or not e.message:
            raise ContractViolation(f"{f.qualname}: URIError without a message: {e!r}") from e
        if e.position is not None:
            if not isinstance(e.position, int) or e.position < 0:
                raise ContractViolation(f"{f.qualname}: bad position {e.position!r}") from e
            if e.text is None:
                raise ContractViolation(f"{f.qualname}: position {e.position} given without the text it indexes") from e
            if e.position > len(e.text):
                raise ContractViolation(f"{f.qualname}: position {e.position} beyond len(text)={len(e.text)}") from e
        if e.rule is not None and (not isinstance(e.rule, str) or not e.rule):
            raise ContractViolation(f"{f.qualname}: bad rule {e.rule!r}") from e
        return e
    except ValueError as e:
        if not isinstance(e, FORBIDDEN_OPTION_ERRORS) and str(e) and (options_arbitrary or _option_error(f, kwargs)):
            return e       # an unknown option value or combination: a ValueError that says so is the documented answer
        raise ContractViolation(f"{f.qualname}({_short(kwargs)}) raised {type(e).__name__}: {e}") from e
    except Exception as e:
        raise ContractViolation(f"{f.qualname}({_short(kwargs)}) raised {type(e).__name__}: {e}") from e


def _option_error(f: Func, kwargs: dict) -> bool:
    "True if the call raises ValueError whatever the text: the options themselves are refused"
    kw = {k: ("http://h/" if p.kind == 'text' else ["a"] if p.kind == 'textlist' else v)
          for p in f.params for k, v in kwargs.items() if k == p.name}
    try: f.fn(**kw)
    except ValueError as e: return not isinstance(e, URIError)
    except Exception: return False
    return False


def _legal_options(p: Param):
    vals = ([] if p.default is inspect.Parameter.empty else [p.default]) + [v for v in OPTION_VALUES.get(p.name, []) if v not in ('utf-16', 'idna', 'punycode', 'utf-8-sig', 'rot13')]
    if p.name == 'grammar':
        from uri1630.grammar import GRAMMARS
        vals += list(GRAMMARS)
    return vals


def option_values(p: Param):
    "The values worth trying for option parameter `p`"
    vals = _legal_options(p) + OPTION_VALUES.get(p.name, [])
    return list(dict.fromkeys(v for v in vals if isinstance(v, str)))


def _short(kwargs):
    return ', '.join(f"{k}={(v[:60] + '…' if isinstance(v, str) and len(v) > 60 else v)!r}" for k, v in kwargs.items())


def is_immutable_value(v, depth=0):
    "True if `v` is hashable and contains no mutable containers (list, dict, set, bytearray)"
    if depth > 50: return True
    if isinstance(v, (list, dict, set, bytearray)): return False
    if isinstance(v, BaseException): return True
    try: hash(v)
    except TypeError: return False
    if isinstance(v, tuple): return all(is_immutable_value(x, depth + 1) for x in v)
    return True


def fill(f: Func, text: str) -> dict:
    "Arguments for `f` with `text` in every text argument (`[text]` in a list of texts) and defaults elsewhere"
    kw = {}
    for p in f.params:
        if p.kind == 'text': kw[p.name] = text
        elif p.kind == 'textlist': kw[p.name] = [text]
        elif p.default is not inspect.Parameter.empty: continue
        elif p.kind == 'int': kw[p.name] = len(text) if p.name in ('end', 'stop', 'endpos') else 0
        elif p.kind == 'bool': kw[p.name] = False
        elif p.kind == 'option': kw[p.name] = (option_values(p) or [''])[0]
    return kw
