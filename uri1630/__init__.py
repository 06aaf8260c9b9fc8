"""uri1630: RFC 1630 (Universal Resource Identifiers in WWW) as a literate, executable edition.

The only hand-maintained module: it re-exports the public API (each module's `__all__`) of the modules
exported from the notebooks in nbs/. Nothing is imported until it is first used (`import uri1630` loads no
grammar, no regex and no socket): `uri1630.parse_url` imports `uri1630.schemes` on first access. The command
line lives in `uri1630.cli`, the widgets in `uri1630.widgets`. The scheme modules moved to `uri1630.schemes.<name>`;
their old names (`uri1630.scheme_http`, ...) still import, with a `DeprecationWarning`, for one release."""
from __future__ import annotations   # annotations are for mypy only: not evaluated, so `typing` is not imported
# `__version__` is (re)written in place by nbdev_export from settings.ini (put_version_in_init)
__version__ = "0.2.0"
import sys as _sys
from importlib.machinery import ModuleSpec as _ModuleSpec   # both already loaded by the interpreter
from types import ModuleType as _ModuleType
TYPE_CHECKING = False
if TYPE_CHECKING: from typing import Any
del TYPE_CHECKING

# module (relative to this package) -> the names of its `__all__`, in the order the star-imports used to run
_EXPORTS = {
    'errors': 'URIError URISyntaxError URIEncodingError',
    'grammar': 'ALPHA DIGIT SAFE EXTRA RESERVED HEX NATIONAL PUNCTUATION SAFE_URL ALPHANUM2 RFC1738_SAFE RFC1738_EXTRA RFC1738_NATIONAL RFC1738_PUNCTUATION RFC1738_RESERVED RFC1738_UNSAFE RFC1738_UNRESERVED RFC1738_SCHEME RFC1738_HSEGMENT_EXTRA RFC1738_FSEGMENT_EXTRA RFC1738_USER_EXTRA CLASSES ESCAPE_RE XALPHA_RE XPALPHA_RE XALPHAS_RE IALPHA_RE SEARCH_RE GRAMMARS GENERIC GENERIC_AS_PRINTED GENERIC_FUTURE_ESCAPES GenericGrammar describe_char register_grammar validate is_valid',
    'syntax': 'URI parse is_absolute segments',
    'reserved': 'encode_search decode_search',
    'unsafe': 'Unsafe unsafe_kind find_unsafe',
    'encoding': 'ALNUM ESCAPE_SAFE LEVELS escape unescape reserved_set Level as_level to_level canonical Change char_class explain_level equivalent Reason Comparison compare',
    'partial': 'PARTIAL_SENTENCES SLASH_READINGS PARTIAL_EXAMPLES PARTIAL_CONTEXTS slash_runs ResolutionStep resolve resolve_steps relative',
    'fragment': 'split_fragment with_fragment',
    'schemes': 'DEFAULT_PORTS URL_CHARS SCHEMES SCHEME_ENTRIES SchemeEntry LoginRule declare USER_CHARS Source split_url SchemeURL GenericURL register_scheme parse_url url_record IPURL Login parse_login',
    'context': 'KNOWN_SCHEMES Found find_urls extract extract_stream',
    'registration': 'RESERVED_NAMES is_experimental scheme_status',
    'retrieve': 'DEFAULT_TOTAL_TIMEOUT DEFAULT_MAX_BYTES ANONYMOUS_EMAIL NO_RETRIEVAL FTP_TYPES RetrievalError Deadline RetrievalOptions retrieve register_retrieval',
    'schemes.file': 'FILE_CHARS FileURL',
    'schemes.ftp': 'FSEGMENT_CHARS FtpURL ftp_session',
    'schemes.further': 'NNTP_GROUP_CHARS NntpURL',
    'schemes.gopher': 'GOPHER_CHARS GopherURL undot MenuItem parse_menu gopher_exchange iter_menu retrieve_menu',
    'schemes.http': 'HTTP_CHARS HttpURL http_request',
    'schemes.mailto': 'MailtoURL',
    'schemes.mid': 'MidURL CidURL',
    'schemes.news': 'NewsURL',
    'schemes.prospero': 'PROSPERO_CHARS ProsperoURL',
    'schemes.telnet': 'TelnetURL',
    'schemes.urn': 'URN',
    'schemes.wais': 'WAIS_CHARS WaisURL',
    'security': 'Risk RISK_KINDS risks',
    'url_grammar': 'RFC1630 RFC1630_AS_PRINTED RFC1738 RFC1738_AS_PRINTED DISAGREEMENTS URLGrammar check_production rfc1630_grammar rfc1738_grammar Disagreement',
}
_WHERE = {n: m for m, names in _EXPORTS.items() for n in names.split()}   # public name -> its module

