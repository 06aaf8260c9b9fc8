"""Regenerate the vendored peer test tables in this folder from the peers' own test files.

    python tests/peers/extract.py SDIST_DIR [PYTHON_TEST_FILE ...]
    python tests/peers/extract.py --notebook     # only nbs/33_peers.json, from the tables here

SDIST_DIR holds the source distributions of rfc3986, uritools, hyperlink and w3lib, e.g. from
`pip download --no-deps --no-binary :all: rfc3986 uritools hyperlink w3lib -d SDIST_DIR` (the archives,
extracted or not). Each PYTHON_TEST_FILE is a CPython `Lib/test/test_urlparse.py` (e.g. from the pyenv
Pythons 3.10-3.13). The tables are read from the test files with `ast` (nothing is imported or run), and
written as `<peer>.json`, with each peer's licence beside it in `LICENSES/`. The test suite reads only the
JSON files; it never needs the sdists or the Pythons. The tables, with their licences, are also written as one
file beside the notebook that shows them, `nbs/33_peers.json` (a reader's copy of nbs/33_then_and_now.ipynb, in
JupyterLite too, reads it there; tests/test_peers.py checks that it is the one `notebook_table()` makes).

What is extracted (every matching call or table entry; nothing is filtered out here):
- cpython: every `self.checkJoin(base, relurl, expected)` call, deduplicated across versions (the
  versions that have each case are listed);
- uritools: every `self.check(base, ref, expected[, strict])` in tests/test_join.py and every
  `urijoin(...)` compared with `assertEqual`; every `(uri, parts)` entry of the `cases` lists in
  tests/test_split.py (bytes cases decoded as ASCII, then deduplicated);
- hyperlink: `relativeLinkTestsForRFC3986` (joined with `relativeLinkBaseForRFC3986`) and
  `ROUNDTRIP_TESTS` (texts hyperlink accepts and gives back unchanged) in test/test_url.py;
- rfc3986: `valid_hosts` and `invalid_hosts` of tests/conftest.py, used as its tests use them
  (`http://%s` must validate, `https://%s` must not), the scheme x host-name product `uri_to_normalize`
  (each equivalent to `https://example.com`), and the `paths` table of tests/test_normalizers.py
  (`remove_dot_segments`);
- w3lib: every `assert canonicalize_url(X, ...) == Y` in tests/test_url.py (keyword options kept).
"""
import ast, io, json, re, shutil, sys, tarfile
from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Unsupported(Exception): pass


def ev(node, env):
    "Evaluate a constant expression: literals, names bound in `env`, `self.NAME`, `+`, `*`, `%`, tuples and lists"
    if isinstance(node, ast.Constant): return node.value
    if isinstance(node, ast.Name):
        if node.id in env: return env[node.id]
        raise Unsupported(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == 'self':
        if node.attr in env: return env[node.attr]
        raise Unsupported(node.attr)
    if isinstance(node, (ast.Tuple, ast.List)): return [ev(e, env) for e in node.elts]
    if isinstance(node, ast.BinOp):
        a, b = ev(node.left, env), ev(node.right, env)
        if isinstance(node.op, ast.Add): return a + b
        if isinstance(node.op, ast.Mult): return a * b
        if isinstance(node.op, ast.Mod): return a % (tuple(b) if isinstance(b, list) else b)
    if isinstance(node, ast.Call) and getattr(node.func, 'attr', None) in ('decode', 'encode') and not node.args:
        return ev(node.func.value, env)                       # "...".encode() cases: the same text
    if isinstance(node, ast.Call) and getattr(node.func, 'attr', None) == 'param' and node.args:
        return ev(node.args[0], env)                          # pytest.param(x, id=...)
    raise Unsupported(ast.dump(node)[:60])


def text(v):
    "bytes cases are the same text as str ones (the peers test both)"
    if isinstance(v, bytes): return v.decode('latin-1')
    if isinstance(v, list): return [text(x) for x in v]
    return v


def assignments(tree):
    "Module- and class-level `NAME = constant` bindings"
    env = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try: env[node.targets[0].id] = ev(node.value, env)
            except Unsupported: pass
    return env


def calls(tree, name):
    "Every call of `name` or `self.name`"
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr == name) or (isinstance(f, ast.Name) and f.id == name): yield node


def add(cases, case):
    "Append `case` unless an identical one is there (bytes variants, repeated rows)"
    key = json.dumps({k: v for k, v in case.items() if k != 'where'}, sort_keys=True)
    if key not in {json.dumps({k: v for k, v in c.items() if k != 'where'}, sort_keys=True) for c in cases}: cases.append(case)


