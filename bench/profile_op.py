"""Profile one uri1630 operation on the corpus, the way the figures in nbs/34_performance.ipynb were explained.

    python bench/profile_op.py canonical            # pyinstrument call tree (the `bench` extra), 5,000 corpus items
    python bench/profile_op.py relative --cprofile  # cProfile, sorted by own time
Operations: parse, validate, canonical, resolve, relative, parse_url.
"""
import argparse, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
import run


def items_and_function(op, n):
    "The corpus items an operation takes, and the uri1630 function (called with one item or a pair)"
    urls = run.load_corpus(n)
    fn = dict((name, f) for name, f, _ in run.contenders().get(op, ()) if name.startswith('uri1630.'))
    f = fn.get(f'uri1630.{op}')
    if f is None: sys.exit(f"uri1630 has no {op!r} yet (or it is not importable)")
    if op == 'resolve': return run.link_pairs(urls), f, 2
    if op == 'relative': return [(b, run._target(b, r)) for b, r in run.link_pairs(urls)], f, 2
    if op == 'parse_url': urls = [u for u in urls if u.startswith(('http:', 'https:', 'file:'))]
    return urls, f, 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('op'); ap.add_argument('-n', type=int, default=5000)
    ap.add_argument('--cprofile', action='store_true', help='use cProfile (stdlib) instead of pyinstrument')
    a = ap.parse_args(argv)
    items, f, arity = items_and_function(a.op, a.n)
    loop = (lambda: run._loop1(f, items)) if arity == 1 else (lambda: run._loop2(f, items))
    loop()                                            # warm: compiled regexes, tables
    if a.cprofile:
        import cProfile, pstats
        pr = cProfile.Profile(); pr.enable(); loop(); pr.disable()
        pstats.Stats(pr).sort_stats('tottime').print_stats(15)
    else:
        from pyinstrument import Profiler
        with Profiler(interval=0.0002) as p: loop()
        print(p.output_text(color=False, show_all=False))
    return 0


if __name__ == '__main__': sys.exit(main())
