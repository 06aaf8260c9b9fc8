"""Build the read-along docs site from nbs/ into _site/, offline, without Quarto.

    python docs/build.py [--out _site] [--no-exec | --reuse]

1. copy nbs/*.ipynb and settings.ini into docs/_build/ (nothing is ever written back into nbs/);
2. execute every copy with a real kernel (nbclient), so the pages show outputs and widget state;
3. run nbdev's own processors (`nbdev.serve.proc_nbs`, n_workers=0) to add the `show_doc` cells and
   strip hidden cells and directives, as nbdev's Quarto pipeline would;
4. fix up what only Quarto understands (YAML front matter, `#|` lines, `{target=...}` link attributes),
   and add the navigation (docs/nav.py: the parts, in reading order) to the front page, as captioned
   tables of contents; an explorer page opens with its live explorer;
5. render with Sphinx + myst-nb (theme furo), with the widget JavaScript served from the site itself
   (docs/vendor.py fetches it from the npm registry once; no CDN is referenced).
"""
import json, os, re, shutil, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS))
import live  # noqa: E402  (docs/live.py)
import nav  # noqa: E402  (docs/nav.py: the navigation, declared once)
LITE = {}
WORK = DOCS / "_build"
SKIP_FLAGS = ("#|notest", "#|slow", "#|eval:false")


def log(*a): print("[docs]", *a, flush=True)