def cpython(files):
    by_key, versions = {}, []
    for f in files:
        src = Path(f).read_text(); tree = ast.parse(src); env = assignments(tree)
        v = re.search(r'python(3\.\d+)', str(f)); v = v.group(1) if v else str(f)
        versions.append(v)
        for c in calls(tree, 'checkJoin'):
            if len(c.args) != 3: continue
            base, rel, exp = (text(ev(a, env)) for a in c.args)
            by_key.setdefault((base, rel, exp), {'op': 'join', 'args': [base, rel], 'expected': exp,
                                                  'where': f'Lib/test/test_urlparse.py:{c.lineno}', 'versions': []})['versions'].append(v)
    return versions, list(by_key.values())


def sdist_root(sdists, name):
    d = Path(sdists)
    for p in sorted(d.iterdir()):
        if p.is_dir() and p.name.startswith(name + '-'): return p
    for p in sorted(d.iterdir()):
        if p.name.startswith(name + '-') and p.name.endswith('.tar.gz'):
            with tarfile.open(p) as t: t.extractall(d, filter='data')
            return d / p.name[:-len('.tar.gz')]
    raise SystemExit(f'no sdist of {name} in {sdists}')


def uritools(root):
    cases = []
    f = root / 'tests/test_join.py'; tree = ast.parse(f.read_text()); env = assignments(tree)
    for c in calls(tree, 'check'):
        a = [text(ev(x, env)) for x in c.args]
        kw = {k.arg: ev(k.value, env) for k in c.keywords}
        strict = a[3] if len(a) > 3 else kw.get('strict', False)
        add(cases, {'op': 'join', 'args': a[:2], 'expected': a[2], 'options': {'strict': strict} if strict else {},
                    'where': f'tests/test_join.py:{c.lineno}'})
    for c in calls(tree, 'assertEqual'):
        x = c.args[0]
        if isinstance(x, ast.Call) and getattr(x.func, 'id', None) == 'urijoin':
            add(cases, {'op': 'join', 'args': [text(ev(y, env)) for y in x.args[:2]], 'expected': text(ev(c.args[1], env)),
                        'options': {}, 'where': f'tests/test_join.py:{c.lineno}'})
    f = root / 'tests/test_split.py'; tree = ast.parse(f.read_text()); env = assignments(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], 'id', None) == 'cases' and isinstance(node.value, ast.List):
            for e in node.value.elts:
                try: uri, parts = ev(e, env)
                except (Unsupported, ValueError): continue
                if isinstance(parts, list) and len(parts) == 5:
                    add(cases, {'op': 'split', 'args': [text(uri)], 'expected': text(parts), 'where': f'tests/test_split.py:{e.lineno}'})
    return cases


def hyperlink(root):
    f = root / 'src/hyperlink/test/test_url.py'; tree = ast.parse(f.read_text()); env = assignments(tree)
    base, cases = env['relativeLinkBaseForRFC3986'], []
    for ref, exp in env['relativeLinkTestsForRFC3986']:
        add(cases, {'op': 'join', 'args': [base, ref], 'expected': exp, 'where': 'src/hyperlink/test/test_url.py: relativeLinkTestsForRFC3986'})
    for u in env['ROUNDTRIP_TESTS']:
        add(cases, {'op': 'valid', 'args': [u], 'expected': True, 'where': 'src/hyperlink/test/test_url.py: ROUNDTRIP_TESTS'})
    return cases


def rfc3986(root):
    f = root / 'tests/conftest.py'; tree = ast.parse(f.read_text()); env = assignments(tree)
    env.setdefault('SNOWMAN', b"\xe2\x98\x83")
    cases, inv = [], None
    for node in tree.body:                     # invalid_hosts holds SNOWMAN.decode("utf-8"): evaluate it here
        if isinstance(node, ast.Assign) and getattr(node.targets[0], 'id', None) == 'invalid_hosts':
            inv = [b"\xe2\x98\x83".decode() if isinstance(e, ast.Call) else ev(e, env) for e in node.value.elts]
    for h in env['valid_hosts']:
        add(cases, {'op': 'valid', 'args': ['http://%s' % h], 'expected': True, 'where': 'tests/conftest.py: valid_hosts (basic_uri)'})
    for h in inv:
        add(cases, {'op': 'valid', 'args': ['https://%s' % h], 'expected': False, 'where': 'tests/conftest.py: invalid_hosts (invalid_uri)'})
    for s, h in product(env['equivalent_schemes'], env['equivalent_hostnames']):
        add(cases, {'op': 'equivalent', 'args': ['%s://%s' % (s, h), 'https://example.com'], 'expected': True,
                    'where': 'tests/conftest.py: uri_to_normalize; tests/test_uri.py normalizes to https://example.com'})
    f = root / 'tests/test_normalizers.py'; tree = ast.parse(f.read_text()); env = assignments(tree)
    for p, n in env['paths']:
        add(cases, {'op': 'remove_dots', 'args': [p], 'expected': n, 'where': 'tests/test_normalizers.py: paths'})
    return cases


