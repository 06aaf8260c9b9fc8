"""The live part of the read-along site: Python in the reader's browser, served by the site itself.

- `fetch_pyodide()`: the Pyodide runtime from the npm registry (`npm pack`, pinned version, its sha512
  checked against the value pinned here), cached outside the repository (`$URI1630_DOCS_CACHE`, else
  `$XDG_CACHE_HOME/uri1630-docs`, else `~/.cache/uri1630-docs`).
- `assets(static)`: the runtime, the uri1630 wheel built from this checkout, fastcore (the notebooks'
  `test_eq`, pure Python, zipped from the installed package) and `manifest.json` into the site's `_static/`.
  The page unpacks the archives with `pyodide.unpackArchive`: no micropip, no `loadPackage`, no CDN.
- `explorer_html(expr)`: a widget explorer cell's output as live HTML: labelled form controls (disabled until
  Python is ready) and the static snapshot the renderer computed at build time (what a reader without
  JavaScript sees).
- `browser_plan(cells, page)`: why each code cell cannot run in a browser (network, subprocess, dask, timing, what a
  skipped cell above defines, ...), or None; one decision for the page's Run cells and for JupyterLite.
"""
import base64, hashlib, html, json, os, re, shutil, subprocess, sys, tarfile, tempfile, zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = "pyodide@314.0.7"
PYODIDE_SHA512 = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "package.json")