def copy_sources():
    "A scratch nbdev project in docs/_build: settings.ini and a copy of the notebooks"
    if WORK.exists(): shutil.rmtree(WORK)
    (WORK / "nbs").mkdir(parents=True)
    shutil.copy2(ROOT / "settings.ini", WORK / "settings.ini")
    with open(WORK / "settings.ini", "a") as f: f.write("renderer = u1630_showdoc.Renderer\n")   # docs/u1630_showdoc.py
    shutil.copy2(DOCS / "u1630_showdoc.py", WORK / "nbs" / "u1630_showdoc.py")
    nbs = sorted(p for p in (ROOT / "nbs").glob("*.ipynb") if not p.name.startswith(("_", ".")))
    for p in nbs:
        nb = json.loads(p.read_text())
        for c in nb["cells"]:   # nbdev's processors strip directives from sources: keep them in metadata
            if c["cell_type"] == "code":
                c.setdefault("metadata", {})["u1630_directives"] = sorted(_directives("".join(c["source"])))
        (WORK / "nbs" / p.name).write_text(json.dumps(nb, indent=1))
    for p in (ROOT / "nbs").glob("*.json"):   # data a notebook reads beside itself (33_clients.json: the clients' run)
        shutil.copy2(p, WORK / "nbs" / p.name)
    (WORK / "docs").mkdir(); shutil.copy2(DOCS / "nav.py", WORK / "docs" / "nav.py")   # the front page's map reads it
    if (ROOT / "tests").is_dir():   # notebooks may reach fixtures by relative path (../tests/...)
        shutil.copytree(ROOT / "tests", WORK / "tests", ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
    return [WORK / "nbs" / p.name for p in nbs]


def _directives(src):
    return {l.replace(" ", "") for l in src.splitlines() if l.lstrip().startswith("#|")}


def add_show_docs():
    "nbdev's `add_show_docs` processor only: a `show_doc` cell after each exported definition, executed with the rest"
    code = ("from pathlib import Path\n"
            "from execnb.nbio import read_nb, write_nb, mk_cell\n"
            "from nbdev.process import NBProcessor\n"
            "from nbdev.processors import add_show_docs\n"
            "for p in sorted(Path('nbs').glob('*.ipynb')):\n"
            "    nb = read_nb(p); NBProcessor(nb=nb, procs=[add_show_docs]).process()\n"
            "    nb.cells.insert(0, mk_cell('#| hide\\nfrom nbdev.showdoc import show_doc'))\n"
            "    write_nb(nb, p)\n")
    subprocess.run([sys.executable, "-c", code], cwd=WORK, check=True)


def _exec_one(p, timeout=300):
    "Execute one notebook copy in place with a python3 kernel (widget state kept); returns (name, seconds, errors)"
    import nbformat
    from nbclient import NotebookClient
    t0 = time.time()
    raw = json.loads(p.read_text())
    for c in raw["cells"]: c.pop("has_sd", None)   # nbdev's add_show_docs marker: not nbformat, so not kept
    nb = nbformat.reads(json.dumps(raw), as_version=4)
    for i, c in enumerate(nb.cells):   # cells the show_doc pass inserted have no id yet
        if not c.get("id"): c["id"] = f"u1630-{i}"
    for c in nb.cells:
        d = set(c.metadata.get("u1630_directives", [])) | _directives(c.source)
        if c.cell_type == "code" and ("nbdev_export()" in c.source or d & set(SKIP_FLAGS)):
            c.metadata.setdefault("tags", []).append("skip-execution")
    import tempfile
    with tempfile.TemporaryFile() as err:   # the kernel's own log (ipykernel's TCP notice) is noise unless a cell fails
        saved = os.dup(2); os.dup2(err.fileno(), 2)
        try:
            NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True, store_widget_state=True,
                           resources={"metadata": {"path": str(p.parent)}}).execute()
        finally:
            os.dup2(saved, 2); os.close(saved)
        err.seek(0); kernel_log = err.read().decode(errors="replace")
    for c in nb.cells:   # the tag was only for this run
        tags = c.metadata.get("tags", [])
        if "skip-execution" in tags: tags.remove("skip-execution")
        if not tags: c.metadata.pop("tags", None)
    nbformat.write(nb, p)
    errs = [o.get("ename") for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    if errs:
        errs.append("kernel log: " + "\n".join(l for l in kernel_log.splitlines() if "without encryption" not in l)[-1500:])
        errs += ["".join(o.get("traceback", []))[-1500:] for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"][:2]
    return p.name, time.time() - t0, errs


def execute(paths, workers=2):
    "Execute the notebook copies, `workers` kernels at a time; returns the names of notebooks whose cells raised"
    from concurrent.futures import ProcessPoolExecutor
    failed = []
    with ProcessPoolExecutor(workers) as ex:
        for name, dt, errs in ex.map(_exec_one, sorted(paths, key=lambda p: -p.stat().st_size)):
            if errs: log(f"ERROR: {name}: {len(errs)} cell(s) raised {errs}"); failed.append(name)
    return failed


def process():
    "The rest of nbdev's processors (hidden cells, directives, front matter), in a subprocess as nbdev.serve requires"
    ini = WORK / "settings.ini"
    ini.write_text(re.sub(r"(?m)^skip_procs\s*=.*$", "skip_procs = add_show_docs,exec_show_docs", ini.read_text()))
    code = "from nbdev.serve import proc_nbs; proc_nbs('nbs', n_workers=0, force=True)"
    subprocess.run([sys.executable, "-c", code], cwd=WORK, check=True)
    return WORK / "_proc"


_TARGET = re.compile(r'\{target="[^}]*\}')
_PREFIX = re.compile(r"^\d+[a-zA-Z0-9]*_")   # nbdev's page names drop the number: 06_encoding -> encoding
_SOURCE = re.compile(r'^\[source\]\(([^)]*)\)\{[^}]*\}\s*', re.M)
_SIG = re.compile(r"^(```python\n.*?\n```)", re.M | re.S)


def page_name(stem): return stem if stem == "index" else _PREFIX.sub("", stem)


_NBLINK = re.compile(r"\]\((?:\.\./)?nbs/([^)/#]+)\.ipynb(#[^)]*)?\)")
_DOCLINK = re.compile(r"\[(`[^`\]]+`)\]\(([\w.-]+\.html)#([^)\s]+)\)")
DOC_IDS = {}   # page -> the anchors its show_doc entries carry


def _doclinks(t):
    "nbdev's doc links (`[`name`](page.html#name)`) to a name the page does not document (private helpers) become plain code"
    return _DOCLINK.sub(lambda m: m.group(0) if m.group(3) in DOC_IDS.get(m.group(2), ()) else m.group(1), t)


def _nblinks(t): return _doclinks(_NBLINK.sub(lambda m: f"]({page_name(m.group(1))}.html{m.group(2) or ''})", t))


def _show_doc_md(t, doc_host):
    "A markdown output as MyST: doc links local (show_doc's own are rendered by docs/u1630_showdoc.py)"
    # a class the notebook itself defines is `__main__.Level` to show_doc: the reader knows it as `Level`
    t = re.sub(r"\b__main__\.", "", t)
    if 'class="u1630-symbol"' in t: return _TARGET.sub("", t.replace(doc_host, ""))
    t = re.sub(r"^\s*---\s*\n", "", t)
    t = _SOURCE.sub(lambda m: f'<a class="u1630-source" href="{m.group(1)}">source</a>\n\n', t)
    t = _SIG.sub(lambda m: f'<div class="signature">\n\n{m.group(1)}\n\n</div>', t, count=1)
    return _TARGET.sub("", t.replace(doc_host, ""))
_FENCE = re.compile(r"^---\n(.*?)\n---\s*$", re.S)


def _front_matter(src):
    "title and description from a Quarto YAML front-matter raw cell"
    import yaml
    m = _FENCE.match(src.strip())
    d = yaml.safe_load(m.group(1)) if m else None
    return d if isinstance(d, dict) else None


def fixup(proc, parts):
    "Make the processed notebooks plain Jupyter + MyST: title cell from front matter, no directives, no Quarto link attributes"
    import html
    doc_host = _doc_host()
    for p in proc.glob("*.ipynb"):   # the anchors show_doc gives each page
        ids = DOC_IDS.setdefault(page_name(p.stem) + ".html", set())
        for c in json.loads(p.read_text())["cells"]:
            for o in c.get("outputs", []):
                t = o.get("data", {}).get("text/markdown", "")
                ids.update(re.findall(r'class="u1630-symbol" id="([^"]+)"', "".join(t)))
    rfc_pages = {n for _, names in parts[:2] for n in names}   # RFC 1630's part and RFC 1738's
    for p in proc.glob("*.ipynb"):
        nb = json.loads(p.read_text())
        nb["metadata"].pop("widgets", None)   # widget views became live explorers: no widget JavaScript on the site
        cells, runnable, lead = [], False, []
        plan = _page_plan(nb["cells"])
        for c in nb["cells"]:
            src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            if c["cell_type"] == "raw":
                fm = _front_matter(src)
                if fm is not None and "title" in fm:
                    md = f"# {fm['title']}\n"
                    if fm.get("description"):
                        md += f'\n<p class="u1630-subtitle">{_inline_code(fm["description"])}</p>\n'
                    cells.append({"cell_type": "markdown", "id": "u1630-title", "metadata": {}, "source": md})
                    cells.append(_files_line(p.stem))
                    cells.append(_live_banner(p.stem, runnable=False))
                continue
            if c["cell_type"] == "code":
                d = _directives(src) | set(c.get("metadata", {}).pop("u1630_directives", []))
                if "nbdev_export()" in src: continue
                if d & {"#|hide", "#|include:false"}:   # not shown; what it defines, the page defines before what follows
                    if plan.get(id(c), "") is None and live.binds(src): cells.append(_hidden_cell(c, len(cells)))
                    continue
                tags = c.setdefault("metadata", {}).setdefault("tags", [])
                if "#|echo:false" in d: tags.append("remove-input")
                if "#|output:false" in d: tags.append("remove-output")
                src = "\n".join(l for l in src.splitlines() if not l.lstrip().startswith("#|")).strip("\n")
                expr = live.explorer_expr(src)
                if expr and any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in c.get("outputs", [])):
                    c["outputs"] = [{"output_type": "display_data", "metadata": {},
                                     "data": {"text/html": live.explorer_html(expr)}}]
                    if p.stem.endswith("_explorer") and not lead:   # an explorer page opens with its explorer
                        tags.append("remove-input"); lead.append(c); c["source"] = src; continue
                if d & set(SKIP_FLAGS): tags.append("static")   # not run by the build (slow, notest, eval: false)
                why = plan.get(id(c), "")
                if "remove-input" not in tags and src:   # live.browser_plan decides, as it does for JupyterLite
                    tags.append("u1630-run" if why is None else f"u1630-static-{why}".rstrip("-"))
                    runnable |= why is None
                elif why is None and live.binds(src):   # its output shown, what it defines run unseen
                    cells.append(_hidden_cell(c, len(cells)))
                for o in c.get("outputs", []):
                    data = o.get("data", {})
                    if "text/markdown" in data:
                        t = data["text/markdown"]; t = "".join(t) if isinstance(t, list) else t
                        data["text/markdown"] = _nblinks(_show_doc_md(t, doc_host))
                if not src and not c.get("outputs"): continue
            else:
                src = _nblinks(_TARGET.sub("", src.replace(doc_host, "")))
            c["source"] = src
            cells.append(c)
        if p.stem in rfc_pages: cells = _rfc_text_first(cells)
        if lead:   # after the title and the banner: the explorer, then the code that builds it
            at = next((i + 1 for i, c in enumerate(cells) if c.get("id") == "u1630-banner"), 0)
            cells[at:at] = lead
        if p.stem == nav.FRONT:
            if (DOCS / "screenshots").is_dir():   # index.ipynb shows them as docs/screenshots/*.png (so does README.md)
                shutil.copytree(DOCS / "screenshots", proc / "docs" / "screenshots", dirs_exist_ok=True)
            for k, (caption, names) in enumerate(parts):   # docs/nav.py: one captioned table of contents a part
                toc = "\n".join(page_name(n) for n in names)
                cells.append({"cell_type": "markdown", "id": f"u1630-toc-{k}", "metadata": {},
                              "source": f"```{{toctree}}\n:hidden:\n:maxdepth: 1\n:caption: {caption}\n\n{toc}\n```"})
        if runnable:
            for c in cells:
                if c.get("id") == "u1630-banner": c.update(_live_banner(p.stem, runnable=True))
            data = live.beside_code(_beside(), "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"))
            if data: cells.insert(0, _hidden_script(data.strip(), "data"))
        else: cells = [c for c in cells if not c.get("id", "").startswith("u1630-hidden")]
        nb["cells"] = cells
        p.unlink()
        (proc / (page_name(p.stem) + ".ipynb")).write_text(json.dumps(nb, indent=1))


