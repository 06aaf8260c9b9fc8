"""uri1630: RFC 1630 (Universal Resource Identifiers in WWW) as a literate, executable edition.

The only hand-maintained module: it re-exports the public API (each module's `__all__`) of the modules
exported from the notebooks in nbs/. Nothing is imported until it is first used (`import uri1630` loads no
grammar, no regex and no socket): `uri1630.parse_url` imports `uri1630.schemes` on first access. The command
line lives in `uri1630.cli`, the widgets in `uri1630.widgets`. It is also the loader that a lower layer asks for
the module above it that fills one of its hooks (`_fill`): no module imports, or loads by name, one above it."""
from __future__ import annotations   # annotations are for mypy only: not evaluated, so `typing` is not imported
# `__version__` is (re)written in place by nbdev_export from settings.ini (put_version_in_init)
__version__ = "0.3.0"
from types import ModuleType as _ModuleType   # already loaded by the interpreter
import os as _os                              # so is os
TYPE_CHECKING = False
if TYPE_CHECKING: from typing import Any
del TYPE_CHECKING

# module (relative to this package) -> the names of its `__all__`, in the order the star-imports used to run
_EXPORTS = {
    'errors': 'URIError URISyntaxError URIEncodingError ServerText Secret',
    'grammar': 'ALPHA DIGIT SAFE EXTRA RESERVED HEX NATIONAL PUNCTUATION SAFE_URL ALPHANUM2 RFC1738_SAFE RFC1738_EXTRA RFC1738_NATIONAL RFC1738_PUNCTUATION RFC1738_RESERVED RFC1738_UNSAFE RFC1738_UNRESERVED RFC1738_SCHEME RFC1738_HSEGMENT_EXTRA RFC1738_FSEGMENT_EXTRA RFC1738_USER_EXTRA CLASSES ESCAPE_RE XALPHA_RE XPALPHA_RE XALPHAS_RE IALPHA_RE SEARCH_RE GRAMMARS GENERIC GENERIC_AS_PRINTED GENERIC_FUTURE_ESCAPES GenericGrammar describe_char register_grammar validate is_valid',
    'syntax': 'URI parse is_absolute segments',
    'reserved': 'encode_search decode_search',
    'unsafe': 'Unsafe unsafe_kind find_unsafe',
    'encoding': 'ALNUM ESCAPE_SAFE LEVELS escape unescape reserved_set Level as_level to_level canonical Change char_class explain_level equivalent Reason Comparison compare',
    'partial': 'PARTIAL_SENTENCES SLASH_READINGS PARTIAL_EXAMPLES PARTIAL_CONTEXTS slash_runs ResolutionStep resolve resolve_steps relative',
    'fragment': 'split_fragment with_fragment',
    'schemes': 'DEFAULT_PORTS URL_CHARS SCHEMES SCHEME_ENTRIES SchemeEntry LoginRule declare USER_CHARS Source split_url SchemeURL GenericURL register_scheme parse_url url_record IPURL Login parse_login LoginSpans',
    'context': 'KNOWN_SCHEMES Found find_urls extract extract_stream',
    'registration': 'RESERVED_NAMES is_experimental scheme_status',
    'transport': 'DEFAULT_TOTAL_TIMEOUT DEFAULT_MAX_BYTES ANONYMOUS_EMAIL FTP_TYPES RetrievalError Deadline RetrievalOptions',
    'access': 'NO_RETRIEVAL retrieve register_retrieval',
    'security': 'Risk RISK_KINDS LOGIN_SENTENCE risks',
    'url_grammar': 'RFC1630 RFC1630_AS_PRINTED RFC1738 RFC1738_AS_PRINTED DISAGREEMENTS URLGrammar check_production rfc1630_grammar rfc1738_grammar Disagreement',
}
# (+ each scheme slice, `uri1630/schemes/<name>.py`, with its `__all__`: read from the records' modules, listed nowhere
# by hand, so that a new slice's public names are exported without an edit here; see `_exports`)
_WHERE = {n: m for m, names in _EXPORTS.items() for n in names.split()}   # public name -> its module
_SLICES: dict[str, str] = {}   # 'schemes.<slice>' -> its `__all__`, once read

def _exports() -> dict[str, str]:
    "`_EXPORTS` and every scheme slice's `__all__`, read from the slice's text (nbdev writes it first): nothing is imported"
    if not _SLICES:
        folder = _os.path.join(__path__[0], 'schemes')
        for f in sorted(_os.listdir(folder)):
            if f.endswith('.py') and not f.startswith('_'):
                with open(_os.path.join(folder, f), encoding='utf-8') as fh: text = fh.read()
                body = text[text.index('__all__ = [') + 11:]
                names = body[:body.index(']')].replace('\n', ' ').split(',')
                _SLICES[f'schemes.{f[:-3]}'] = ' '.join(n.strip().strip("'\"") for n in names if n.strip())
        _WHERE.update({n: m for m, names in _SLICES.items() for n in names.split()})
    return {**_EXPORTS, **_SLICES}

# a hook that a lower layer offers -> the module above it that fills the hook when it is imported
_HOOKS = {'dispatcher': 'access',          # transport: the dispatcher that redirects are followed through
          'url grammars': 'url_grammar',   # grammar: the RFC 1630 and RFC 1738 URL grammars, by name
          'url reader': 'schemes'}         # encoding: `parse_url`, for RFC 1738's rules within a URL

def _fill(hook:str) -> None:
    "Import the module that fills `hook` (a lower layer asks here: it names no module above it)"
    from importlib import import_module
    import_module(f'{__name__}.{_HOOKS[hook]}')

def _import(mod:str) -> _ModuleType:
    "Import `uri1630.<mod>` (and, for a scheme module, every built-in scheme, so that `SCHEMES` is complete)"
    from importlib import import_module
    m = import_module(f'{__name__}.{mod}')
    if mod.startswith('schemes'): import_module(f'{__name__}.schemes')._load_builtins()
    return m

def __getattr__(name:str) -> Any:   # Any: the names are resolved at run time
    "Import on first use: a public name from its module, or a submodule"
    if name == '__all__':
        g = globals()
        g['__all__'] = [n for names in _exports().values() for n in names.split()]
        return g['__all__']
    mod = _WHERE.get(name)
    if mod is None and not name.startswith('__'):
        _exports()    # a scheme slice's name: read the slices' `__all__` (once)
        mod = _WHERE.get(name)
    if mod is not None:
        value = getattr(_import(mod), name)
        globals()[name] = value    # bound once: later reads do not come here (and win over a submodule of that name)
        return value
    if name in ('cli', 'scale', 'widgets', '__main__') or name in {m.split('.')[0] for m in _EXPORTS}:
        from importlib import import_module
        return import_module(f'{__name__}.{name}')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

def __dir__() -> list[str]: return sorted(set(globals()) | set(_WHERE) | {n for v in _exports().values() for n in v.split()})
