"""Fetch the widget JavaScript the docs site serves itself, from the npm registry, into docs/_vendor/.

The pages render ipywidgets from their saved state with @jupyter-widgets/html-manager (ipywidgets 8 ->
html-manager 1.x), loaded by RequireJS. Both are fetched once with `npm pack` (pinned versions, checked
against the registry's integrity hashes) and copied into the built site's _static/, so the site
references no CDN. docs/_vendor/ is a cache (gitignored): delete it to fetch again.
"""
import hashlib, base64, json, shutil, subprocess, sys, tarfile, tempfile
from pathlib import Path

VENDOR = Path(__file__).resolve().parent / "_vendor"
PACKAGES = {  # name@version: files to keep (from the tarball's package/ folder) -> name in _vendor/
    "@jupyter-widgets/html-manager@1.0.15": {"dist/embed-amd.js": "embed-amd.js"},
    "requirejs@2.3.8": {"require.js": "require.js"},
}
EXTRA_DIST = (".woff", ".woff2", ".ttf", ".eot", ".svg")  # fonts embed-amd.js loads relative to itself


def _pack(spec, tmp):
    "`npm pack SPEC` into `tmp`: (tarball path, integrity); without npm, the same tarball from the registry's own metadata"
    if shutil.which("npm"):
        r = subprocess.run(["npm", "pack", spec, "--json", "--silent"], cwd=tmp, capture_output=True, text=True)
        if r.returncode: sys.exit(f"npm pack {spec} failed: {r.stderr.strip()[-400:]}")
        info = json.loads(r.stdout)[0]
        return Path(tmp) / info["filename"], info["integrity"]
    import urllib.request
    name, _, version = spec.rpartition("@")
    with urllib.request.urlopen(f"https://registry.npmjs.org/{name.replace('/', '%2F')}/{version}", timeout=60) as f:
        dist = json.load(f)["dist"]
    tgz = Path(tmp) / "package.tgz"
    with urllib.request.urlopen(dist["tarball"], timeout=120) as f: tgz.write_bytes(f.read())
    return tgz, dist["integrity"]


def fetch(spec, files):
    with tempfile.TemporaryDirectory() as tmp:
        tgz, integrity = _pack(spec, tmp)
        algo, _, digest = integrity.partition("-")
        if base64.b64encode(hashlib.new(algo, tgz.read_bytes()).digest()).decode() != digest:
            sys.exit(f"{spec}: integrity check failed")
        with tarfile.open(tgz) as t:
            for m in t.getmembers():
                rel = m.name[len("package/"):]
                dest = files.get(rel)
                if dest is None and spec.startswith("@jupyter-widgets") and rel.startswith("dist/") and rel.endswith(EXTRA_DIST):
                    dest = rel[len("dist/"):]
                if dest:
                    (VENDOR / dest).write_bytes(t.extractfile(m).read())


def main():
    VENDOR.mkdir(exist_ok=True)
    stamp = VENDOR / "versions.json"
    if stamp.exists() and json.loads(stamp.read_text()) == sorted(PACKAGES): return
    for spec, files in PACKAGES.items(): fetch(spec, files)
    stamp.write_text(json.dumps(sorted(PACKAGES)))
    print(f"[docs] widget JavaScript from npm: {', '.join(PACKAGES)} -> {VENDOR}")


if __name__ == "__main__":
    main()
