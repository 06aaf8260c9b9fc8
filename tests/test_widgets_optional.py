"""Without ipywidgets, `uri1630.widgets` fails with the install command, and `uri1630.render` still works."""
import subprocess, sys, textwrap

BLOCK = textwrap.dedent("""
    import sys
    class Hide:   # as if ipywidgets were not installed
        def find_spec(self, name, path=None, target=None):
            if name == 'ipywidgets' or name.startswith('ipywidgets.'): raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    sys.meta_path.insert(0, Hide())
""")


def run(code):
    return subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


def test_widgets_without_ipywidgets_names_the_install_command():
    r = run("""
        try:
            import uri1630.widgets
        except ImportError as e:
            print("MSG", e)
        else:
            print("IMPORTED")
    """)
    assert r.returncode == 0, r.stderr
    assert 'MSG' in r.stdout and 'pip install "uri1630[widgets]"' in r.stdout, r.stdout


def test_render_without_ipywidgets():
    r = run("""
        import uri1630.render as R
        assert 'ipywidgets' not in sys.modules
        assert '<code class="u1630-result">magic://a/b/c//d/g</code>' in R.resolution_html("magic://a/b/c//d/e/f", "/g", "literal")
        assert 'u1630-result' in R.level_html("http://h/a%2Db", "canonical")
        assert 'FtpURL' in R.parse_html("ftp://info.cern.ch/pub/www/doc;type=d")
        print("OK")
    """)
    assert r.returncode == 0 and r.stdout.strip() == "OK", r.stderr


def test_blocker_is_real():   # the same blocker makes a plain `import ipywidgets` fail: the tests above test something
    r = run("import ipywidgets")
    assert r.returncode != 0 and "No module named 'ipywidgets'" in r.stderr