def _imports_only(src):
    "Is the cell's code imports only (an `if TYPE_CHECKING:` block of imports included)?"
    import ast
    try: body = ast.parse(src).body
    except SyntaxError: return False
    def imp(n): return isinstance(n, (ast.Import, ast.ImportFrom)) or (
        isinstance(n, ast.If) and all(imp(m) for m in n.body + n.orelse))
    return bool(body) and all(imp(n) for n in body)


def _rfc_text_first(cells):
    """An RFC page opens with the RFC's text: code cells of imports only that come before its first quotation move
    down to just before the first code cell after it (the page's cells run in order, so nothing uses them earlier)"""
    quote = next((i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and re.search(r"^>", c["source"], re.M)), None)
    if quote is None: return cells
    code = [c for c in cells[:quote] if c["cell_type"] == "code"]
    moved = [c for c in cells[:quote] if (c["cell_type"] == "code" and _imports_only(c["source"]))
             or c.get("id", "").startswith("u1630-hidden")]   # the hidden cells move with them, in order
    if not moved or len([c for c in moved if c["cell_type"] == "code"]) < len(code): return cells   # left as is
    rest = [c for c in cells if not any(c is m for m in moved)]
    quote = next(i for i, c in enumerate(rest) if c["cell_type"] == "markdown" and re.search(r"^>", c["source"], re.M))
    at = next((i for i in range(quote + 1, len(rest)) if rest[i]["cell_type"] == "code"), quote + 1)
    return rest[:at] + moved + rest[at:]