def w3lib(root):
    f = root / 'tests/test_url.py'; tree = ast.parse(f.read_text()); env = assignments(tree); cases = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
            left = node.left
            if isinstance(left, ast.Call) and getattr(left.func, 'id', None) == 'canonicalize_url' and left.args:
                try: x, y = ev(left.args[0], {}), ev(node.comparators[0], {})   # literals only: a name is a parameter, not a row
                except Unsupported: continue
                kw = {k.arg: ev(k.value, env) for k in left.keywords}
                add(cases, {'op': 'equivalent', 'args': [text(x), text(y)], 'expected': True, 'options': kw,
                            'bytes': isinstance(x, bytes), 'where': f'tests/test_url.py:{node.lineno}'})
    return cases


def version(root):
    m = re.search(r'^Version: (.+)$', (root / 'PKG-INFO').read_text(), re.M)
    return m.group(1).strip()


PEERS = ('cpython', 'rfc3986', 'uritools', 'hyperlink', 'w3lib')
NOTEBOOK_TABLE = HERE.parents[1] / 'nbs' / '33_peers.json'


def notebook_table():
    "The text of nbs/33_peers.json: every vendored table with its licence's text, one case a line"
    out = []
    for p in PEERS:
        d = json.loads((HERE / f'{p}.json').read_text(encoding='utf-8'))
        meta = {k: v for k, v in d.items() if k not in ('cases', 'licence_file')}
        meta['licence_text'] = (HERE / d['licence_file']).read_text(encoding='utf-8')
        head = json.dumps(meta, ensure_ascii=False)[:-1]
        cases = ',\n'.join('   ' + json.dumps(c, ensure_ascii=False) for c in d['cases'])
        out.append(f'  {json.dumps(p)}: {head}, "cases": [\n{cases}\n  ]}}')
    return ('{"generated_by": "tests/peers/extract.py --notebook (from tests/peers/*.json)", "peers": {\n'
            + ',\n'.join(out) + '\n}}\n')


def main(sdists, pythons):
    (HERE / 'LICENSES').mkdir(exist_ok=True)
    vs, cases = cpython(pythons)
    out = {'cpython': ({'peer': 'CPython urllib.parse (Lib/test/test_urlparse.py)', 'version': ', '.join(vs), 'licence': 'PSF-2.0',
                        'licence_file': 'LICENSES/cpython.txt'}, cases)}
    lic = Path(pythons[-1]).resolve().parents[1] / 'LICENSE.txt'
    if lic.exists(): shutil.copy(lic, HERE / 'LICENSES/cpython.txt')
    for name, fn, licence in [('rfc3986', rfc3986, 'Apache-2.0'), ('uritools', uritools, 'MIT'),
                              ('hyperlink', hyperlink, 'MIT'), ('w3lib', w3lib, 'BSD-3-Clause')]:
        root = sdist_root(sdists, name)
        shutil.copy(root / 'LICENSE', HERE / f'LICENSES/{name}.txt')
        out[name] = ({'peer': name, 'version': version(root), 'licence': licence, 'licence_file': f'LICENSES/{name}.txt'}, fn(root))
    for name, (meta, cases) in out.items():
        for i, c in enumerate(cases): c['id'] = f'{name}-{i:03d}'
        with open(HERE / f'{name}.json', 'w') as f:
            json.dump({**meta, 'extracted_by': 'tests/peers/extract.py', 'cases': cases}, f, indent=1, ensure_ascii=False); f.write('\n')
        print(f'{name} {meta["version"]}: {len(cases)} cases')
    NOTEBOOK_TABLE.write_text(notebook_table(), encoding='utf-8')


if __name__ == '__main__' and sys.argv[1:] == ['--notebook']:
    NOTEBOOK_TABLE.write_text(notebook_table(), encoding='utf-8')
    raise SystemExit(0)


if __name__ == '__main__':
    if len(sys.argv) < 3: raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2:])
