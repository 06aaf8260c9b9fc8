"""The ipywidgets explorers (optional extra: pip install "uri1630[widgets]"); re-exports each widget module.
Their HTML comes from `uri1630.render`, which needs no ipywidgets."""
try:
    import ipywidgets  # noqa: F401
except ImportError as e:
    raise ImportError('uri1630.widgets needs ipywidgets: pip install "uri1630[widgets]" '
                      '(the renderers alone, without widgets, are in uri1630.render)', name=e.name) from e
from .encoding import *
from .parsing import *
from .resolution import *
