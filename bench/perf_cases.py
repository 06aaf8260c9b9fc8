"""The pyperf benchmark script of uri1630: one round of every case, run by `bench/perf.py` (not by hand).

pyperf's `Runner` re-runs this file in worker processes (`--worker --worker-task=N`): each worker imports
uri1630 from the tree its case names (`--tree LABEL=DIR`, so a release and the working tree are timed by the
same cases, interleaved), builds the case's items from the shared corpus and times it with calibrated loops.

    python bench/perf_cases.py -o round.json --processes 3 --values 3 --warmups 1 --min-time 0.05 \\
        --tree this=. --tree release=/tmp/rel --ops canonical,parse --round 0 -n 2000

A value is CPU seconds per item (`time.process_time`: the other jobs of a shared machine count less than in
wall time), with the collector off inside a timing; every item is distinct (no input cache helps), urllib's
`urlsplit` is called around its `lru_cache`, and a contender that raises on an item pays for the exception.
"""
import gc, json, os, random, subprocess, sys, time
from pathlib import Path

import pyperf

HERE = Path(__file__).resolve().parent
REFERENCE_KINDS = ('g', '../g', '//h/x', 'g?y', '../../a/b')   # resolve is timed on each kind alone (#21)
CLI_LINES = 20_000                                            # lines per `uri1630 parse -` / `canon -` call
IMPORT_LOOPS = 5                                              # fresh interpreters per value of `import uri1630`


def _op(name):
    "The operation a case name belongs to: 'resolve ../g: uri1630.resolve' -> 'resolve ../g'"
    return name.split(': ', 1)[0]


# case name -> what it needs: the uri1630 function (module, attribute) or a peer; the items it takes
CASES = {
    'parse: uri1630.parse': ('ours', 'syntax', 'parse', 'urls'),
    'parse: uritools.urisplit': ('peer', 'uritools', 'urisplit', 'urls'),
    'floor: re.match of the generic grammar': ('floor', None, None, 'urls'),
    'validate: uri1630.validate': ('ours', 'grammar', 'validate', 'urls'),
    'validate: urlsplit (uncached)': ('peer', 'urllib', 'urlsplit', 'urls'),
    'canonical: uri1630.canonical': ('ours', 'encoding', 'canonical', 'urls'),
    'canonical: quote(unquote(path))': ('peer', 'urllib', 'naive', 'urls'),
    'parse_url: uri1630.parse_url': ('ours', 'schemes', 'parse_url', 'http_file'),
    'parse_url: urlsplit (uncached)': ('peer', 'urllib', 'urlsplit', 'http_file'),
    'resolve: uri1630.resolve': ('ours', 'partial', 'resolve', 'pairs'),
    'relative: uri1630.relative': ('ours', 'partial', 'relative', 'targets'),
    **{f'resolve {k}: uri1630.resolve': ('ours', 'partial', 'resolve', f'kind {k}') for k in REFERENCE_KINDS},
    **{f'resolve {k}: ada_url.join_url': ('peer', 'ada_url', 'join_url', f'kind {k}') for k in REFERENCE_KINDS},
    'cli: uri1630 parse -': ('cli', None, 'parse', 'lines'),
    'cli: uri1630 canon -': ('cli', None, 'canon', 'lines'),
    'import: import uri1630': ('import', None, None, None),
}
# operation groups: the cases timed one after the other (a goal's two contenders are always neighbours)
GROUPS = {'parse': ['parse: uri1630.parse', 'parse: uritools.urisplit', 'floor: re.match of the generic grammar'],
          'validate': ['validate: uri1630.validate', 'validate: urlsplit (uncached)'],
          'canonical': ['canonical: uri1630.canonical', 'canonical: quote(unquote(path))'],
          'parse_url': ['parse_url: uri1630.parse_url', 'parse_url: urlsplit (uncached)'],
          'relative': ['relative: uri1630.relative', 'resolve: uri1630.resolve'],
          **{f'resolve {k}': [f'resolve {k}: uri1630.resolve', f'resolve {k}: ada_url.join_url']
             for k in REFERENCE_KINDS},
          'cli': ['cli: uri1630 parse -', 'cli: uri1630 canon -'],
          'import': ['import: import uri1630']}


def _items(kind, n, run):
    "The items of a case, built from the shared corpus by bench/run.py's functions (same in every worker)"
    urls = run.load_corpus(n)
    if kind == 'urls': return urls
    if kind == 'http_file': return [u for u in urls if u.startswith(('http:', 'https:', 'file:'))]
    if kind == 'pairs': return run.link_pairs(urls)
    if kind == 'targets': return [(b, run._target(b, r)) for b, r in run.link_pairs(urls)]
    if kind.startswith('kind '):
        return [(b, kind[5:]) for b in urls if b.startswith(('http:', 'https:'))]
    raise ValueError(kind)


def _function(what, module, attr, run):
    "The function a case times"
    if what == 'ours':
        import importlib
        return getattr(importlib.import_module(f'uri1630.{module}'), attr)
    if what == 'floor':
        from uri1630.grammar import GENERIC
        return GENERIC.absolute_re.match
    if module == 'urllib': return run._naive_canonical if attr == 'naive' else run.urlsplit
    return getattr(__import__(module), attr)


def _loop1(fn, items):
    for x in items:
        try: fn(x)
        except Exception: pass