def _inline_code(text):
    "Escaped text with `backticks` as <code>"
    import html
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))


def _live_banner(stem, runnable):
    "Under the title: how to run the page, and the link to the same notebook in JupyterLite"
    links = []
    if LITE.get("built"):
        links.append(f'<a class="u1630-open-nb" href="lite/notebooks/index.html?path={lite_name(stem)}">Open as a notebook</a>'
                     ' (Jupyter in your browser, with the ipywidgets explorers)')
    text = ("Code cells marked <b>Run</b> can be edited and run in your browser: Python (Pyodide) loads from this "
            "site on first use, and the cells above the one you run are run first, once." if runnable else "")
    src = (f'<div class="u1630-banner">{" ".join(links)}\n'   # a line break: search excerpts keep the sentences apart
           + (f'<p class="u1630-live-status" role="status" data-state="idle">{text}</p>' if text else "") + "</div>")
    return {"cell_type": "markdown", "id": "u1630-banner", "metadata": {}, "source": src if (links or text) else ""}


NOTEBOOKS, SOURCES = "_notebooks", "_src"   # in the site: each page's executed notebook, and the repository's copy


def _files_line(stem):
    "Under the title: the page's notebook to download (as executed for the page, outputs included), and its source"
    return {"cell_type": "markdown", "id": "u1630-files", "metadata": {}, "source":
            f'<p class="u1630-files"><a class="u1630-download" href="{NOTEBOOKS}/{stem}.ipynb" download="{stem}.ipynb">'
            f'Download the notebook</a> (.ipynb, with the outputs shown here) \u00b7 source: <a class="u1630-nbsource" '
            f'href="{SOURCES}/nbs/{stem}.ipynb"><code>nbs/{stem}.ipynb</code></a> (as in the repository)</p>\n'}


def ship_notebooks(out):
    """Into the site: every page's notebook as the build executed it (outputs kept; the build's own cell metadata
    and the show_doc import it added left in, so the notebook runs as is), and the repository's nbs/ unchanged"""
    (out / NOTEBOOKS).mkdir(exist_ok=True); (out / SOURCES / "nbs").mkdir(parents=True, exist_ok=True)
    for p in sorted((ROOT / "nbs").glob("*.ipynb")):
        if p.name.startswith(("_", ".")): continue
        shutil.copy2(p, out / SOURCES / "nbs" / p.name)
        ran = WORK / "nbs" / p.name
        nb = json.loads((ran if ran.exists() else p).read_text())
        for c in nb["cells"]: c.get("metadata", {}).pop("u1630_directives", None)
        nb = live.with_attachments(nb, ROOT)   # its images travel with it
        (out / NOTEBOOKS / p.name).write_text(json.dumps(nb, indent=1, ensure_ascii=False))


