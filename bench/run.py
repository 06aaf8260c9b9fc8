"""uri1630 benchmark: ns per item for uri1630 and its peers, side by side in one process, with ratios and goals.

    python bench/run.py            # the full run (corpus sample of 20,000 URLs, 5 interleaved runs; about a minute)
    python bench/run.py --quick    # a short run (2,000 URLs, 3 runs; a few seconds): what CI and the notebook use
    python bench/run.py --smoke    # seconds: every operation and peer once on 200 URLs (CI: it still runs; no timing checked)
    python bench/run.py --json out.json

Rules the numbers obey (see nbs/34_performance.ipynb):
- every contender sees the same items, each distinct URL once per run, so no result comes from a cache of earlier
  inputs; urllib's `urlsplit` is called through `__wrapped__` (its `lru_cache` bypassed) and yarl's caches are sized 0;
- the contenders of one operation are interleaved in a shuffled order, run after run; the figure is the median;
- a contender that raises on an item pays for the exception: that is its cost on that item;
- time is this process's CPU time (`time.process_time_ns`), so other jobs on a shared machine count less.
Peers that are not installed (`pip install -e ".[bench]"`) are skipped. The corpus is `$URI1630_CORPUS`, else
`../shared/corpus` next to the project root, else the small vendored sample (tests/shared_corpus.py decides).
"""
import argparse, gc, json, os, random, re, statistics, subprocess, sys, time, urllib.parse as up
from pathlib import Path

import uri1630
from uri1630 import parse, validate, canonical, URIError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'tests'))
from shared_corpus import WEB, FILES, corpus_lines   # where the corpus is: decided in one place

# %% data sets
def load_corpus(limit=None, seed=1630):
    "Distinct URLs of the shared corpus (web and file sets; or its vendored sample), each once, in a fixed shuffled order; `limit` samples"
    urls = list(dict.fromkeys(corpus_lines(WEB + FILES)))
    random.Random(seed).shuffle(urls)
    return urls[:limit] if limit else urls

_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_."
def _word(rnd, n): return ''.join(rnd.choice(_CHARS) for _ in range(n))

def synthetic_urls(count, length, seed=1, escapes=0.0):
    "`count` http URLs of about `length` characters; a share `escapes` of the path characters are `%XX` escapes"
    rnd, out = random.Random(seed), []
    for _ in range(count):
        host, path = f"http://{_word(rnd, 8)}.example.org", []
        while len(host) + sum(map(len, path)) < length * 0.8:
            seg = ''.join(f"%{rnd.randrange(256):02X}" if rnd.random() < escapes else rnd.choice(_CHARS)
                          for _ in range(rnd.randrange(3, 12)))
            path.append('/' + seg)
        out.append(host + ''.join(path) + '?' + _word(rnd, max(1, int(length * 0.2) - 1)))
    return out

def deep_relative(count, depth, seed=2):
    "(base, reference) pairs with `depth`-deep bases and references climbing with `../`"
    rnd, out = random.Random(seed), []
    for _ in range(count):
        base = "http://h.example/" + '/'.join(_word(rnd, 5) for _ in range(depth)) + "/doc.html"
        up_ = rnd.randrange(depth + 1)
        out.append((base, '../' * up_ + '/'.join(_word(rnd, 4) for _ in range(rnd.randrange(1, 4))) + "?x"))
    return out

def link_pairs(urls, seed=3):
    "(context, link) pairs from real URLs: each base gets a reference of a common form built from another URL"
    rnd, out = random.Random(seed), []
    web = [u for u in urls if u.startswith(('http:', 'https:', 'file:'))] or urls
    for i, base in enumerate(web):
        other = up.urlsplit(web[(i * 7919 + 1) % len(web)])
        path = other.path or '/'
        last = path.rsplit('/', 1)[-1] or 'index.html'
        form = i % 6
        ref = (path if form == 0 else last if form == 1 else '../' + last if form == 2 else
               '../../' + path.lstrip('/') if form == 3 else '?' + (other.query or 'q') if form == 4 else '#' + last)
        out.append((base, ref))
    return out

# %% contenders
def _try_import(name):
    try: return __import__(name)
    except ImportError: return None

uritools, ada_url, rfc3986, yarl, hyperlink = map(_try_import, ('uritools', 'ada_url', 'rfc3986', 'yarl', 'hyperlink'))
if yarl and hasattr(yarl, 'cache_configure'):   # yarl's lru_caches (hosts) sized 0: its uncached cost
    try: yarl.cache_configure(idna_encode_size=0, idna_decode_size=0, encode_host_size=0)
    except TypeError: pass