def cache_dir() -> Path:
    d = os.environ.get("URI1630_DOCS_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "uri1630-docs"
    return Path(d)


def _npm_pack(spec, tmp):
    "`npm pack SPEC` into `tmp`: the tarball's path; without npm, the same tarball by the registry's own metadata"
    if shutil.which("npm"):
        r = subprocess.run(["npm", "pack", spec, "--json", "--silent"], cwd=tmp, capture_output=True, text=True)
        if r.returncode: sys.exit(f"npm pack {spec} failed: {r.stderr.strip()[-400:]}")
        return Path(tmp) / json.loads(r.stdout)[0]["filename"]
    import urllib.request
    name, _, version = spec.rpartition("@")
    with urllib.request.urlopen(f"https://registry.npmjs.org/{name.replace('/', '%2F')}/{version}", timeout=60) as f:
        tarball = json.load(f)["dist"]["tarball"]
    tgz = Path(tmp) / "package.tgz"
    with urllib.request.urlopen(tarball, timeout=300) as f: tgz.write_bytes(f.read())
    return tgz


def fetch_pyodide() -> Path:
    "The Pyodide runtime files, from the cache or fetched once from the npm registry (sha512 checked)"
    dest = cache_dir() / PYODIDE.replace("@", "-")
    if all((dest / f).exists() for f in RUNTIME): return dest
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tgz = _npm_pack(PYODIDE, tmp)
        algo, _, digest = PYODIDE_SHA512.partition("-")
        if base64.b64encode(hashlib.new(algo, tgz.read_bytes()).digest()).decode() != digest:
            sys.exit(f"{PYODIDE}: the tarball's sha512 is not the pinned one")
        with tarfile.open(tgz) as t:
            for f in RUNTIME: (dest / f).write_bytes(t.extractfile(f"package/{f}").read())
    print(f"[docs] {PYODIDE} from the npm registry (sha512 checked) -> {dest}", flush=True)
    return dest


HELPER = r'''
import ast, contextlib, io, json, linecache, sys, traceback
import uri1630, uri1630.render as _R
import types as _u1630_types
# the cells run in a module of their own that is `__main__` (a class a cell defines pickles, as in a notebook);
# this helper keeps its own globals, so a cell's names never shadow the runner's
_U1630_MAIN = sys.modules["__main__"] = _u1630_types.ModuleType("__main__")
_U1630_NS = _U1630_MAIN.__dict__
_U1630_SHOWN = []
try: import IPython.display
except ImportError:   # what the notebooks use of IPython.display, for the page: display() shows under the cell
    import types
    class _Shown:
        def __init__(self, data=None, **kw): self.data = data
    class Markdown(_Shown):
        def _repr_markdown_(self): return self.data
    class HTML(_Shown):
        def _repr_html_(self): return self.data
    class SVG(_Shown):
        def _repr_svg_(self): return self.data
    def display(*objs, **kw): _U1630_SHOWN.extend(objs)
    _ip, _ipd = types.ModuleType("IPython"), types.ModuleType("IPython.display")
    _ipd.Markdown, _ipd.HTML, _ipd.SVG, _ipd.display, _ip.display = Markdown, HTML, SVG, display, _ipd
    sys.modules["IPython"], sys.modules["IPython.display"] = _ip, _ipd
# nbdev does not run in a browser: its show_doc, reduced to the signature and the docstring (as in JupyterLite)
def _u1630_show_doc(sym, *args, **kwargs):
    import inspect
    try: sig = str(inspect.signature(sym))
    except (TypeError, ValueError): sig = ""
    name = getattr(sym, "__qualname__", getattr(sym, "__name__", repr(sym)))
    return sys.modules["IPython.display"].Markdown(f"`{name}{sig}`\n\n{inspect.getdoc(sym) or ''}")
if "nbdev" not in sys.modules:
    sys.modules["nbdev"] = _u1630_types.ModuleType("nbdev")
    sys.modules["nbdev.showdoc"] = _u1630_types.ModuleType("nbdev.showdoc")
    sys.modules["nbdev.showdoc"].show_doc = _u1630_show_doc
    sys.modules["nbdev.showdoc"].__all__ = ["show_doc"]
def _u1630_shown(r):
    h, m = getattr(r, "_repr_html_", None), getattr(r, "_repr_markdown_", None)
    x = h() if callable(h) and not isinstance(r, type) else None
    if x is not None: return {"html": x}
    v = getattr(r, "_repr_svg_", None)
    x = v() if callable(v) and not isinstance(r, type) else None
    if x is not None: return {"html": x}
    x = m() if callable(m) and not isinstance(r, type) else None
    return {"markdown": x} if x is not None else {"text": repr(r)}
def _u1630_explore(kind, args):
    "An explorer's HTML: the renderer the ipywidgets explorer wraps, with the form's values"
    f = {"encoding": _R.level_html, "resolution": _R.resolution_html, "parse": _R.parse_html}[kind]
    return f(*json.loads(args))
def _u1630_traceback(e):
    "The error as a notebook shows it: the cell's frames and what they called, not the runner's own (ast, exec)"
    if isinstance(e, SyntaxError) and e.filename == "<cell>":
        return "".join(traceback.format_exception_only(type(e), e))
    mine = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"]
    head = ["Traceback (most recent call last):\n"] + traceback.format_list(mine) if mine else []
    return "".join(head + traceback.format_exception_only(type(e), e))
def _u1630_run(src):
    "Run a cell's source in the page's namespace, as a notebook would: stdout, the last expression's value, the error"
    buf, res = io.StringIO(), {}
    _U1630_SHOWN.clear()
    try:
        linecache.cache["<cell>"] = (len(src), None, src.splitlines(True), "<cell>")   # tracebacks quote its lines
        tree = ast.parse(src, "<cell>")
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            exec(compile(tree, "<cell>", "exec"), _U1630_NS)
            if last is not None:
                r = eval(compile(ast.Expression(last.value), "<cell>", "eval"), _U1630_NS)
                if r is not None: res.update(_u1630_shown(r))
    except BaseException as e:
        res["error"] = _u1630_traceback(e)
    res["stdout"] = buf.getvalue()
    res["shown"] = [_u1630_shown(r) for r in _U1630_SHOWN]; _U1630_SHOWN.clear()
    return json.dumps(res)
'''


def _zip_installed(pkg: str, dest: Path) -> str:
    "Zip an installed pure-Python package (its folder, as installed here) for `unpackArchive`; returns its version"
    import importlib, importlib.metadata
    folder = Path(importlib.import_module(pkg).__file__).parent
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(folder.rglob("*.py")):
            z.write(p, p.relative_to(folder.parent).as_posix())
    return importlib.metadata.version(pkg)


def assets(static: Path) -> dict:
    "Put the runtime, the wheel, fastcore and the manifest into the built site's `_static/`"
    runtime = fetch_pyodide()
    (static / "pyodide").mkdir(parents=True, exist_ok=True)
    for f in RUNTIME: shutil.copy2(runtime / f, static / "pyodide" / f)
    live = static / "live"
    if live.exists(): shutil.rmtree(live)
    live.mkdir()
    with tempfile.TemporaryDirectory() as tmp:   # the wheel, built from this checkout (no network: no build isolation)
        r = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                            "--disable-pip-version-check", "-q", "-w", tmp], capture_output=True, text=True)
        wheels = list(Path(tmp).glob("uri1630-*.whl"))
        if r.returncode or not wheels: sys.exit(f"building the uri1630 wheel failed:\n{r.stderr[-2000:]}")
        shutil.copy2(wheels[0], live / wheels[0].name)
    shutil.rmtree(ROOT / "build", ignore_errors=True)   # pip's setuptools scratch folder
    fc = _zip_installed("fastcore", live / "fastcore.zip")
    import uri1630
    pkg = json.loads((runtime / "package.json").read_text())
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    manifest = {"version": uri1630.__version__, "pyodide": pkg["version"], "python": lock["info"]["python"],
                "fastcore": fc, "helper": HELPER + _IN_PAGE_HYPOTHESIS,
                "archives": [{"file": wheels[0].name, "format": "wheel"}, {"file": "fastcore.zip", "format": "zip"}]}
    (live / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


# ------------------------------------------------------------------ explorers
KINDS = {"EncodingExplorer": ("encoding", ["text", "level", "encoding", "reserved"]),
         "ResolutionExplorer": ("resolution", ["context", "partial", "reading"]),
         "ParseExplorer": ("parse", ["text", "grammar", "rfc"])}
_EXPLORER_CALL = re.compile(r"^(\w+Explorer)\((.*)\)\s*$")
_n = [0]


def explorer_expr(src: str):
    "The explorer a cell shows (its last line, e.g. `EncodingExplorer()`), or None"
    lines = [l for l in src.strip().splitlines() if l.strip() and not l.lstrip().startswith("#")]
    if not lines: return None
    m = _EXPLORER_CALL.match(lines[-1].strip())
    return m.group(0).strip() if m and m.group(1) in KINDS else None


def _options(w):
    return [(str(l), v) for l, v in zip(w._options_labels, w._options_values)]


def explorer_html(expr: str) -> str:
    "The live explorer for `expr`: the widget's own controls (labels, options, values) as HTML form controls"
    import ipywidgets as W, uri1630.widgets as UW
    w = eval(expr, dict(vars(UW)))   # the very widget the notebook shows, built with ipywidgets at build time
    kind, args = KINDS[type(w).__name__]
    _n[0] += 1; uid = f"u1630-x{_n[0]}"
    e = html.escape
    parts = []
    if getattr(w, "presets", None):
        from uri1630.widgets.resolution import RESOLUTION_PRESETS
        btns = "".join(f'<button type="button" class="u1630-preset" disabled title="{e(b.tooltip)}" '
                       f"data-sets='{e(json.dumps({'context': c, 'partial': p}))}'>{e(label)}</button>"
                       for b, (label, c, p) in zip(w.presets, RESOLUTION_PRESETS))
        parts.append(f'<div class="u1630-presets"><span>RFC 1630\'s examples:</span> {btns}</div>')
    if getattr(w, "example", None) is not None:
        x = w.example
        opts = "".join(f'<option value="{e(v)}"{" selected" if v == x.value else ""}>{e(l)}</option>' for l, v in _options(x))
        parts.append(f'<div class="u1630-field"><label for="{uid}-example">{e(x.description)}</label>'
                     f'<select id="{uid}-example" class="u1630-pick" disabled>{opts}</select></div>')
    for a in args:
        x = getattr(w, a)
        if isinstance(x, W.Text):
            parts.append(f'<div class="u1630-field u1630-wide"><label for="{uid}-{a}">{e(x.description)}</label>'
                         f'<input id="{uid}-{a}" type="text" data-arg="{a}" value="{e(x.value)}" spellcheck="false" '
                         f'autocomplete="off" disabled></div>')
        elif isinstance(x, W.ToggleButtons):
            radios = "".join(f'<label><input type="radio" name="{uid}-{a}" value="{e(v)}"{" checked" if v == x.value else ""} disabled>'
                             f'<span>{e(l)}</span></label>' for l, v in _options(x))
            parts.append(f'<fieldset class="u1630-toggle" data-arg="{a}"><legend>{e(x.description)}</legend>{radios}</fieldset>')
        elif isinstance(x, W.Dropdown):
            opts = "".join(f'<option value="{e(v)}"{" selected" if v == x.value else ""}>{e(l)}</option>' for l, v in _options(x))
            parts.append(f'<div class="u1630-field"><label for="{uid}-{a}">{e(x.description)}</label>'
                         f'<select id="{uid}-{a}" data-arg="{a}" disabled>{opts}</select></div>')
        else: raise TypeError(f"{expr}: control {a} is a {type(x).__name__}")
    spec = {"kind": kind, "args": args, "pick_target": "text"}
    # the one status line, above the controls it speaks of (a live region: "Loading…" while they are disabled)
    return (f"<div class=\"u1630-explorer\" data-spec='{e(json.dumps(spec))}'>"
            f'<p class="u1630-live-status" role="status" data-state="static">A snapshot computed when the site was '
            f'built; with JavaScript on, the controls come alive (Python runs in your browser).</p>'
            f'<form class="u1630-form" onsubmit="return false">{"".join(parts)}</form>'
            f'<div class="u1630-explorer-out">{w.out.value}</div></div>')


# ------------------------------------------------------------------ cells that stay static
def _code_only(src: str) -> str:
    "The cell's source without its comments (a comment naming 127.0.0.1 does not make a cell need the network)"
    import io, tokenize
    try:
        toks = [t for t in tokenize.generate_tokens(io.StringIO(src).readline) if t.type != tokenize.COMMENT]
        return tokenize.untokenize(toks)
    except (tokenize.TokenError, IndentationError, SyntaxError): return src


# ------------------------------------------------------------------ JupyterLite ("Open as a notebook")
# The kernel (jupyterlite-pyodide-kernel) loads micropip, IPython and jedi with `loadPackage` from the
# runtime's own folder, checked against pyodide-lock.json. Pyodide's copies of these pure-Python wheels
# are not in the npm package; the same versions from PyPI are, with other hashes: the site gets its own
# lock (lite-lock.json: the npm lock with those entries pointing at the PyPI wheels and their sha256).
LOCK_PACKAGES = ("micropip", "packaging", "ipython", "jedi")          # and what they depend on in the lock


def _norm(name): return re.sub(r"[-_.]+", "-", name).lower()


def _lock_closure(lock):
    "The lock's keys for LOCK_PACKAGES and everything they depend on (names normalised: prompt_toolkit = prompt-toolkit)"
    keys = {_norm(k): k for k in lock["packages"]}
    need, todo = set(), list(LOCK_PACKAGES)
    while todo:
        k = keys.get(_norm(todo.pop()))
        if k and k not in need: need.add(k); todo += lock["packages"][k]["depends"]
    return sorted(need)


def _download(specs, dest: Path):
    "Pure-Python wheels from PyPI, for Python 3.14 (Pyodide's), cached"
    missing = [s for s in specs if not list(dest.glob(s.split("==")[0].replace("-", "_") + "-" + s.split("==")[1] + "-*.whl"))
               and not list(dest.glob(s.split("==")[0] + "-" + s.split("==")[1] + "-*.whl"))]
    if not missing: return
    r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
                        "--only-binary=:all:", "--python-version", "3.14", "-d", str(dest), *missing], capture_output=True, text=True)
    if r.returncode: sys.exit(f"pip download for JupyterLite failed:\n{r.stderr[-1500:]}")


