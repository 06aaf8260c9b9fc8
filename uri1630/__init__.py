"""uri1630: RFC 1630 (Universal Resource Identifiers in WWW) as a literate, executable edition.

The only hand-maintained module: it re-exports the public API (each module's `__all__`) of the modules
exported from the notebooks in nbs/. The command line lives in `uri1630.cli`, the widgets in `uri1630.widgets`."""
# `__version__` is (re)written in place by nbdev_export from settings.ini (put_version_in_init)
__version__ = "0.2.0"
from .errors import *
from .grammar import *
from .syntax import *
from .reserved import *
from .unsafe import *
from .encoding import *
from .partial import *
from .fragment import *
from .schemes import *
from .context import *
from .registration import *
from .retrieve import *
from .scheme_file import *
from .scheme_ftp import *
from .scheme_further import *
from .scheme_gopher import *
from .scheme_http import *
from .scheme_mailto import *
from .scheme_mid import *
from .scheme_news import *
from .scheme_prospero import *
from .scheme_telnet import *
from .scheme_urn import *
from .scheme_wais import *
from .security import *
from .url_grammar import *