def _beside():
    "{name: text} of the data files in nbs/ (a notebook reads them beside itself: 33_clients.json, the clients' run)"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "nbs").glob("*.json"))}


def lite_name(stem):
    "The notebook's name in the site's JupyterLite: its own name in nbs/ (the link and the contents use this one function)"
    return f"{stem}.ipynb"


def _page_plan(nbcells):
    """{id(cell): why it stays static, or None: it runs} for the notebook's code cells, by `live.browser_plan` over all
    of them in order (hidden ones too), as JupyterLite decides, and ipywidgets static (the page runs explorers as forms)"""
    code = []
    for c in nbcells:
        if c["cell_type"] != "code": continue
        src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        src = "\n".join(c.get("metadata", {}).get("u1630_directives", []) + [src])
        lite = live._lite_source(src)
        if lite is not None: code.append((c, lite))
    plan = live.browser_plan([(src, c.get("metadata", {}).get("tags", [])) for c, src in code], page=True)
    return {id(c): why for (c, _), why in zip(code, plan)}


def _hidden_script(src, k):
    if re.search(r"</script", src, re.I): sys.exit(f"[docs] a hidden cell holds '</script': {src[:80]!r}")
    return {"cell_type": "markdown", "id": f"u1630-hidden-{k}", "metadata": {},
            "source": f'<script type="text/x-python" class="u1630-hidden">\n{src}\n</script>\n'}


def _hidden_cell(c, k):
    """A code cell the page does not show (`#|hide`, `#|echo: false`), as a script the page's runner runs in its place
    before the cells after it (nbdev's own lines out)"""
    src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
    src = live._lite_source(src) or ""
    return _hidden_script("\n".join(l for l in src.splitlines() if not l.lstrip().startswith("#|")), k)


def _doc_host():
    "settings.ini's doc_host + doc_baseurl: nbdev's doc links point there; on this site they are local pages"
    from configparser import ConfigParser
    c = ConfigParser(delimiters=["="]); c.read(ROOT / "settings.ini")
    return c["DEFAULT"].get("doc_host", "").rstrip("/") + "/" + c["DEFAULT"].get("doc_baseurl", "/").strip("/")


def sphinx(proc, out):
    "Render with Sphinx (config in docs/conf.py)"
    html = WORK / "html"   # myst-nb writes its jupyter_execute/ next to the output folder: keep both in docs/_build
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going", "-j", "2", "-c", str(DOCS), str(proc), str(html)]
    if subprocess.run(cmd).returncode: sys.exit("[docs] FAILED: Sphinx reported warnings or errors (above)")
    if out.exists(): shutil.rmtree(out)
    shutil.move(str(html), str(out))


def _no_such_repo():
    "settings.ini's git_url: the project has no public repository yet, so no page may link there"
    from configparser import ConfigParser
    c = ConfigParser(delimiters=["="]); c.read(ROOT / "settings.ini")
    return c["DEFAULT"].get("git_url", "").rstrip("/")
NO_SUCH_REPO = _no_such_repo()


_VERBATIM = re.compile(r"<(pre|code|script|style|textarea)\b.*?</\1>", re.S | re.I)   # where code is shown as written
_TWICE = re.compile(r"&amp;(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);")


def escaped_twice(page):
    "The places of a page's HTML, outside code, where an entity reference is escaped again (`&amp;lt;`: the reader sees `&lt;`)"
    text = _VERBATIM.sub("", page)
    return [text[max(0, m.start() - 60):m.end() + 20] for m in _TWICE.finditer(text)]


def check_escapes(site):
    "No page shows an entity reference as text outside code (#27: `&lt;host>` in an autolink); exits non-zero otherwise"
    bad = [(f.relative_to(site).as_posix(), x) for f in sorted(site.rglob("*.html"))
           if f.relative_to(site).parts[0] not in ("lite", "_static", "_sources")
           for x in escaped_twice(f.read_text(errors="replace"))]
    for page, x in bad[:20]: log("ESCAPED TWICE", f"{page}: {x!r}")
    if bad: sys.exit(f"[docs] FAILED: {len(bad)} entity references shown as text (escaped twice)")
    log("escapes: no entity reference shown as text")


