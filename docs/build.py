"""Build the read-along docs site from nbs/ into _site/, offline, without Quarto.

    python docs/build.py [--out _site] [--no-exec | --reuse]

1. copy nbs/*.ipynb and settings.ini into docs/_build/ (nothing is ever written back into nbs/);
2. execute every copy with a real kernel (nbclient), so the pages show outputs and widget state;
3. run nbdev's own processors (`nbdev.serve.proc_nbs`, n_workers=0) to add the `show_doc` cells and
   strip hidden cells and directives, as nbdev's Quarto pipeline would;
4. fix up what only Quarto understands (YAML front matter, `#|` lines, `{target=...}` link attributes),
   put the notebooks in RFC order and add the table of contents to the landing page;
5. render with Sphinx + myst-nb (theme furo), with the widget JavaScript served from the site itself
   (docs/vendor.py fetches it from the npm registry once; no CDN is referenced).
"""
import json, os, re, shutil, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
WORK = DOCS / "_build"
SKIP_FLAGS = ("#|notest", "#|slow", "#|eval:false")


def log(*a): print("[docs]", *a, flush=True)


def copy_sources():
    "A scratch nbdev project in docs/_build: settings.ini and a copy of the notebooks"
    if WORK.exists(): shutil.rmtree(WORK)
    (WORK / "nbs").mkdir(parents=True)
    shutil.copy2(ROOT / "settings.ini", WORK / "settings.ini")
    nbs = sorted(p for p in (ROOT / "nbs").glob("*.ipynb") if not p.name.startswith(("_", ".")))
    for p in nbs:
        nb = json.loads(p.read_text())
        for c in nb["cells"]:   # nbdev's processors strip directives from sources: keep them in metadata
            if c["cell_type"] == "code":
                c.setdefault("metadata", {})["u1630_directives"] = sorted(_directives("".join(c["source"])))
        (WORK / "nbs" / p.name).write_text(json.dumps(nb, indent=1))
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
    nb = nbformat.read(p, as_version=4)
    for i, c in enumerate(nb.cells):   # cells the show_doc pass inserted have no id yet
        if not c.get("id"): c["id"] = f"u1630-{i}"
    for c in nb.cells:
        d = set(c.metadata.get("u1630_directives", [])) | _directives(c.source)
        if c.cell_type == "code" and ("nbdev_export()" in c.source or d & set(SKIP_FLAGS)):
            c.metadata.setdefault("tags", []).append("skip-execution")
    NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True, store_widget_state=True,
                   resources={"metadata": {"path": str(p.parent)}}).execute()
    for c in nb.cells:   # the tag was only for this run
        tags = c.metadata.get("tags", [])
        if "skip-execution" in tags: tags.remove("skip-execution")
        if not tags: c.metadata.pop("tags", None)
    nbformat.write(nb, p)
    errs = [o.get("ename") for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    return p.name, time.time() - t0, errs


def execute(paths, workers=2):
    "Execute the notebook copies, `workers` kernels at a time; returns the names of notebooks whose cells raised"
    from concurrent.futures import ProcessPoolExecutor
    failed = []
    with ProcessPoolExecutor(workers) as ex:
        for name, dt, errs in ex.map(_exec_one, sorted(paths, key=lambda p: -p.stat().st_size)):
            log(f"executed {name} in {dt:.1f}s" + (f"  WARNING: {len(errs)} cell(s) raised {errs}" if errs else ""))
            if errs: failed.append(name)
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
def _nblinks(t): return _NBLINK.sub(lambda m: f"]({page_name(m.group(1))}.html{m.group(2) or ''})", t)


def _show_doc_md(t, doc_host):
    "A show_doc output as MyST: the source link floated, the signature in a `signature` container, doc links local"
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


def fixup(proc, order):
    "Make the processed notebooks plain Jupyter + MyST: title cell from front matter, no directives, no Quarto link attributes"
    import html
    doc_host = _doc_host()
    for p in proc.glob("*.ipynb"):
        nb = json.loads(p.read_text())
        cells = []
        for c in nb["cells"]:
            src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            if c["cell_type"] == "raw":
                fm = _front_matter(src)
                if fm is not None and "title" in fm:
                    md = f"# {fm['title']}\n"
                    if fm.get("description"):
                        md += f'\n<p class="u1630-subtitle">{html.escape(fm["description"])}</p>\n'
                    cells.append({"cell_type": "markdown", "id": "u1630-title", "metadata": {}, "source": md})
                continue
            if c["cell_type"] == "code":
                d = _directives(src) | set(c.get("metadata", {}).pop("u1630_directives", []))
                if "nbdev_export()" in src: continue
                if d & {"#|hide", "#|include:false"}: continue
                tags = c.setdefault("metadata", {}).setdefault("tags", [])
                if "#|echo:false" in d: tags.append("remove-input")
                if "#|output:false" in d: tags.append("remove-output")
                src = "\n".join(l for l in src.splitlines() if not l.lstrip().startswith("#|")).strip("\n")
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
        if p.stem == "index":
            if (DOCS / "screenshots").is_dir():   # index.ipynb shows them as docs/screenshots/*.png (so does README.md)
                shutil.copytree(DOCS / "screenshots", proc / "docs" / "screenshots", dirs_exist_ok=True)
            toc = "\n".join(page_name(n) for n in order if n != "index")
            cells.append({"cell_type": "markdown", "id": "u1630-toc", "metadata": {},
                          "source": f"```{{toctree}}\n:hidden:\n:maxdepth: 1\n:caption: The edition\n\n{toc}\n```"})
        nb["cells"] = cells
        p.unlink()
        (proc / (page_name(p.stem) + ".ipynb")).write_text(json.dumps(nb, indent=1))


def _doc_host():
    "settings.ini's doc_host + doc_baseurl: nbdev's doc links point there; on this site they are local pages"
    from configparser import ConfigParser
    c = ConfigParser(delimiters=["="]); c.read(ROOT / "settings.ini")
    return c["DEFAULT"].get("doc_host", "").rstrip("/") + "/" + c["DEFAULT"].get("doc_baseurl", "/").strip("/")


def sphinx(proc, out):
    "Render with Sphinx (config in docs/conf.py)"
    html = WORK / "html"   # myst-nb writes its jupyter_execute/ next to the output folder: keep both in docs/_build
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-j", "2", "-c", str(DOCS), str(proc), str(html)]
    subprocess.run(cmd, check=True)
    if out.exists(): shutil.rmtree(out)
    shutil.move(str(html), str(out))


def main(argv):
    out = ROOT / (argv[argv.index("--out") + 1] if "--out" in argv else "_site")
    t0 = time.time()
    subprocess.run([sys.executable, str(DOCS / "vendor.py")], check=True)
    failed = []
    if "--reuse" in argv:   # re-render the notebooks executed by the last build (for work on the rendering)
        paths = sorted((WORK / "nbs").glob("*.ipynb"))
    else:
        paths = copy_sources()
        t = time.time(); add_show_docs(); log(f"show_doc cells added in {time.time() - t:.0f}s")
        t = time.time(); failed = execute(paths) if "--no-exec" not in argv else []; log(f"executed in {time.time() - t:.0f}s")
    order = [p.stem for p in paths]
    t = time.time(); proc = process(); fixup(proc, order); log(f"processed in {time.time() - t:.0f}s")
    t = time.time(); sphinx(proc, out); log(f"rendered in {time.time() - t:.0f}s")
    log(f"site in {out.relative_to(ROOT)}/ ({len(paths)} pages) in {time.time() - t0:.0f}s")
    if failed:   # the notebooks' own tests are the test suite's business; here it is a warning on the page
        log(f"WARNING: cells raised in {', '.join(failed)} (their pages show the traceback)")


if __name__ == "__main__":
    main(sys.argv[1:])