def _find(dest, name, version):
    for f in dest.glob("*.whl"):
        n, v = f.name.split("-")[:2]
        if n.lower().replace("_", "-") == name.lower().replace("_", "-") and v == version: return f
    sys.exit(f"JupyterLite: no wheel for {name}=={version} in {dest}")


def lite(out: Path, stage: Path, contents: list) -> float:
    "Build JupyterLite into out/lite (notebooks `contents`: (name, notebook dict)); returns its size in MB"
    import importlib.metadata as md, hashlib
    static = out / "_static"
    runtime = cache_dir() / PYODIDE.replace("@", "-")
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    wheels = cache_dir() / "lite-wheels"; wheels.mkdir(parents=True, exist_ok=True)
    names = _lock_closure(lock)
    _download([f"{lock['packages'][n]['name']}=={lock['packages'][n]['version']}" for n in names], wheels)
    ver = {"comm": md.version("comm"), "ipywidgets": md.version("ipywidgets"), "jupyterlab_widgets": md.version("jupyterlab_widgets"),
           "fastcore": md.version("fastcore")}
    _download([f"{k}=={v}" for k, v in ver.items()], wheels)
    for n in names:   # the lock entries the kernel loads, pointing at the PyPI wheels shipped beside the runtime
        e = lock["packages"][n]; f = _find(wheels, e["name"], e["version"])
        shutil.copy2(f, static / "pyodide" / f.name)
        e["file_name"], e["sha256"] = f.name, hashlib.sha256(f.read_bytes()).hexdigest()
    (static / "pyodide" / "lite-lock.json").write_text(json.dumps(lock))
    if stage.exists(): shutil.rmtree(stage)
    (stage / "pypi").mkdir(parents=True); (stage / "contents").mkdir()
    for k, v in ver.items(): shutil.copy2(_find(wheels, k, v), stage / "pypi")
    for f in (static / "live").glob("uri1630-*.whl"): shutil.copy2(f, stage / "pypi")
    for name, nb in contents: (stage / "contents" / name).write_text(json.dumps(nb, indent=1))
    exts = [Path(sys.prefix) / "share/jupyter/labextensions" / e for e in ("@jupyter-widgets/jupyterlab-manager", "@jupyterlite/pyodide-kernel-extension")]
    dest = out / "lite"
    if dest.exists(): shutil.rmtree(dest)
    cmd = [str(Path(sys.executable).with_name("jupyter")), "lite", "build", "--lite-dir", str(stage), "--output-dir", str(dest),
           "--contents", str(stage / "contents"), "--ignore-sys-prefix", "--no-libarchive"]
    cmd += [f"--LiteBuildConfig.federated_extensions={e}" for e in exts]
    r = subprocess.run(cmd, cwd=stage, capture_output=True, text=True)
    if r.returncode: sys.exit(f"jupyter lite build failed:\n{(r.stdout + r.stderr)[-3000:]}")
    cfg_path = dest / "jupyter-lite.json"; cfg = json.loads(cfg_path.read_text())
    d = cfg["jupyter-config-data"]; d["exposeAppInBrowser"] = True
    k = d.setdefault("litePluginSettings", {}).setdefault("@jupyterlite/pyodide-kernel-extension:kernel", {})
    k.update({"pyodideUrl": "../../_static/pyodide/pyodide.mjs",   # resolved from lite/lab/: the site's own runtime
              "disablePyPIFallback": True,                         # piplite: the site's index only, never PyPI
              "loadPyodideOptions": {"lockFileURL": "../_static/pyodide/lite-lock.json"}})   # resolved from lite/
    cfg_path.write_text(json.dumps(cfg, indent=1))
    return sum(p.stat().st_size for p in dest.rglob("*") if p.is_file()) / 1e6