def check_links(site):
    "Every internal link and anchor of the built site resolves (a page, and an id on it); exits non-zero otherwise"
    from html.parser import HTMLParser
    ids, links = {}, []
    class P(HTMLParser):
        def __init__(self, name): super().__init__(); self.name = name; ids[name] = set()
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if a.get("id"): ids[self.name].add(a["id"])
            if tag == "a" and a.get("name"): ids[self.name].add(a["name"])
            for k in ("href", "src"):
                if a.get(k): links.append((self.name, a[k]))
    for f in site.rglob("*.html"):
        if "lite" in f.relative_to(site).parts[:1]: continue
        P(f.relative_to(site).as_posix()).feed(f.read_text(errors="replace"))
    bad = []
    for page, href in links:
        if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I) or href.startswith("//"):
            if NO_SUCH_REPO and href.startswith(NO_SUCH_REPO): bad.append(f"{page}: link to a repository that does not exist: {href}")
            continue
        path, _, frag = href.partition("#")
        path = path.split("?")[0]
        target = (Path(page).parent / path).as_posix() if path else page
        target = os.path.normpath(target)
        if not (site / target).exists(): bad.append(f"{page}: {href} (no such file)"); continue
        if frag and target.endswith(".html") and target in ids and frag not in ids[target]:
            bad.append(f"{page}: {href} (no such anchor)")
    for b in sorted(set(bad))[:80]: log("BROKEN", b)
    if bad: sys.exit(f"[docs] FAILED: {len(set(bad))} broken internal links or anchors")
    log(f"links: {len(links)} checked, all resolve")


def main(argv):
    out = ROOT / (argv[argv.index("--out") + 1] if "--out" in argv else "_site")
    t0 = time.time()
    failed = []
    try: nav.parts(ROOT / "nbs")   # before minutes of execution: every notebook has its place in the navigation
    except ValueError as e: sys.exit(f"[docs] FAILED: the navigation (docs/nav.py) and nbs/ disagree: {e}")
    if "--lite-only" in argv:   # rebuild only out/lite (the "Open as a notebook" notebooks), for work on them
        t = time.time()
        mb = live.lite(out, WORK / "lite", [(lite_name(n), live.lite_notebook(json.loads((ROOT / "nbs" / f"{n}.ipynb").read_text()), _beside()))
                                             for n in nav.order(ROOT / "nbs")])
        return log(f"JupyterLite ({mb:.0f} MB) in {time.time() - t:.0f}s")
    if "--reuse" in argv:   # re-render the notebooks executed by the last build (for work on the rendering)
        paths = sorted((WORK / "nbs").glob("*.ipynb"))
    else:
        paths = copy_sources()
        t = time.time(); add_show_docs(); log(f"show_doc cells added in {time.time() - t:.0f}s")
        t = time.time(); failed = execute(paths) if "--no-exec" not in argv else []; log(f"executed in {time.time() - t:.0f}s")
    try: parts = nav.parts(ROOT / "nbs")
    except ValueError as e: sys.exit(f"[docs] FAILED: the navigation (docs/nav.py) and nbs/ disagree: {e}")
    order = nav.order(ROOT / "nbs")
    import importlib.util
    LITE["built"] = importlib.util.find_spec("jupyterlite_core") is not None and "--no-lite" not in argv
    t = time.time(); proc = process(); fixup(proc, parts); log(f"processed in {time.time() - t:.0f}s")
    local_rfc_links(proc); rfc_pages(proc)
    t = time.time(); sphinx(proc, out); log(f"rendered in {time.time() - t:.0f}s")
    anchors, backlinks = cite_passages(out); log(f"passages: {anchors} quotes anchored, {backlinks} back-links on the RFC pages")
    ship_notebooks(out)
    t = time.time(); m = live.assets(out / "_static"); log(f"live runtime: Pyodide {m['pyodide']}, uri1630 wheel, fastcore in {time.time() - t:.0f}s")
    if LITE["built"]:
        t = time.time()
        mb = live.lite(out, WORK / "lite", [(lite_name(n), live.lite_notebook(json.loads((ROOT / "nbs" / f"{n}.ipynb").read_text()), _beside()))
                                             for n in order])
        log(f"JupyterLite ({mb:.0f} MB) in {time.time() - t:.0f}s")
    check_links(out)
    check_escapes(out)
    log(f"site in {out.relative_to(ROOT)}/ ({len(paths)} pages) in {time.time() - t0:.0f}s")
    if failed: sys.exit(f"[docs] FAILED: cells raised in {', '.join(failed)} (a page would publish a traceback)")


# ---------------------------------------------------------------------------------------------------------
# The RFCs' own pages, and citations that land on their passage (issue 27): the site ships RFC 1630 and RFC 1738
# page by page (`rfc_pages`), every "Page N" of a citation links there (`local_rfc_links`), and once the site is
# rendered the text check's own matching of each quote to its RFC pages gives each blockquote its anchor and ¶
# link and each RFC page the list of the passages that quote it (`cite_passages`).
RFCS = {"1630": ("RFC 1630", "Universal Resource Identifiers in WWW", "T. Berners-Lee, June 1994"),
        "1738": ("RFC 1738", "Uniform Resource Locators (URL)", "T. Berners-Lee, L. Masinter, M. McCahill, December 1994")}