_partial = _try_import('uri1630.partial') and sys.modules['uri1630.partial']
_schemes = _try_import('uri1630.schemes') and sys.modules['uri1630.schemes']

_APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?")  # RFC 3986 appendix B
urlsplit = up.urlsplit.__wrapped__ if hasattr(up.urlsplit, '__wrapped__') else up.urlsplit  # its lru_cache bypassed

def _rfc3986_validate(u, _v=None):
    r = rfc3986.uri_reference(u)
    rfc3986.validators.Validator().require_presence_of('scheme').check_validity_of(
        'scheme', 'userinfo', 'host', 'port', 'path', 'query', 'fragment').validate(r)

def _yarl(u):
    return yarl.URL(u)

def _naive_canonical(u):
    "The usual urllib normalisation: wrong where RFC 1630 is strict (it decodes %2F into a path separator)"
    return up.quote(up.unquote(urlsplit(u).path))

def contenders():
    "op -> [(name, function, arity)]: uri1630 first, then floor and peers; only what is installed"
    C = {'parse': [('uri1630.parse', parse, 1), ('floor: re.match', _APPENDIX_B.match, 1),
                   ('urllib.urlsplit', urlsplit, 1)],
         'validate': [('uri1630.validate', validate, 1), ('urllib.urlsplit', urlsplit, 1)],
         'canonical': [('uri1630.canonical', canonical, 1), ('naive urllib', _naive_canonical, 1)],
         'resolve': [('urllib.urljoin', up.urljoin, 2)], 'relative': [], 'parse_url': [('urllib.urlsplit', urlsplit, 1)]}
    if uritools:
        C['parse'].append(('uritools.urisplit', uritools.urisplit, 1))
        C['resolve'].append(('uritools.urijoin', uritools.urijoin, 2))
    if ada_url:
        C['parse'].append(('ada_url.URL', ada_url.URL, 1))
        C['resolve'].append(('ada_url.join_url', ada_url.join_url, 2))
    if yarl: C['parse'].append(('yarl.URL (no cache)', _yarl, 1))
    if rfc3986:
        C['parse'].append(('rfc3986', rfc3986.uri_reference, 1))
        C['validate'].append(('rfc3986+Validator', _rfc3986_validate, 1))
        C['canonical'].append(('rfc3986.normalize', lambda u: rfc3986.uri_reference(u).normalize().unsplit(), 1))
        C['resolve'].append(('rfc3986.resolve_with', lambda b, r: rfc3986.uri_reference(r).resolve_with(b).unsplit(), 2))
    if hyperlink: C['parse'].append(('hyperlink.parse', lambda u: hyperlink.parse(u, decoded=False), 1))
    if _partial and hasattr(_partial, 'resolve'):
        C['resolve'].insert(0, ('uri1630.resolve', _partial.resolve, 2))
        if hasattr(_partial, 'relative'): C['relative'].append(('uri1630.relative', _partial.relative, 2))
    if _schemes and hasattr(_schemes, 'parse_url'): C['parse_url'].insert(0, ('uri1630.parse_url', _schemes.parse_url, 1))
    for kind in REFERENCE_KINDS: C[f'resolve {kind}'] = C['resolve']   # the same contenders, on one kind of reference at a time
    return C

# the kinds of reference `resolve` is measured on one at a time, each against every base of the web corpus (#21)
REFERENCE_KINDS = ('g', '../g', '//h/x', 'g?y', '../../a/b')

# op -> (uri1630 contender, reference contender, maximum ratio, what the goal says)
GOALS = [('parse', 'uri1630.parse', 'uritools.urisplit', 0.8, '<= 0.8x uritools.urisplit'),
         ('parse', 'uri1630.parse', 'floor: re.match', 1.5, '<= 1.5x one re.match'),
         ('validate', 'uri1630.validate', 'urllib.urlsplit', 0.5, '<= 0.5x urlsplit uncached'),
         ('canonical', 'uri1630.canonical', 'naive urllib', 0.5, '<= 0.5x quote(unquote(urlsplit(u).path))'),
         ('resolve', 'uri1630.resolve', 'ada_url.join_url', 1.0, '<= 1.0x ada_url.join_url'),
         ('relative', 'uri1630.relative', ('resolve', 'uri1630.resolve'), 2.0, '<= 2x uri1630.resolve (on the pairs it inverts)'),
         ('parse_url', 'uri1630.parse_url', 'urllib.urlsplit', 1.0, '<= 1.0x urlsplit uncached (http/file URLs)')] + [
         (f'resolve {k}', 'uri1630.resolve', 'ada_url.join_url', 1.0, f'<= 1.0x ada_url.join_url, every base + {k!r}')
         for k in REFERENCE_KINDS]