LITE_SETUP = r"""# In the browser (JupyterLite): uri1630 (the wheel built with this site), ipywidgets and fastcore from the
# site's own package index; nbdev's show_doc as a signature and docstring
# (nbdev does not run in a browser); a cell marked %%browser_skip needs what a page cannot do (sockets, processes,
# the repository's files): in the browser it says so in one line instead of running, anywhere else it runs.
%pip install -q uri1630 ipywidgets fastcore
import inspect as _inspect, sys as _sys, types as _types
from IPython.core.magic import register_cell_magic as _cell_magic
from IPython.display import Markdown as _Markdown


def _show_doc(sym, *args, **kwargs):
    "nbdev's show_doc, reduced to the signature and the docstring"
    try:
        sig = str(_inspect.signature(sym))
    except (TypeError, ValueError):
        sig = ""
    name = getattr(sym, "__qualname__", getattr(sym, "__name__", repr(sym)))
    return _Markdown(f"`{name}{sig}`\n\n{_inspect.getdoc(sym) or ''}")


_sys.modules.setdefault("nbdev", _types.ModuleType("nbdev"))
_sys.modules["nbdev.showdoc"] = _types.ModuleType("nbdev.showdoc")
_sys.modules["nbdev.showdoc"].show_doc = _show_doc


@_cell_magic
def browser_skip(line, cell):
    "Skip this cell in a browser, with a note saying why (`line`); run it anywhere else"
    if _sys.platform == "emscripten":
        print(f"skipped in the browser: {line}")
    else:
        get_ipython().run_cell(cell)"""