# the old module names, importable for one release: old name -> new module
_MOVED = {f'{__name__}.scheme_{s}': f'{__name__}.schemes.{s}' for s in
          'file ftp further gopher http mailto mid news prospero telnet urn wais'.split()}

def _import(mod:str) -> _ModuleType:
    "Import `uri1630.<mod>` (and, for a scheme module, every built-in scheme, so that `SCHEMES` is complete)"
    from importlib import import_module
    m = import_module(f'{__name__}.{mod}')
    if mod.startswith('schemes'): import_module(f'{__name__}.schemes')._load_builtins()
    return m

def __getattr__(name:str) -> Any:   # Any: the names are resolved at run time
    "Import on first use: a public name from its module, a submodule, or a moved module (with a warning)"
    if name == '__all__':
        g = globals()
        g['__all__'] = [n for names in _EXPORTS.values() for n in names.split()]
        return g['__all__']
    mod = _WHERE.get(name)
    if mod is not None:
        value = getattr(_import(mod), name)
        globals()[name] = value    # bound once: later reads do not come here (and win over a submodule of that name)
        return value
    if f'{__name__}.{name}' in _MOVED or name in ('cli', 'scale', 'widgets', '__main__') or name in {m.split('.')[0] for m in _EXPORTS}:
        from importlib import import_module
        return import_module(f'{__name__}.{name}')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

def __dir__() -> list[str]: return sorted(set(globals()) | set(_WHERE))

class _MovedFinder:
    "Finds the modules that moved (`uri1630.scheme_http` -> `uri1630.schemes.http`): the same module object, and a `DeprecationWarning`"
    @classmethod
    def find_spec(cls, fullname:str, path:object=None, target:object=None) -> _ModuleSpec | None:
        new = _MOVED.get(fullname)
        if new is None: return None
        import warnings
        from importlib.util import spec_from_loader
        warnings.warn(f"{fullname} is deprecated: import {new} (the old name goes in the next release)", DeprecationWarning, stacklevel=2)
        # the class itself is the loader (static `create_module`/`exec_module`, PEP 451); typeshed's LoaderProtocol
        # also asks for the legacy `load_module`, which the import system never calls when `exec_module` exists
        return spec_from_loader(fullname, cls, origin=new)  # type: ignore[arg-type]
    @staticmethod
    def create_module(spec:_ModuleSpec) -> _ModuleType:
        from importlib import import_module
        assert spec.origin is not None   # `find_spec` always sets it to the new name
        return import_module(spec.origin)
    @staticmethod
    def exec_module(module:_ModuleType) -> None: pass

class _Package(_ModuleType):
    "This package: the import system binds each submodule to its name here, except where the API exports that name (`retrieve`)"
    def __setattr__(self, name:str, value:object) -> None:
        if name in _WHERE and isinstance(value, _ModuleType): return   # `uri1630.retrieve` stays the function
        super().__setattr__(name, value)

_sys.modules[__name__].__class__ = _Package

if not any(f is _MovedFinder or getattr(f, '__qualname__', '') == '_MovedFinder' for f in _sys.meta_path):
    _sys.meta_path.append(_MovedFinder)