# %% timing
_clock = time.process_time_ns   # CPU time of this process: the other jobs on the shared cores do not count
def _loop1(fn, items):
    t = _clock()
    for x in items:
        try: fn(x)
        except Exception: pass
    return _clock() - t

def _loop2(fn, items):
    t = _clock()
    for a, b in items:
        try: fn(a, b)
        except Exception: pass
    return _clock() - t

def _clear_caches():
    up.clear_cache()
    if yarl and hasattr(yarl, 'cache_clear'): yarl.cache_clear()

def measure(cands, items, runs=5, seed=0):
    "Median ns per item of each contender over `runs` interleaved runs (shuffled order each run)"
    rnd, times = random.Random(seed), {name: [] for name, _, _ in cands}
    for name, fn, arity in cands: (_loop1 if arity == 1 else _loop2)(fn, items[:1])   # first use: imports, lazy regexes
    for _ in range(runs):
        order = list(cands); rnd.shuffle(order)
        for name, fn, arity in order:
            _clear_caches(); gc.disable()          # no collection inside a timing (nor a full one between: 30 ms)
            try: times[name].append((_loop1 if arity == 1 else _loop2)(fn, items) / len(items))
            finally: gc.enable()
    return {name: statistics.median(ts) for name, ts in times.items()}

def _target(base, ref):
    "The absolute URI `ref` names from `base`: by uri1630's own `resolve` when it exists (relative is its inverse)"
    try: return _partial.resolve(base, ref) if _partial else up.urljoin(base, ref)
    except Exception: return up.urljoin(base, ref)

def datasets(quick, n=None):
    "name -> {op: items}; each op gets the items it takes (URLs, or (base, reference) pairs)"
    n = n or (2000 if quick else 20000)
    corpus = load_corpus(n)
    pairs = link_pairs(load_corpus(n))
    http_file = [u for u in corpus if u.startswith(('http:', 'https:', 'file:'))]
    rel = [(b, _target(b, r)) for b, r in pairs]              # relative(base, target): target = resolved link
    m = n // 10
    long_, esc, deep = synthetic_urls(m, 2000, 4), synthetic_urls(m, 200, 5, escapes=0.5), deep_relative(m, 12)
    web = [u for u in corpus if u.startswith(('http:', 'https:'))]     # the web corpus's bases
    kinds = {f'resolve {k}': [(b, k) for b in web] for k in REFERENCE_KINDS}
    return {'corpus': dict(parse=corpus, validate=corpus, canonical=corpus, resolve=pairs, relative=rel, parse_url=http_file, **kinds),
            'long URLs (2 kB)': dict(parse=long_, validate=long_, canonical=long_, parse_url=long_,
                                     resolve=[(u, '../x/y?z') for u in long_]),
            'many escapes': dict(parse=esc, validate=esc, canonical=esc, parse_url=esc),
            'deep relative': dict(resolve=deep, relative=[(b, _target(b, r)) for b, r in deep])}

def run_all(quick=False, ops=None, n=None, runs=None, sets=None):
    "Measure every operation (or `ops`) on every data set (or `sets`): a list of rows {set, op, contender, ns}"
    C, rows = contenders(), []
    runs = runs or (3 if quick else 5)
    for set_name, by_op in datasets(quick, n).items():
        if sets and set_name not in sets: continue
        for op, items in by_op.items():
            if ops and op not in ops or not C.get(op) or not items: continue
            for name, ns in measure(C[op], items, runs).items():
                rows.append(dict(set=set_name, op=op, contender=name, ns=ns, items=len(items)))
    return rows

def goal_table(rows, set_name='corpus'):
    "The goals, evaluated on one data set: rows {op, goal, ours, ref, ratio, ok}"
    ns = {(r['op'], r['contender']): r['ns'] for r in rows if r['set'] == set_name}
    out = []
    for op, ours, ref, limit, text in GOALS:
        ref_op, ref = ref if isinstance(ref, tuple) else (op, ref)   # (op, contender): another operation's figure
        a, b = ns.get((op, ours)), ns.get((ref_op, ref))
        ratio = a / b if a and b else None
        out.append(dict(op=op, goal=text, ours=a, ref=b, ratio=ratio, limit=limit, unit='ns',
                        ok=None if ratio is None else ratio <= limit))
    return out