# hypothesis's wheels for Python 3.14 are compiled for Linux, not Pyodide: in the browser a property test says so
LITE_HYPOTHESIS = r"""


class _Strategies(_types.ModuleType):
    "hypothesis.strategies, in the browser: any strategy builds (and is never drawn from)"

    def __getattr__(self, name):
        return lambda *a, **k: self


def _given(*a, **k):
    def skip(f):
        def run(*args, **kwargs):
            print(f"skipped in the browser: the property test {f.__name__} (hypothesis does not run in Pyodide)")
        return run
    return skip


if _sys.platform == "emscripten" and "hypothesis" not in _sys.modules:
    _h = _types.ModuleType("hypothesis")
    _h.strategies = _sys.modules["hypothesis.strategies"] = _Strategies("hypothesis.strategies")
    _h.given, _h.assume, _h.note, _h.event = _given, lambda c: True, print, lambda *a: None
    _h.settings = type("settings", (), {"__init__": lambda s, *a, **k: None, "__call__": lambda s, f: f,
                                        "register_profile": staticmethod(lambda *a, **k: None),
                                        "load_profile": staticmethod(lambda *a: None)})
    _h.example = lambda *a, **k: (lambda f: f)
    _h.HealthCheck = _Strategies("HealthCheck")
    _sys.modules["hypothesis"] = _h"""
