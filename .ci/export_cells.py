"""Measure the notebooks against the edition's cell rules (#21): the numbers the formatting pass must bring to zero.

    python .ci/export_cells.py            # a table per notebook and the totals; exit 0 (report)
    python .ci/export_cells.py --strict   # the same, and exit 1 if any rule is broken (the gate, once the pass is done)
    python .ci/export_cells.py --json     # the figures as JSON

The rules, each counted per notebook:
- `wide`: code lines longer than 100 characters (the site's code column shows 100 at 1280 px);
- `joined`: code lines holding more than one statement (`a; b`, `if x: y`), found with `ast`;
- `long`: export cells over 40 lines (directive lines not counted);
- `untested`: export cells followed by another export cell with no code cell between them that is not
  an export (a test, an example, a `show_doc`); an export cell of imports only is exempt.
"""
import argparse, ast, json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH, MAX_LINES = 100, 40
EXPORT = ('#| export', '#| exporti', '#| exports')


def _source(cell: dict) -> str:
    return ''.join(cell.get('source', ''))


def _is_export(src: str) -> bool:
    "Whether a directive line of the cell is `#| export` (or `exporti`, `exports`), with or without a module name"
    return any(line.strip() == d or line.strip().startswith(d + ' ') for line in src.splitlines() for d in EXPORT)


def _body(src: str) -> list[str]:
    "The code lines of a cell, its `#|` directive lines left out"
    return [line for line in src.splitlines() if not line.lstrip().startswith('#|')]


def _joined(src: str) -> int | None:
    "How many lines start more than one statement; `None` when the cell is not plain Python (an IPython magic)"
    try: tree = ast.parse('\n'.join(_body(src)))
    except SyntaxError: return None
    starts: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt): starts[node.lineno] = starts.get(node.lineno, 0) + 1
    return sum(1 for n in starts.values() if n > 1)


def _imports_only(src: str) -> bool:
    try: tree = ast.parse('\n'.join(_body(src)))
    except SyntaxError: return False
    return all(isinstance(s, (ast.Import, ast.ImportFrom, ast.If)) and (not isinstance(s, ast.If) or
               all(isinstance(b, (ast.Import, ast.ImportFrom)) for b in s.body)) for s in tree.body)


def measure(nb: Path) -> dict:
    "The figures of one notebook"
    every = json.loads(nb.read_text(encoding='utf-8'))['cells']
    cells = [(n, c) for n, c in enumerate(every, 1) if c['cell_type'] == 'code']
    out = dict(notebook=nb.name, export_cells=0, wide=0, joined=0, unparsed=0, long=0, untested=0, lines=0)
    where: list[str] = []                                # each finding: the notebook, the cell, what
    out['where'] = where
    def at(n: int, c: dict, what: str) -> None: where.append(f"nbs/{nb.name}, cell {n} (id {c.get('id')}): {what}")
    pending = None                                       # an export cell not yet followed by a test or example
    for n, c in cells:
        src = _source(c)
        body = _body(src)
        out['lines'] += len(body)
        wide = [k for k, line in enumerate(body, 1) if len(line) > WIDTH]
        out['wide'] += len(wide)
        if wide: at(n, c, f"{len(wide)} code line(s) over {WIDTH} characters (line {', '.join(map(str, wide))})")
        j = _joined(src)
        if j is None: out['unparsed'] += 1
        else: out['joined'] += j
        if j: at(n, c, f"{j} line(s) holding more than one statement")
        if _is_export(src):
            out['export_cells'] += 1
            out['long'] += len(body) > MAX_LINES
            if len(body) > MAX_LINES: at(n, c, f"an export cell of {len(body)} lines (at most {MAX_LINES}): split it")
            if pending is not None:
                out['untested'] += 1
                at(*pending, "an export cell followed by another, with no cell that tests or shows it between")
            pending = None if _imports_only(src) else (n, c)
        elif body and 'nbdev_export' not in src: pending = None
    if pending is not None:
        out['untested'] += 1
        at(*pending, "the last export cell, with no cell that tests or shows it after it")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--strict', action='store_true', help='exit 1 if any rule is broken')
    ap.add_argument('--json', action='store_true', help='print the figures as JSON')
    ap.add_argument('paths', nargs='*', help='notebooks (default: nbs/*.ipynb)')
    a = ap.parse_args(argv)
    nbs = [Path(p) for p in a.paths] or sorted((ROOT / 'nbs').glob('*.ipynb'))
    rows = [measure(p) for p in nbs]
    keys = ('export_cells', 'lines', 'wide', 'joined', 'long', 'untested', 'unparsed')
    total = {k: sum(r[k] for r in rows) for k in keys}
    if a.json: print(json.dumps(dict(notebooks=rows, total=total), indent=1))
    else:
        print(f"{'notebook':<34}" + ''.join(f"{k:>13}" for k in keys))
        for r in rows: print(f"{r['notebook']:<34}" + ''.join(f"{r[k]:>13}" for k in keys))
        print(f"{'total':<34}" + ''.join(f"{total[k]:>13}" for k in keys))
    broken = total['wide'] + total['joined'] + total['long'] + total['untested']
    for r in rows:
        for w in r['where']: print(w, file=sys.stderr)   # each finding names its notebook and cell
    return 1 if a.strict and broken else 0


if __name__ == '__main__': sys.exit(main())