def _goal(op, goal, ours, ref, limit, unit):
    "One goal row: `ours / ref` against `limit`"
    ratio = ours / ref if ours is not None and ref else None
    return dict(op=op, goal=goal, ours=ours, ref=ref, ratio=ratio, limit=limit, unit=unit, ok=None if ratio is None else ratio <= limit)

def goals(rows, imp=None, cli=None, set_name='corpus'):
    "Every goal of the bench, evaluated in one place: the operations' (`goal_table`), then `import uri1630` and the streaming CLI, when measured"
    out = goal_table(rows, set_name)
    if imp is not None:
        out.append(_goal('import', f'import uri1630 <= {IMPORT_GOAL_MS:g} ms (-X importtime)', imp, IMPORT_GOAL_MS, 1.0, 'ms'))
    if cli:
        a, b, half = cli['parse all'], cli['canon all'], cli['parse half']
        out.append(_goal('parse -', f'uri1630 parse - <= {CLI_GOAL:g}x canon - ({a["lines"]:,} lines, CPU)', a['cpu_s'], b['cpu_s'], CLI_GOAL, 's'))
        out.append(_goal('parse -', f'memory flat: peak RSS for all / for half the lines <= {RSS_GROWTH:g}', a['peak_rss_kb'] / 1024,
                         half['peak_rss_kb'] / 1024, RSS_GROWTH, 'MB'))
    return out