def _loop2(fn, items):
    for a, b in items:
        try: fn(a, b)
        except Exception: pass


def _timer(case, tree, n):
    "A pyperf time function for `case` on the uri1630 of `tree`: (time_func, inner_loops); built in the worker"
    what, module, attr, kind = CASES[case]
    if what == 'import': return _import_timer(tree), 1
    if str(tree) not in sys.path: sys.path.insert(0, str(tree))   # this tree's uri1630 (before any import of it)
    sys.path.insert(1, str(HERE))
    for peer in ('yarl', 'rfc3986', 'hyperlink'):                 # peers no case here times: not imported
        sys.modules.setdefault(peer, None)
    import run                                                    # bench/run.py of THIS checkout: the same cases
    if what == 'cli': return _cli_timer(attr, run, n), CLI_LINES
    fn, items = _function(what, module, attr, run), _items(kind, n, run)
    loop = _loop2 if isinstance(items[0], tuple) else _loop1
    if module == 'uritools' or what == 'peer': run._clear_caches()

    def time_func(loops):
        clock, rng = time.process_time, range(loops)
        gc.disable()
        t0 = clock()
        for _ in rng: loop(fn, items)
        dt = clock() - t0
        gc.enable()
        return dt
    return time_func, len(items)


def _cli_timer(cmd, run, n):
    "`uri1630 CMD -` in this process over CLI_LINES corpus lines (its `main` with the streams given)"
    import io
    from uri1630.cli import main
    lines = run.load_corpus()
    text = '\n'.join((lines * (CLI_LINES // len(lines) + 1))[:CLI_LINES]) + '\n'

    def time_func(loops):
        dt = 0.0
        for _ in range(loops):
            inp, out, err = io.StringIO(text), io.StringIO(), io.StringIO()
            t0 = time.process_time()
            main([cmd, '-'], inp, out, err)
            dt += time.process_time() - t0
        return dt
    return time_func


def _import_timer(tree):
    "`import uri1630` in a fresh interpreter, as `python -X importtime` reports it (cumulative, seconds)"
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONDONTWRITEBYTECODE'}
    env['PYTHONPATH'] = str(tree) + os.pathsep + env.get('PYTHONPATH', '')
    cmd = [sys.executable, '-X', 'importtime', '-c', 'import uri1630']

    def once():
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(tree))
        us = [int(l.split('|')[1]) for l in p.stderr.splitlines() if l.rstrip().endswith('| uri1630')]
        if not us: raise RuntimeError(f"no import time for uri1630: {p.stderr[-500:]}")
        return us[-1] / 1e6
    once()                                                        # its bytecode written once (not timed)

    def time_func(loops):
        return sum(once() for _ in range(loops))
    return time_func


def _order(names, rnd):
    "The groups in a shuffled order, each group's cases in a shuffled order: neighbours stay neighbours"
    groups = [list(g) for g in names]
    rnd.shuffle(groups)
    for g in groups: rnd.shuffle(g)
    return [c for g in groups for c in g]


def main():
    def add_args(cmd, args):
        for t in args.tree: cmd += ['--tree', t]
        cmd += ['--ops', args.ops, '--round', str(args.round), '--items', str(args.items)]
        if args.loops_from: cmd += ['--loops-from', args.loops_from]
        if args.ours: cmd.append('--ours')

    runner = pyperf.Runner(add_cmdline_args=add_args)
    ap = runner.argparser
    ap.add_argument('--tree', action='append', default=[], help='LABEL=DIR: time the uri1630 of DIR (repeatable)')
    ap.add_argument('--ops', default=','.join(GROUPS), help='the operation groups, comma-separated')
    ap.add_argument('--round', type=int, default=0, help='the round: seeds the order of the cases')
    ap.add_argument('--items', type=int, default=2000, help='corpus URLs per case')
    ap.add_argument('--loops-from', help='a JSON {benchmark: loops} of an earlier round: no calibration')
    ap.add_argument('--ours', action='store_true', help="uri1630's cases only (the regression gate)")
    args = runner.parse_args()
    trees = [t.split('=', 1) for t in args.tree] or [['this', str(HERE.parent)]]
    loops = json.loads(Path(args.loops_from).read_text()) if args.loops_from else {}
    rnd = random.Random(args.round)
    ours = lambda c: not args.ours or CASES[c][0] in ('ours', 'import') or c == 'cli: uri1630 parse -'
    groups = [[(label, tree, c) for c in GROUPS[g] if ours(c) for label, tree in trees]
              for g in args.ops.split(',') if g]
    for label, tree, case in _order(groups, rnd):
        name = case if len(trees) == 1 else f'{label} | {case}'
        if not args.worker and name in loops: runner.args.loops = loops[name]   # the manager: a calibrated count
        if not args.worker and case == 'import: import uri1630':
            runner.args.loops = IMPORT_LOOPS   # not calibrated: pyperf would count ~60 interpreters a value
        if args.worker and args.worker_task != runner._worker_task:
            runner._worker_task += 1                                # another worker's case: not built here
            continue
        if args.worker:
            func, inner = _timer(case, Path(tree).resolve(), args.items)
        else:
            func, inner = (lambda loops: 0.0), 1                    # the manager only spawns workers
        runner.bench_time_func(name, func, inner_loops=inner, metadata={'tree': label, 'case': case})
        if not args.worker: runner.args.loops = 0


if __name__ == '__main__':
    main()