# the page's runner stands in for hypothesis as JupyterLite's kernel does: a property test says it is skipped
_IN_PAGE_HYPOTHESIS = "\nimport sys as _sys, types as _types\n" + LITE_HYPOTHESIS + "\n"
LITE_SKIP = {   # browser_plan's kinds (and the build's skip flags): what the cell needs that a browser lacks
    "network": "needs sockets (servers, the network)", "subprocess": "starts a process",
    "dask": "needs dask (not in the browser)", "timing": "timings and plots (measured by the build)",
    "files": "reads the repository's files", "": "needs what a browser lacks", "skip": "not run by the notebook's tests",
    "above": "uses what a cell skipped above defines", "widgets": "shows ipywidgets",
    "calls": "calls a function above that needs what a browser lacks (a process, the network, files)",
    "threads": "starts threads (a browser's Python has none)",
}


LITE_RULES = [   # (kind, pattern on the cell's code, comments left out): what a browser's Python cannot do; the
    # notebook check (docs/browser_check.py) runs every other cell in JupyterLite, so a rule that misses fails there
    ("network", r"\b(?:Misbehaving|Recorder|BlackHoles|StubResolver)\(|\bS\.\w+\(|\bsocket\.(?:socket|create_\w+)\(|"
                r"\bretrieve\w*\(|urlopen|http\.server|ftplib|smtplib|nntplib|\b_(?:Conn|Socket|Wire|open|connect)\("),
    ("subprocess", r"\bsubprocess\b|sys\.executable|Popen|\bmain\(\[|^\s*!|^\s*%(?!%browser_skip)"),
    ("threads", r"\bthreading\.Thread\(|\bThread\(|ThreadPoolExecutor|ProcessPoolExecutor|start_new_thread"),
    ("dask", r"\bdask\b|\bdistributed\b|\bClient\("),
    ("timing", r"timeit|perf_counter|matplotlib|plt\.|\bbench\b|\bbench\."),
    ("files", r"['\"/]\.\./(?:tests|docs|shared|nbs)\b|\"\.\./(?:tests|docs|shared)|Path\.cwd\(\)|\bROOT\b"),
]


def _defines_only(src: str) -> bool:
    "Does the cell only define (functions, classes, imports, assignments)?"
    import ast
    try: body = ast.parse(src).body
    except SyntaxError: return False
    return all(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Assign,
                              ast.AnnAssign)) for n in body)


