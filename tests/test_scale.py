"""uri1630.scale on dask: a bag computed on a bounded distributed.LocalCluster on loopback gives exactly the
single-process results, for canonical, resolve and parse_url, on the shared corpus (or a synthetic one)."""
import os, random, urllib.parse
from pathlib import Path
import pytest

dask = pytest.importorskip("dask")
pytest.importorskip("distributed")
from uri1630.scale import from_lines, map_bag, map_partition, local_cluster, Failure, apply

from shared_corpus import corpus_lines


def _sample(n=1200, seed=35):
    "URLs from the corpus (web and file) or its vendored sample, a fixed random sample"
    urls = corpus_lines()   # the shared corpus, or the vendored sample (tests/shared_corpus.py)
    urls = sorted(set(urls))
    random.Random(seed).shuffle(urls)
    return urls[:n] + ["http://h/50%", "HTTP://H/a b", "ftp://u:p@h:21/d;type=x", ""]   # and some that fail


def _pairs(urls):
    "(context, link) lines: each URL with a relative form of another's path"
    web = [u for u in urls if u.startswith(('http:', 'https:', 'file:'))]
    out = []
    for i, base in enumerate(web):
        path = urllib.parse.urlsplit(web[(i * 31 + 7) % len(web)]).path or '/'
        out.append(f"{base}\t{['', '../', './', '/'][i % 4]}{path.rsplit('/', 1)[-1] or 'g'}")
    return out + ["not-absolute\tg", "magic://a/b/c//d/e/f\t../g"]


@pytest.fixture(scope="module")
def client():
    with local_cluster(n_workers=1, threads_per_worker=2, processes=False) as c:
        yield c


@pytest.mark.parametrize("op", ["canonical", "parse_url", "resolve"])
def test_cluster_equals_single_process(client, op):
    urls = _sample()
    items = _pairs(urls) if op == 'resolve' else urls
    from distributed import default_client
    assert default_client() is client                         # so .compute() below runs on the cluster
    expected = map_partition(items, op)                       # one process, no dask
    got = map_bag(from_lines(items, npartitions=4), op).compute()   # the cluster's client is the default scheduler
    assert got == expected
    assert any(isinstance(r, Failure) for r in got) and any(not isinstance(r, Failure) for r in got)


def test_files_and_drop(client, tmp_path):
    urls = _sample(400)
    for k in range(3): (tmp_path / f"part{k}.txt").write_text('\n'.join(urls[k::3]) + '\n', encoding='utf-8')
    got = sorted(map_bag(from_lines(str(tmp_path / "part*.txt")), 'canonical', errors='drop').compute())
    expected = sorted(r for r in map_partition(urls, 'canonical') if not isinstance(r, Failure))
    assert got == expected


def test_errors_raise_and_unknown_op():
    with pytest.raises(ValueError, match="unknown operation"): map_bag(from_lines(["a:b"]), 'nope')
    with pytest.raises(ValueError, match="errors must be"): map_partition(["a:b"], errors='ignore')
    from uri1630.errors import URIError
    with pytest.raises(URIError): map_partition(["http://h/50%"], errors='raise')
    assert isinstance(apply('canonical', "http://h/50%"), Failure)