_RFC_EDITOR = re.compile(r"https://www\.rfc-editor\.org/rfc/rfc(1630|1738)(?:\.txt|\.html)?#page-(\d+)")


def rfc_link(rfc, page):
    "The site's own page of an RFC: `rfc1630.html#page-7`"
    return f"rfc{rfc}.html#page-{page}"


def _local(t): return _RFC_EDITOR.sub(lambda m: rfc_link(m.group(1), m.group(2)), t)


def local_rfc_links(proc):
    "A link to a page of RFC 1630 or 1738 at rfc-editor.org (the notebooks' citations, the page index's table) "
    "goes to the site's own copy of that page: an offline reader can follow it"
    for p in proc.glob("*.ipynb"):
        nb = json.loads(p.read_text())
        for c in nb["cells"]:
            if c["cell_type"] == "markdown":
                src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                c["source"] = _local(src)
            for o in c.get("outputs", []):
                for k in ("text/markdown", "text/html"):
                    if k in o.get("data", {}):
                        t = o["data"][k]
                        o["data"][k] = _local("".join(t) if isinstance(t, list) else t)
        p.write_text(json.dumps(nb, indent=1))


def _rfc_page_md(rfc, n, lines):
    "One printed page: a heading (its anchor `page-N`), the page's lines as printed, the place for its back-links"
    import html
    label = f"{RFCS[rfc][0]}, page {n}"
    body = html.escape("\n".join(lines), quote=False)
    return (f"## Page {n}\n\n"
            f'<pre class="u1630-rfctext u1630-rfc{rfc}" tabindex="0" title="{label}">{body}\n</pre>\n\n'
            f'<div class="u1630-quoted-by" data-rfc="{rfc}" data-page="{n}"></div>\n')


def rfc_pages(proc):
    "rfc1630 and rfc1738: each RFC page by page (docs/rfctext.py, `printed_pages`), in the sidebar after the edition"
    import rfctext
    for rfc, (name, title, who) in RFCS.items():
        pages = rfctext.printed_pages(rfc)
        src = "rfc1630.txt" if rfc == "1630" else "rfc1738.txt"
        intro = (f"# {name}: {title}\n\n"
                 f'<p class="u1630-subtitle">{who}: the text as published, page by page</p>\n\n')
        if rfc == "1630":
            intro += (f"The memo as printed, line for line, from the copy this edition quotes (`docs/rfc/{src}`): "
                      "each page with its running header and its footer. ")
        else:
            intro += (f"The copy this edition quotes (`docs/rfc/{src}`) lost the memo's line breaks: its lines were "
                      "joined by spaces, their indentation kept. The lines here are rebuilt from that indentation, "
                      "from the section headings and from the BNF's productions, so **this text is reflowed**: blank "
                      "lines are not shown, and where a line began in column 0 (some of the front matter, the "
                      "editors' addresses) it runs on into the next one. The words, the spacing inside a line and "
                      "the page ends are the copy's. ")
        intro += ("Under each page, the passages of this edition that quote it (found by the text check, "
                  "`docs/textcheck.py`); every \"Page N\" of a citation links here.\n\n"
                  + '<nav class="u1630-rfcpages" aria-label="Pages of ' + name + '">Pages: '
                  + " ".join(f'<a href="#page-{n}">{n}</a>' for n in pages) + "</nav>\n")
        cells = [{"cell_type": "markdown", "id": f"u1630-rfc{rfc}-intro", "metadata": {}, "source": intro}]
        cells += [{"cell_type": "markdown", "id": f"u1630-rfc{rfc}-p{n}", "metadata": {}, "source": _rfc_page_md(rfc, n, ls)}
                  for n, ls in pages.items()]
        nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
              "nbformat": 4, "nbformat_minor": 5}
        (proc / f"rfc{rfc}.ipynb").write_text(json.dumps(nb, indent=1))
    front = proc / f"{nav.FRONT}.ipynb"
    nb = json.loads(front.read_text())
    for caption, names in nav.GENERATED:   # after the parts' tables of contents: the sidebar's last part
        nb["cells"].append({"cell_type": "markdown", "id": "u1630-toc-rfcs", "metadata": {},
                            "source": f"```{{toctree}}\n:hidden:\n:maxdepth: 1\n:caption: {caption}\n\n" + "\n".join(names) + "\n```"})
    front.write_text(json.dumps(nb, indent=1))