PAGE_RULES = [   # what the page's runner lacks beyond a browser's Python: ipywidgets (the explorers run as live forms),
    # and the notebooks beside this one (JupyterLite has them as its contents)
    ("widgets", r"Explorer\(|ipywidgets|\bW\.\w+\(|\binteract\("),
    ("files", r"\bPath\(\s*['\"]\.{1,2}/?['\"]\s*\)"),
]


def lite_skip(src: str, tags=(), whole=False, page=False):
    """Why a notebook cell is skipped in JupyterLite (a LITE_SKIP key), or None: it runs there (`whole`: its functions
    too; `page`: in the page's own runner, which has no ipywidgets)"""
    if _directives_of(src) & {"#|eval:false", "#|notest", "#|slow"}: return "skip"
    if "static" in tags: return ""
    code = _code_only(src) if whole else _run_now(src)
    rules = LITE_RULES + PAGE_RULES if page else LITE_RULES
    return next((why for why, pat in rules if re.search(pat, code, re.M)), None)


def browser_plan(cells, page=False) -> list:
    """Why each code cell (`cells`: [(source, tags)], in the notebook's order) cannot run in a browser, or None: it
    runs. One decision for JupyterLite (`page=False`) and the page's Run cells (`page=True`): a cell that reads what a
    skipped cell defines is skipped ("above"), and so is one that calls a function whose body needs what is missing"""
    plan, skipped, tainted = [], set(), {}   # the names only skipped cells define; functions that need them
    for src, tags in cells:
        why = lite_skip(src, tags, page=page)
        names = _names(src)
        now = _names(_run_now(src)) if why is None and names and _defines_only(src) else None
        if now and now[1] & (skipped | set(tainted)):   # what it runs now (a table, a default) reads what is missing
            why = "above" if now[1] & skipped else "calls"
        elif why is None and names and _defines_only(src):
            # it runs (it only defines); a function whose body needs what a browser lacks, or calls one that
            # does, taints its name: a cell that calls it is skipped
            if names[1] & (skipped | set(tainted)) or lite_skip(src, (), whole=True, page=page):
                import ast   # the functions and classes it defines (not a table that names them)
                for n in ast.parse(src).body:
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): tainted[n.name] = "above"
            else:
                for n in names[0]: tainted.pop(n, None)
        elif why is None and names and names[1] & (skipped | set(tainted)):   # reads what a skipped cell defines
            why = "above" if names[1] & skipped else "calls"   # or calls a function that needs what is missing
        if names and why is not None: skipped |= names[0]
        elif names: skipped -= names[0]
        plan.append(why)
    return plan


def _lite_source(src):
    "A code cell's source for a browser: nbdev's export lines out; None when nothing (but directives) is left"
    if "nbdev_export()" in src: return None
    src = "\n".join(l for l in src.splitlines() if not re.search(r"^\s*import nbdev\b|\bnbdev_export\(", l))
    if not src.strip() or all(l.lstrip().startswith("#|") for l in src.splitlines() if l.strip()): return None
    return src


def _run_now(src: str) -> str:
    """The code a cell runs when it runs, comments left out; in a cell that only defines (functions, classes, imports,
    assignments), not its functions' bodies: they run when a later cell calls them"""
    import ast
    try: tree = ast.parse(src)
    except SyntaxError: return _code_only(src)
    defining = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)
    if all(isinstance(n, defining) for n in tree.body):
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)): n.body = [ast.Pass()]
    return ast.unparse(tree)


def _directives_of(src):
    return {l.replace(" ", "") for l in src.splitlines() if l.lstrip().startswith("#|")}


