__version__ = "0.1.0"
"""uri1630: RFC 1630 (Universal Resource Identifiers in WWW) as a literate, executable edition.

This file is the only hand-written module: it re-exports the public API of the modules exported
from the notebooks in nbs/ (each `from .x import *` brings in that module's `__all__`).
"""
from .errors import *
from .grammar import *
from .syntax import *
from .reserved import *
from .unsafe import *
from .encoding import *
