"""The ipywidgets explorers (optional extra: pip install "uri1630[widgets]"); re-exports each widget module."""
from .encoding import *
from .parsing import *
from .resolution import *