def _names(src):
    """(the names a cell binds at its top level, the names it reads that it does not bind itself), from its code
    (IPython's % and ! lines left out); None if it does not parse"""
    import ast
    try: tree = ast.parse("\n".join(l for l in src.splitlines() if not l.lstrip().startswith(("%", "!"))))
    except SyntaxError: return None
    top, bound, uses = set(), set(), set()
    def bind(n, into):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)): into.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): into.add(n.name)
        elif isinstance(n, ast.alias): into.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.arg): into.add(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name: into.add(n.name)
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
              ast.GeneratorExp)
    todo, inner, top_uses = list(tree.body), set(), set()
    while todo:   # the top level: not into functions, classes, lambdas or comprehensions
        n = todo.pop(); bind(n, top)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load): top_uses.add(n.id)
        if not isinstance(n, scopes): todo += list(ast.iter_child_nodes(n))
    for n in ast.walk(tree):
        bind(n, bound)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load): uses.add(n.id)
    # what the top level reads that an earlier statement of the cell did not bind, and what the functions read that
    # the cell binds nowhere (their parameters and locals are theirs)
    return top, (top_uses - top) | (uses - bound)


def beside_code(beside: dict, code: str) -> str:
    """Python that writes the data files of nbs/ (`beside`: {file name: text}) that `code` names into the browser's
    file system, where it lacks them (the page's runner and JupyterLite without a service worker)"""
    return "".join(f"\n\nfrom pathlib import Path as _Path\nif not _Path({name!r}).exists():   # the data beside it in nbs/\n"
                   f"    _Path({name!r}).write_text({text!r}, encoding='utf-8')"
                   for name, text in sorted(beside.items()) if name in code)


def binds(src: str) -> bool:
    "Does the cell bind a name at its top level (what a later cell may read)?"
    return bool((_names(src) or [()])[0])


_LOCAL_IMAGE = re.compile(r"!\[([^\]]*)\]\(((?!https?:|data:|attachment:)[^)\s]+\.(?:png|jpe?g|gif|svg))\)")


def with_attachments(nb: dict, root: Path) -> dict:
    """`nb` with each image its markdown names by a path of the repository (`docs/screenshots/x.png`, as the README
    reads it) carried in the cell as an attachment: a notebook opened anywhere (JupyterLite, a download) shows it"""
    import mimetypes
    for c in nb["cells"]:
        if c["cell_type"] != "markdown": continue
        src = "".join(c["source"])
        def attach(m):
            f = next((d / m[2] for d in (root, root / "nbs") if (d / m[2]).is_file()), None)
            if f is None: return m[0]
            mime = mimetypes.guess_type(f.name)[0] or "image/png"
            c.setdefault("attachments", {})[f.name] = {mime: base64.b64encode(f.read_bytes()).decode()}
            return f"![{m[1]}](attachment:{f.name})"
        new = _LOCAL_IMAGE.sub(attach, src)
        if new != src: c["source"] = new
    return nb


def lite_notebook(nb: dict, beside: dict | None = None) -> dict:
    """A notebook for JupyterLite: nbdev's export lines out, the Pyodide kernel, a first cell installing uri1630 from
    the site (and nbdev's show_doc, reduced); a cell that cannot run in a browser is marked `%%browser_skip why`;
    `beside` ({file name: text}): the data files of nbs/ it reads beside itself, written there by the first cell when
    the browser's file system lacks them (as it does without a service worker)"""
    nb = with_attachments(json.loads(json.dumps(nb)), Path(__file__).resolve().parent.parent)
    cells = []
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            src = _lite_source("".join(c["source"]))
            if src is None: continue
            c["source"], c["outputs"], c["execution_count"] = src, [], None
        cells.append(c)
    code = [c for c in cells if c["cell_type"] == "code"]
    for c, why in zip(code, browser_plan([(c["source"], c.get("metadata", {}).get("tags", [])) for c in code])):
        if why is not None: c["source"] = f"%%browser_skip {LITE_SKIP[why]}\n{c['source']}"
    setup_src = LITE_SETUP
    if any(re.search(r"^\s*(from|import)\s+hypothesis\b", c["source"], re.M) for c in cells if c["cell_type"] == "code"):
        setup_src += LITE_HYPOTHESIS
    setup_src += beside_code(beside or {}, "\n".join(c["source"] for c in cells if c["cell_type"] == "code"))
    setup = {"cell_type": "code", "id": "u1630-lite-setup", "metadata": {"jupyter": {"source_hidden": True}},
             "outputs": [], "execution_count": None, "source": setup_src}
    nb["cells"] = [setup] + cells
    nb["metadata"]["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
    nb["metadata"].pop("widgets", None)
    return nb
