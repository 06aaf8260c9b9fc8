# note: all settings are in settings.ini; edit there, not here
from configparser import ConfigParser
import setuptools, shlex

assert int(setuptools.__version__.split('.')[0]) >= 77, 'setuptools >= 77 (PEP 639 licence expression) is needed'
config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

cfg_keys = 'version description keywords author author_email'.split()
expected = cfg_keys + "lib_name user branch license status min_python audience language".split()
for o in expected: assert o in cfg, "missing expected setting: {}".format(o)
setup_cfg = {o: cfg[o] for o in cfg_keys}

# settings.ini's licence key -> the SPDX expression (PEP 639 License-Expression; no deprecated 'License ::' classifier)
licenses = {'apache2': 'Apache-2.0', 'mit': 'MIT'}
# settings.ini's status is the classifier's own number ('3' is '3 - Alpha'), not an index into this list
statuses = {s.split(' - ')[0]: s for s in ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']}
py_versions = '3.11 3.12 3.13'.split()   # the versions CI tests (.ci/steps/20-pythons.sh)

def reqs(key):
    "The requirements listed under `key` in settings.ini"
    return shlex.split(cfg.get(key, '').strip())

# every `<name>_requirements` key becomes the extra `<name>`
extras = {k[:-len('_requirements')]: reqs(k) for k in cfg if k.endswith('_requirements') and k != 'requirements'}
extras['all'] = sorted({r for k, v in extras.items() if k not in ('dev', 'all') for r in v})
# one install for contributors (#28): `dev` is its own tools and every other extra, all that the tests, the
# notebooks and the CI steps import (tests/test_reader.py checks it against their imports)
extras['dev'] = sorted(set(extras.get('dev', [])) | set(extras['all']))
# the licence itself is declared in pyproject.toml (`license`, `license-files`): check the two agree
import tomllib
with open('pyproject.toml', 'rb') as f: assert tomllib.load(f)['project']['license'] == licenses[cfg['license'].lower()]
min_python = cfg['min_python']
dev_requirements = extras.get('dev', [])

setuptools.setup(
    name=cfg['lib_name'],
    classifiers=[
        'Development Status :: ' + statuses[cfg['status'].strip()],
        'Intended Audience :: ' + cfg['audience'].title(),
        'Natural Language :: ' + cfg['language'].title(),
        'Programming Language :: Python :: 3 :: Only', 'Typing :: Typed',
    ] + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]],
    # no url/project_urls: settings.ini's git_url and doc_host are nbdev's link base, not public addresses
    packages=setuptools.find_packages(include=[cfg['lib_path'], cfg['lib_path'] + '.*']),
    include_package_data=True,
    install_requires=reqs('requirements'),
    extras_require=extras,
    dependency_links=cfg.get('dep_links', '').split(),
    python_requires='>=' + cfg['min_python'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    entry_points={
        'console_scripts': cfg.get('console_scripts', '').split(),
        'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d'],
    },
    **setup_cfg)
