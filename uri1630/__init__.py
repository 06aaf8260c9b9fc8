__version__ = "0.1.0"
"""uri1630: RFC 1630 (Universal Resource Identifiers in WWW) as a literate, executable edition.

The only hand-maintained module: it re-exports the public API (each module's `__all__`) of the modules
exported from the notebooks in nbs/. The command line lives in `uri1630.cli`, the widgets in `uri1630.widgets`."""
from .errors import *
from .grammar import *
from .syntax import *
from .reserved import *
from .unsafe import *
from .encoding import *
from .schemes import *
from .context import *