def quote_ids(quotes):
    "The anchor of each blockquote of a page: `rfc1630-page-7` for the first quote whose words begin on RFC 1630's "
    "page 7, `rfc1630-page-7-2` for the second, ...; `quote-N` for a blockquote that cites no RFC page"
    ids, seen = [], {}
    for i, q in enumerate(quotes):
        if q.pages and q.rfc:
            base = f"rfc{q.rfc}-page-{q.pages[0]}"
            seen[base] = seen.get(base, 0) + 1
            ids.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
        else: ids.append(f"quote-{i + 1}")
    return ids


def _page_title(html_text):
    import html
    m = re.search(r"<h1[^>]*>(.*?)</h1>", html_text, re.S)
    t = re.sub(r"<[^>]+>", "", m.group(1)) if m else ""
    return html.unescape(t).replace("#", "").replace("¶", "").strip()


def _excerpt(q, n=90):
    import html
    t = " ".join(t for k, t in q.blocks if k == "p") or " ".join(t for _, t in q.blocks)
    t = " ".join(t.split())
    t = t if len(t) <= n else t[:n].rsplit(" ", 1)[0] + " …"
    return html.escape(t)


def _check_page_index(site, quoted_by, part):
    "The page index (nbs/29, from the citations) links each RFC 1630 page to the passages the text check found on it"
    f = site / "page_index.html"
    if not f.exists(): return
    bad = []
    for row in re.findall(r"<tr.*?</tr>", f.read_text(encoding="utf-8"), re.S):
        m = re.search(r'href="rfc1630\.html#page-(\d+)"', row)
        if not m: continue
        got = set(re.findall(r'href="([\w.-]+\.html#rfc1630-page-[\d-]+)"', row))
        want = {f"{n}.html#{qid}" for n, qid, _, _ in quoted_by.get(("1630", int(m.group(1))), []) if n in part}
        if got != want: bad.append(f"page {m.group(1)}: the index has {sorted(got - want)}, not {sorted(want - got)}")
    if bad: sys.exit("[docs] FAILED: the page index and the text check disagree: " + "; ".join(bad[:5]))
    log("page index: every RFC 1630 page links to the passages the text check found on it")


def cite_passages(site):
    "Read the rendered site with the text check; give every blockquote its anchor and a ¶ permalink, and list "
    "under each RFC page the passages that quote it (the text check's pages, not the citations' own)"
    import html
    import textcheck
    ch = textcheck.Checker(textcheck.rfc_part_pages(ROOT / "nbs")); ch._spans = {}
    names = [n for n in textcheck.nav_pages(site, ROOT / "nbs") if n not in ("rfc1630", "rfc1738")]
    quoted_by = {}                      # (rfc, page) -> [(edition page, anchor, title, excerpt)]
    anchors = 0
    for name in names:
        f = site / f"{name}.html"
        text = f.read_text(encoding="utf-8")
        ch.check_page(name, text)
        quotes = ch.read[name].quotes
        if not quotes: continue
        title = _page_title(text)
        ids = quote_ids(quotes)
        for q, qid in zip(quotes, ids):
            if q.pages:
                for p in range(q.pages[0], q.pages[1] + 1):
                    quoted_by.setdefault((q.rfc, p), []).append((name, qid, title, _excerpt(q)))
        for q, qid in sorted(zip(quotes, ids), key=lambda x: -x[0].at[0]):
            a, b = q.at
            b += len("</blockquote>")
            link = (f'<a class="u1630-permalink" href="#{qid}" title="Permalink to this passage" '
                    f'aria-label="Permalink to this passage">¶</a>')
            text = text[:a] + f'<div class="u1630-quote" id="{qid}">' + text[a:b] + link + "</div>" + text[b:]
            anchors += 1
        f.write_text(text, encoding="utf-8")
    _check_page_index(site, quoted_by, set(textcheck.rfc_part_pages(ROOT / "nbs")))
    backlinks = 0
    for rfc in RFCS:
        f = site / f"rfc{rfc}.html"
        text = f.read_text(encoding="utf-8")

        def fill(m):
            nonlocal backlinks
            got = quoted_by.get((rfc, int(m.group(2))), [])
            backlinks += len(got)
            if not got: return m.group(1) + '<p class="u1630-quoted-none">No passage of this edition quotes this page.</p></div>'
            items = "".join(f'<li><a href="{n}.html#{qid}">{html.escape(t)}</a>: <q>{ex}</q></li>' for n, qid, t, ex in got)
            what = "passage" if len(got) == 1 else "passages"
            return m.group(1) + f'<p class="u1630-quoted-head">Quoted in this edition ({len(got)} {what}):</p><ul>{items}</ul></div>'
        text = re.sub(r'(<div class="u1630-quoted-by" data-rfc="\d+" data-page="(\d+)">)\s*</div>', fill, text)
        f.write_text(text, encoding="utf-8")
    return anchors, backlinks


if __name__ == "__main__":
    main(sys.argv[1:])