# %% scaling: input size against time
def scaling(quick=False, sizes=(64, 256, 1024, 4096, 16384), count=None):
    "ns per URL (and per character) against URL length, per operation: rows {op, size, ns, ns_per_char}"
    C, rows = contenders(), []
    count = count or (100 if quick else 400)
    mine = {'parse': 'uri1630.parse', 'validate': 'uri1630.validate', 'canonical': 'uri1630.canonical',
            'resolve': 'uri1630.resolve', 'parse_url': 'uri1630.parse_url'}
    for size in sizes:
        urls = synthetic_urls(max(10, count * 64 // size), size, 10 + size, escapes=0.1)
        for op, name in mine.items():
            fn = next((f for n, f, _ in C.get(op, ()) if n == name), None)
            if fn is None: continue
            items = [(u, '../../a/b?c') for u in urls] if op == 'resolve' else urls
            ns = measure([(name, fn, 2 if op == 'resolve' else 1)], items, 3)[name]
            rows.append(dict(op=op, size=size, ns=ns, ns_per_char=ns / size))
    return rows

# %% memory
def memory():
    "Bytes for a parsed URI and for urllib's SplitResult of the same URLs (the tuple alone, and with its strings)"
    urls = load_corpus(2000)
    def size(t): return sys.getsizeof(t), sys.getsizeof(t) + sum(sys.getsizeof(x) for x in t if x is not None)
    ours, theirs = [size(parse(u)) for u in urls], [size(urlsplit(u)) for u in urls]
    return dict(uri_tuple=statistics.mean(a for a, _ in ours), uri_deep=statistics.mean(b for _, b in ours),
                splitresult_tuple=statistics.mean(a for a, _ in theirs), splitresult_deep=statistics.mean(b for _, b in theirs))

# %% import time
IMPORT_GOAL_MS = 15.0   # `import uri1630` (grammars, schemes and the retrieval stack load on first use)

def import_time(runs=7):
    "Milliseconds that `import uri1630` takes in a fresh interpreter (`python -X importtime`, cumulative; best of `runs`)"
    best = None
    for _ in range(runs):
        p = subprocess.run([sys.executable, '-X', 'importtime', '-c', 'import uri1630'], capture_output=True, text=True)
        us = [int(l.split('|')[1]) for l in p.stderr.splitlines() if l.rstrip().endswith('| uri1630')]
        if us: best = us[-1] if best is None else min(best, us[-1])
    return None if best is None else best / 1000

# %% streaming CLI
CLI_GOAL = 2.0          # `uri1630 parse -` within 2x the time of `uri1630 canon -` on the same lines (#15)
CLI_LINES = 300_000     # the corpus, repeated to this many lines
RSS_GROWTH = 1.25       # twice the lines may not take more than this much more peak memory: it does not grow with the input

def _cli_run(cmd, text):
    "(seconds inside `main`, peak RSS in KB, exit status) of `uri1630 CMD -` reading `text` on stdin, in a fresh interpreter"
    # peak RSS from /proc (VmHWM starts afresh at exec; ru_maxrss would carry the forking parent's peak)
    code = (f"import resource,sys,time; from uri1630.cli import main; t=time.process_time(); rc=main([{cmd!r},'-']); c=time.process_time()-t\n"
            "try: kb=int(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')))\n"
            "except (OSError, StopIteration): kb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "print(c, kb, file=sys.stderr)")
    p = subprocess.run([sys.executable, '-c', code], input=text, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try: inner, rss = p.stderr.strip().splitlines()[-1].split()
    except (ValueError, IndexError): inner, rss = 'nan', '0'
    return float(inner), int(rss), p.returncode

def cli_stream(quick=False, n=None):
    "CPU time and peak memory of `uri1630 canon -` and `uri1630 parse -` over the same lines (all, and half: memory must not grow)"
    lines = load_corpus()
    total = n or (20_000 if quick else CLI_LINES)
    lines = (lines * (total // max(len(lines), 1) + 1))[:total]
    out = {}
    for label, part in (('all', lines), ('half', lines[:len(lines) // 2])):
        text = '\n'.join(part) + '\n'
        for cmd in ('canon', 'parse'):
            cpu, rss, rc = _cli_run(cmd, text)
            out[f'{cmd} {label}'] = dict(cmd=cmd, lines=len(part), cpu_s=cpu, peak_rss_kb=rss, rc=rc)
    return out   # the goals on these figures: `goals`

# %% report
def report(rows, scale_rows=None, mem=None, cli=None, file=sys.stdout, imp=None):
    p = lambda *a: print(*a, file=file)
    for set_name in dict.fromkeys(r['set'] for r in rows):
        p(f"\n== {set_name}")
        for op in dict.fromkeys(r['op'] for r in rows if r['set'] == set_name):
            rs = [r for r in rows if r['set'] == set_name and r['op'] == op]
            base = rs[0]['ns']
            p(f"  {op} ({rs[0]['items']} items)")
            for r in sorted(rs, key=lambda r: r['ns']):
                p(f"    {r['contender']:<22} {r['ns']:>10,.0f} ns   {r['ns'] / base:6.2f}x of {rs[0]['contender']}")
    p("\n== goals (corpus; import time; the streaming CLI)")
    for g in goals(rows, imp, cli):
        status = 'n/a (not measured)' if g['ratio'] is None else ('MET' if g['ok'] else 'MISSED')
        ratio = '' if g['ratio'] is None else f"{g['ratio']:.2f}x"
        p(f"  {g['op']:<10} {g['goal']:<50} {ratio:>7}  {status}")
    if scale_rows:
        p("\n== scaling: ns per URL (ns per character) against URL length")
        for op in dict.fromkeys(r['op'] for r in scale_rows):
            p(f"  {op:<10} " + '  '.join(f"{r['size']}:{r['ns']:,.0f} ({r['ns_per_char']:.1f})" for r in scale_rows if r['op'] == op))
    if mem:
        p(f"\n== memory (bytes, mean over 2000 URLs): URI {mem['uri_tuple']:.0f} (with strings {mem['uri_deep']:.0f}); "
          f"SplitResult {mem['splitresult_tuple']:.0f} (with strings {mem['splitresult_deep']:.0f})")
    if cli:
        p("\n== streaming CLI (CPU seconds inside main, peak RSS)")
        for k, v in cli.items():
            p(f"  uri1630 {v['cmd']} - {v['lines']:>8,} lines  {v['cpu_s']:6.2f} s  {v['peak_rss_kb'] / 1024:6.1f} MB  (exit {v['rc']})")

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--quick', action='store_true', help='a short run (seconds), as in the notebook')
    ap.add_argument('--smoke', action='store_true', help='the shortest run: does everything still run? (CI)')
    ap.add_argument('--ops', nargs='*', help='only these operations')
    ap.add_argument('--json', help='also write the results to this file')
    ap.add_argument('--no-scaling', action='store_true')
    a = ap.parse_args(argv)
    quick = a.quick or a.smoke
    rows = run_all(quick, a.ops, 200 if a.smoke else None, 1 if a.smoke else None)
    sc = None if a.no_scaling else scaling(quick, (64, 1024) if a.smoke else (64, 256, 1024, 4096, 16384), 20 if a.smoke else None)
    mem, cli = memory(), cli_stream(quick, 500 if a.smoke else None)
    imp = import_time(3 if quick else 7)
    report(rows, sc, mem, cli, imp=imp)
    if a.json: Path(a.json).write_text(json.dumps(dict(rows=rows, goals=goals(rows, imp, cli), scaling=sc, memory=mem, cli=cli,
                                                       import_ms=imp, import_goal_ms=IMPORT_GOAL_MS), indent=1))
    return 0

if __name__ == '__main__': sys.exit(main())
