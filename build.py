#!/usr/bin/env python3
"""Build, serve, test and benchmark FreeCell Deals. Standard library only.

    python3 build.py                         build the static site into dist/
        [--plain]                            none of the start-up's speed-ups, into dist-plain/
        [--without LAYER,...]                all but these (LAYERS), into dist-without-LAYER.../
    python3 build.py serve [--port 8000]     build, then serve dist/ on http://127.0.0.1:8000/
        [--network fast|slow]                as a CDN over a shaped link (10 or 1.6 Mbit/s)
        [--plain | --without LAYER,...]      that site instead
    python3 build.py test [PYTEST ARGS...]   build, lint, type-check and run every test
        [--quick]                            only the quick tier: ruff, the library's and the
                                             command line's tests but the slow ones (no site)
    python3 build.py bench                   measure the dealer, the page (on loopback and over
                                             shaped networks, and Lighthouse's mobile audit), the
                                             solver and `freecell analyze` against `freecell solve`
                                             (docs/performance.md)
    python3 build.py wheel                   build the wheel into build/wheel/

FREECELL_SITE_URL=https://.../ (the site's address) makes the previews of shared links name
their picture by absolute URLs (SITE_URL); GitHub Pages' workflow sets it.

Every command first creates or updates the virtual environment `.venv` with the dependency
groups of pyproject.toml; it reinstalls only when pyproject.toml changed. The web runtime comes
from the npm package `pyodide`, pinned in web/package.json and web/package-lock.json.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import venv
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from devtools.chromium import find_chromium
from devtools.paths import DIST, PLAIN_DIST, PYODIDE, ROOT, WEB
from devtools.site_server import NETWORK_NAMES, NETWORKS, Cdn, Link, serve

VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
WHEEL_DIR = ROOT / "build" / "wheel"
PAGE_WHEEL_DIR = ROOT / "build" / "page-wheel"
PAGE_LEAVES_OUT = re.compile(
    r"freecell/(__main__\.py|_cli/.*)|_freecell_command\.py|[^/]+\.dist-info/entry_points\.txt"
)
"""The wheel's files that the page's copy of it leaves out: the command line, which the page
never runs (`freecell analyze` among it needs its extra's libraries, Dask and pyarrow, which
Pyodide has not)."""
COMPILED_DIR = ROOT / "build" / "compiled"
RUNTIME_DIR = ROOT / "build" / "runtime"
MICROPIP_DIR = ROOT / "build" / "micropip"
COMPILE_PYTHON = WEB / "tools" / "compile_python.mjs"
PYTHON_TOOLS = ("compile_python.py", "leave_out.py")
"""The Python that compile_python.mjs runs in the runtime, beside it."""
SHRINK_WASM = WEB / "tools" / "shrink_wasm.mjs"
SERVICE_WORKER = "sw.js"
LAZY = ("data/", "share/")
"""Files under these folders of the site are fetched when first asked for (the table of the
fewest free cells, when the page needs it; the picture a shared link shows, by a chat app's
reader, never by the page): the service worker keeps them then, instead of at its install."""
SITE_URL = "FREECELL_SITE_URL"
"""The environment variable that gives the site's address (https://.../, where index.html is
served) to a build: the previews of shared links (Open Graph, Twitter cards) then name their
picture and the page by absolute URLs, as Facebook's and X's readers need. Without it they stay
relative (share/table.png), which readers that resolve URLs against the page take."""
SHARED_URLS = re.compile(r'(<meta (?:property="og:image"|name="twitter:image") content=")([^"]*)"')
"""The previews' URLs in index.html that a site's address makes absolute."""
BUILD_LINE = re.compile(r'^const BUILD = "[^"]*";$', re.MULTILINE)
"""The line of sw.js that holds the build's id."""
# The runtime files the page loads (its WebAssembly, pyodide.asm.wasm, goes into a folder named
# by its content); the package's other files (its source-only standard library, the lock file
# of its packages, maps, the classic pyodide.js, console pages, type declarations) stay out.
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs"]
WASM = "pyodide.asm.wasm"
BUNDLES = {
    "app/page/main.js": ["./boot.js", "../../i18n/*"],
    "app/worker/worker.js": ["../../pyodide/*", "./snapshot.js"],
}
"""The page's two module graphs, each bundled by esbuild into its entry's file, and the modules
each leaves as files of their own: boot.js, which index.html also loads on its own (one module,
one worker); the languages; and what the worker imports only when it boots (the runtime,
snapshot.js). A browser then fetches two modules where it fetched thirty, three levels deep."""
SOURCES = [ROOT / "pyproject.toml", ROOT / "README.md", *sorted((ROOT / "py").rglob("*.py"))]
LAYERS = ("shrink", "compile", "stream", "bundles", "snapshot", "openings")
"""The start-up's speed-ups, each a layer over the plain boot with its switch: the build leaves
out those it is told to (`--without`, `--plain`: all), and manifest.json's `layers` tells the
page's code which are on. What each does and saves, and where: docs/architecture.md, "The
start-up in layers"."""


def log(message: str) -> None:
    """Print a progress line that stands out from the tools' own output."""
    print(f"build.py: {message}", flush=True)


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    """Run a command from the repository root; exit with its status if it fails."""
    result = subprocess.run([str(a) for a in args], cwd=ROOT, env=env, check=False)
    if result.returncode != 0:
        log(f"failed (exit {result.returncode}): {' '.join(str(a) for a in args)}")
        sys.exit(result.returncode)


def digest(paths: list[Path]) -> str:
    """Return a hash of the files' names and contents."""
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def ensure_venv(group: str = "test") -> None:
    """Create `.venv` and install a dependency group of pyproject.toml, unless it is current.

    The 'test' group includes the 'build' group, so it satisfies both.
    """
    stamp = VENV / f".installed-{group}"
    wanted = digest([ROOT / "pyproject.toml"])
    for current in {stamp, VENV / ".installed-test"}:
        if current.exists() and current.read_text() == wanted and VENV_PYTHON.exists():
            return
    if not VENV_PYTHON.exists():
        log("creating .venv")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    log(f"installing the '{group}' dependency group into .venv")
    # pip learned dependency groups (--group) in 25.1.
    run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=25.1")
    run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--group", f"pyproject.toml:{group}")
    stamp.write_text(wanted)


def build_wheel() -> Path:
    """Build the project's wheel into build/wheel/ (only when a source changed) and return it."""
    ensure_venv("build")
    stamp = WHEEL_DIR / ".sources"
    wanted = digest(SOURCES)
    wheels = sorted(WHEEL_DIR.glob("freecell_deals-*.whl"))
    if stamp.exists() and stamp.read_text() == wanted and len(wheels) == 1:
        return wheels[0]
    shutil.rmtree(WHEEL_DIR, ignore_errors=True)
    log("building the wheel")
    run(VENV / "bin" / "hatchling", "build", "--target", "wheel", "--dir", WHEEL_DIR)
    (wheel,) = WHEEL_DIR.glob("freecell_deals-*.whl")
    stamp.write_text(wanted)
    return wheel


def page_wheel(wheel: Path) -> Path:
    """Return the page's copy of the wheel: the same, less PAGE_LEAVES_OUT and their RECORD lines.

    The copy keeps each entry's date and compression, so the same wheel gives the same bytes.
    """
    target = PAGE_WHEEL_DIR / wheel.name
    shutil.rmtree(PAGE_WHEEL_DIR, ignore_errors=True)
    PAGE_WHEEL_DIR.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(target, "w") as copy:
        if not any(PAGE_LEAVES_OUT.fullmatch(name) for name in source.namelist()):
            sys.exit("build.py: the wheel has none of the files the page leaves out")
        for info in source.infolist():
            data = source.read(info)
            if PAGE_LEAVES_OUT.fullmatch(info.filename):
                continue
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode().splitlines(keepends=True)
                kept = [line for line in lines if not PAGE_LEAVES_OUT.fullmatch(line.split(",")[0])]
                data = "".join(kept).encode()
            copy.writestr(info, data)
    return target


def install_wheel(wheel: Path) -> None:
    """Install the built wheel into .venv, so the tests exercise what users get."""
    run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", wheel)


def install_runtime() -> dict[str, Any]:
    """Install the pinned Pyodide runtime with `npm ci`; return its version, lock info, micropip.

    `micropip` is the file name of the micropip wheel the runtime's lock names. The page loads
    no package from Pyodide's index (micropip comes by URL, our wheel from the site), so
    instead of the lock file (pyodide-lock.json, 120 KB) the worker gives loadPyodide an empty
    one with the same `info` (which it checks).
    """
    lock = WEB / "package-lock.json"
    stamp = WEB / "node_modules" / ".installed"
    if not (stamp.exists() and stamp.read_text() == digest([lock])):
        if shutil.which("npm") is None:
            log("npm is missing: install Node.js and npm (Debian: apt-get install nodejs npm)")
            sys.exit(1)
        log("installing the Pyodide runtime (npm ci)")
        run("npm", "ci", "--prefix", WEB, "--no-audit", "--no-fund", "--loglevel=error")
        stamp.write_text(digest([lock]))
    runtime = json.loads((PYODIDE / "package.json").read_text())
    lock = json.loads((PYODIDE / "pyodide-lock.json").read_text())
    micropip = lock["packages"]["micropip"]["file_name"]
    return {"pyodide": runtime["version"], "lockfile_info": lock["info"], "micropip": micropip}


def download_micropip(file_name: str) -> Path:
    """Download the micropip wheel the runtime's lock file names, from PyPI (once)."""
    wheel = MICROPIP_DIR / file_name
    if not wheel.exists():
        version = file_name.split("-")[1]
        log(f"downloading micropip {version} from PyPI")
        run(
            VENV_PYTHON, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary=:all:", "--python-version", "3.14", "--dest", MICROPIP_DIR,
            f"micropip=={version}",
        )  # fmt: skip
    if not wheel.exists():
        sys.exit(f"build.py: PyPI gave no {file_name}, the micropip that Pyodide's lock names")
    return wheel


def shrink_runtime(runtime: dict[str, Any]) -> Path:
    """Return the runtime the page loads: the npm package's, its WebAssembly shrunk (cached).

    A folder laid out as the package is (pyodide.mjs, pyodide.asm.mjs, the stock standard
    library and lock file), whose pyodide.asm.wasm lacks the exports no JavaScript of the
    runtime uses and the code only they reached (web/tools/shrink_wasm.mjs, with Binaryen):
    the page loads no shared library that could link against them. build/runtime/ keeps one
    per runtime and tool; compile_python() then boots the page's Python in it.
    """
    stamp = WEB / "node_modules" / ".installed"  # the npm lock's digest: Binaryen's version
    h = hashlib.sha256(stamp.read_bytes() + SHRINK_WASM.read_bytes())
    folder = RUNTIME_DIR / f"{runtime['pyodide']}-{h.hexdigest()[:16]}"
    if (folder / WASM).exists():
        return folder
    log(f"leaving out of Pyodide {runtime['pyodide']}'s WebAssembly what the page cannot call")
    shutil.rmtree(RUNTIME_DIR, ignore_errors=True)
    partial = folder.with_name(folder.name + ".partial")
    partial.mkdir(parents=True)
    for name in [*PYODIDE_FILES, "python_stdlib.zip", "pyodide-lock.json"]:
        shutil.copy2(PYODIDE / name, partial / name)
    run("node", SHRINK_WASM, PYODIDE, partial / WASM)
    partial.rename(folder)
    return folder


def compile_python(
    runtime: dict[str, Any], files: Path, micropip: Path, wheel: Path
) -> dict[str, Path]:
    """Return the page's Python, compiled to bytecode by the runtime itself (cached).

    By key: ``stdlib`` its standard library (what Python's start imports), ``stdlib_later``
    the rest of it (what the page's boot imports after the start: web/src/app/worker/stdlib.js),
    ``micropip`` and ``wheel`` the two wheels.

    web/tools/compile_python.mjs boots the runtime under Node.js, runs the page's boot and
    every request of its API, compile_python.py compiles what they imported (of our wheel,
    every module) and nothing else, and the results must boot the page in a fresh runtime,
    the page's own (`files`, from shrink_runtime()); build/compiled/ keeps one result per
    runtime version and inputs.
    """
    h = hashlib.sha256(runtime["pyodide"].encode())
    tools = [COMPILE_PYTHON, *(COMPILE_PYTHON.with_name(name) for name in PYTHON_TOOLS)]
    page = ("stdlib.js", "snapshot.js", "python.js")  # the page's modules the tool imports
    page_modules = [WEB / "src" / "app" / "worker" / name for name in page]
    inputs = [*tools, *page_modules, files / "python_stdlib.zip", files / WASM]
    inputs += [micropip, wheel]
    for path in inputs:
        h.update(path.read_bytes())
    folder = COMPILED_DIR / f"{runtime['pyodide']}-{h.hexdigest()[:16]}"
    results = {
        "stdlib": folder / "python_stdlib.zip",
        "stdlib_later": folder / "python_stdlib_later.zip",
        "micropip": folder / micropip.name,
        "wheel": folder / wheel.name,
    }
    if all(path.exists() for path in results.values()):
        folder.touch()  # used now: kept longest (see below)
        return results
    if shutil.which("node") is None:
        log("node is missing: install Node.js (Debian: apt-get install nodejs)")
        sys.exit(1)
    log(f"compiling the page's Python to bytecode in Pyodide {runtime['pyodide']}")
    # build/compiled/ keeps the latest few results: one for each set of inputs built lately.
    kept = sorted(COMPILED_DIR.glob("*"), key=lambda path: path.stat().st_mtime, reverse=True)
    for old in kept[6:]:
        shutil.rmtree(old, ignore_errors=True)
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    run("node", COMPILE_PYTHON, files, micropip, wheel, partial)
    partial.rename(folder)
    return results


def gzipped(path: Path) -> Path:
    """Return `path` gzipped, beside it (made once): how the site serves the stdlib's zips.

    Their members are stored (compile_python.py's build_stdlib), and the whole file gzipped
    takes fewer bytes than deflated members; a host compresses by type and leaves zip files
    alone, so the site serves it compressed itself, as `.gz`, which no host compresses again.
    The worker inflates it as it arrives (web/src/app/worker/downloads.js).
    """
    target = path.with_name(path.name + ".gz")
    if not target.exists():
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
        partial.rename(target)
    return target


PRELOADS_PLACEHOLDER = "<!-- build.py: the runtime's preloads -->"
RUNTIME_JS = "pyodide/pyodide.asm.mjs"
"""The runtime's JavaScript, the bulk of its code (the worker imports it): the page preloads it."""


def write_preloads(site: Path, urls: list[str]) -> None:
    """Put downloads of the runtime into the page as preloads, in place of the placeholder.

    The browser starts them with the page, before any script runs; the Python worker takes
    them from the browser's HTTP cache (app/page/boot.js reads them too, so that the browser sees
    them used). The one preload is the runtime's JavaScript, which fills the link while the
    worker starts. Not the standard library, more than three times its size (the worker starts
    it with the WebAssembly): Lighthouse's simulated phone waits for every download that ends
    before the largest paint, the loading line (docs/performance-log.md). Not the WebAssembly: the
    worker downloads it itself, so that the browser can keep its compiled code (see worker.js).
    Nor the wheels: the worker downloads them once the WebAssembly is in, see runtime.js. The
    service worker serves the page without preloads: its copies are at hand.
    """
    page = site / "index.html"
    text = page.read_text()
    if PRELOADS_PLACEHOLDER not in text:
        sys.exit(f"build.py: {PRELOADS_PLACEHOLDER} is missing from web/src/index.html")
    links = "\n  ".join(f'<link rel="preload" href="{url}" as="fetch" crossorigin>' for url in urls)
    page.write_text(text.replace(PRELOADS_PLACEHOLDER, links, 1))


def site_address(value: str | None) -> str | None:
    """Return the site's address as SITE_URL gives it (checked: http(s), ending in /), or None.

    >>> site_address("https://example.org/freecell/")
    'https://example.org/freecell/'
    >>> site_address("")
    """
    if not value:
        return None
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?/", value):
        sys.exit(f"build.py: {SITE_URL} must be the site's address, http(s)://.../, not {value!r}")
    return value


def write_site_address(page: str, address: str) -> str:
    """Return index.html's text with the previews' URLs absolute under `address`, and og:url.

    >>> text = '<meta property="og:image" content="share/table.png">'
    >>> write_site_address(text, "https://example.org/f/")  # doctest: +NORMALIZE_WHITESPACE
    '<meta property="og:image" content="https://example.org/f/share/table.png">
      <meta property="og:url" content="https://example.org/f/">'
    """
    text, count = SHARED_URLS.subn(lambda m: f'{m[1]}{urljoin(address, m[2])}"', page)
    if not count:
        sys.exit("build.py: index.html has no og:image or twitter:image to make absolute")
    tag = '<meta property="og:image" content="'
    at = text.index(">", text.index(tag)) + 1
    return f'{text[:at]}\n  <meta property="og:url" content="{address}">{text[at:]}'


def seal(site: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """Finish a built site: every file's size and hash and the build's id into manifest.json.

    The build's id hashes them all, and goes into sw.js too, so a new build is a new service
    worker, which installs exactly the files the manifest lists (checking their hashes), those
    marked ``lazy`` (under LAZY) when the page first asks for them.
    Returns the manifest.
    """
    skipped = {SERVICE_WORKER, "manifest.json"}
    files = {}
    for path in sorted(site.rglob("*")):
        name = path.relative_to(site).as_posix()
        if path.is_file() and not path.name.startswith(".") and name not in skipped:
            data = path.read_bytes()
            sha256 = base64.b64encode(hashlib.sha256(data).digest()).decode()
            files[name] = {"size": len(data), "integrity": f"sha256-{sha256}"}
            if name.startswith(LAZY):
                files[name]["lazy"] = True
    fields = {key: value for key, value in manifest.items() if key not in {"build", "files"}}
    build = hashlib.sha256(json.dumps([fields, files], sort_keys=True).encode()).hexdigest()[:16]
    manifest = {**fields, "build": build, "files": files}
    (site / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    sw = site / SERVICE_WORKER
    text, count = BUILD_LINE.subn(f"const BUILD = {json.dumps(build)};", sw.read_text(), count=1)
    if count != 1:
        sys.exit(f'build.py: `const BUILD = "...";` is missing from web/src/{SERVICE_WORKER}')
    sw.write_text(text)
    return manifest


def bundle_modules(site: Path) -> None:
    """Bundle each entry of BUNDLES into its file in `site`, and remove the modules now inside.

    esbuild keeps the code as written (no minifying: a stack trace names real functions), and
    each bundle sits where its entry did, so its relative URLs mean what they meant.
    """
    esbuild = WEB / "node_modules" / ".bin" / "esbuild"
    inside: set[str] = set()
    with tempfile.TemporaryDirectory() as folder:
        for entry, external in BUNDLES.items():
            meta = Path(folder) / "meta.json"
            run(
                esbuild, WEB / "src" / entry, "--bundle", "--format=esm", "--charset=utf8",
                "--log-level=warning", f"--outfile={site / entry}", "--allow-overwrite",
                f"--metafile={meta}", *(f"--external:{path}" for path in external),
            )  # fmt: skip
            sources = json.loads(meta.read_text())["inputs"]
            inside |= {(ROOT / name).relative_to(WEB / "src").as_posix() for name in sources}
    for name in sorted(inside - set(BUNDLES)):
        (site / name).unlink()


def write_rules() -> None:
    """Write web/src/app/page/rules.js, the library's facts the page needs (freecell._web.facts).

    Made by the library in the source tree (py/), so the page never holds a copy of its own;
    written only when it changes. Every build writes it, and so does the quick tier, which
    tests it (tests/library/test_rules_js.py).
    """
    made = subprocess.run(
        [sys.executable, "-c", "import freecell._web.facts as f; print(f.rules_module(), end='')"],
        env={**os.environ, "PYTHONPATH": str(ROOT / "py")}, check=True, capture_output=True,
        text=True, encoding="utf-8",
    )  # fmt: skip
    path = WEB / "src" / "app" / "page" / "rules.js"
    if not path.exists() or path.read_text(encoding="utf-8") != made.stdout:
        path.write_text(made.stdout, encoding="utf-8")


def site_folder(layers: frozenset[str]) -> Path:
    """Return where a site with these layers is built: dist/, dist-plain/ or dist-without-.../."""
    if layers == frozenset(LAYERS):
        return DIST
    if not layers:
        return PLAIN_DIST
    return ROOT / "-".join(["dist-without", *sorted(set(LAYERS) - layers)])


def chosen_layers(plain: bool, without: str | None) -> frozenset[str]:
    """Return the layers a command line asks for: all, none (`plain`), or all but `without`."""
    if plain:
        return frozenset()
    left_out = {name.strip() for name in (without or "").split(",") if name.strip()}
    if unknown := left_out - set(LAYERS):
        sys.exit(
            f"build.py: no layer {', '.join(sorted(unknown))}; the layers: {', '.join(LAYERS)}"
        )
    return frozenset(LAYERS) - left_out


def build_site(layers: frozenset[str] = frozenset(LAYERS)) -> Path:
    """Build a site with these LAYERS (site_folder's); return its folder. Relative URLs only.

    The page, the runtime, micropip and our wheel; without a layer, the step that makes it is
    left out, and manifest.json's `layers` tells the page's code it is off.
    """
    site = site_folder(layers)
    write_rules()
    wheel = page_wheel(build_wheel())
    runtime = install_runtime()
    micropip = download_micropip(runtime.pop("micropip"))
    files = shrink_runtime(runtime) if "shrink" in layers else PYODIDE
    stdlib: dict[str, Path] = {"stdlib": files / "python_stdlib.zip"}
    if "compile" in layers:
        compiled = compile_python(runtime, files, micropip, wheel)
        stdlib = {key: gzipped(compiled[key]) for key in ("stdlib", "stdlib_later")}
        micropip, wheel = compiled["micropip"], compiled["wheel"]
    log(f"building {site.relative_to(ROOT)}/")
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(WEB / "src", site)
    if "bundles" in layers:
        bundle_modules(site)
    (site / "pyodide").mkdir()
    stock = [] if "stream" in layers else ["pyodide-lock.json"]  # loadPyodide asks for it
    for name in [*PYODIDE_FILES, *stock]:
        shutil.copy2(files / name, site / "pyodide" / name)
    # The stdlib and the wheels each sit in a folder named by their content, so a browser's
    # cache can never hand a page another build's copy; the stdlib keeps its stock name,
    # python_stdlib.zip (gzipped: see gzipped). So does the WebAssembly, which the worker
    # downloads itself ("stream"); without, it is where loadPyodide looks, pyodide/.
    placed = {}
    for key, source, folder in (
        ("wasm", files / WASM, "pyodide" if "stream" in layers else None),
        *((key, path, "stdlib") for key, path in stdlib.items()),
        ("micropip", micropip, "wheels"),
        ("wheel", wheel, "wheels"),
    ):
        target = site / "pyodide" / source.name
        if folder is not None:
            target = site / folder / digest([source])[:12] / source.name
            target.parent.mkdir(parents=True)
        shutil.copy2(source, target)
        placed[key] = target.relative_to(site).as_posix()
    write_preloads(site, [RUNTIME_JS] if "stream" in layers else [])
    address = site_address(os.environ.get(SITE_URL))
    if address:
        page = site / "index.html"
        page.write_text(write_site_address(page.read_text(), address))
    seal(site, {**runtime, **placed, "layers": sorted(layers)})
    (site / ".nojekyll").write_text("")  # GitHub Pages: serve the files as they are
    return site


def command_serve(port: int, network: str | None, layers: frozenset[str]) -> None:
    """Build a site and serve it on 127.0.0.1 until interrupted (as a CDN, if `network`)."""
    site = build_site(layers)
    cdn = None if network is None else Cdn(link=Link(*NETWORKS[network]))
    with serve(site, port=port, cdn=cdn, quiet=False) as url:
        how = (
            "" if network is None else f" through the {network} network ({NETWORK_NAMES[network]})"
        )
        log(f"serving {site.relative_to(ROOT)}/ on {url}{how} (Ctrl+C stops)")
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            log("stopped")


def ensure_chromium() -> None:
    """Get a Chromium for the browser tests, or say exactly what to install."""
    try:
        if find_chromium():
            return
    except FileNotFoundError as error:
        log(f"{error}: point it at a Chromium or Chrome executable, or unset it")
        sys.exit(1)
    if os.geteuid() == 0 and shutil.which("apt-get"):
        log("installing Debian's chromium package for the browser tests")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run("apt-get", "update", "-qq", env=env)
        run("apt-get", "install", "-y", "-qq", "chromium", env=env)
    else:
        log("no Chromium found: trying Playwright's download")
        subprocess.run([VENV / "bin" / "playwright", "install", "chromium"], check=False)
    if not find_chromium():
        log(
            "the browser tests need Chromium: install it (Debian/Ubuntu: `sudo apt-get install "
            "chromium`; elsewhere `.venv/bin/playwright install chromium`), or set "
            "FREECELL_CHROMIUM to a Chromium or Chrome executable"
        )
        sys.exit(1)


def command_test(pytest_args: list[str], *, quick: bool = False) -> None:
    """Lint, type-check and run the whole test suite against the installed wheel.

    `quick`: the tier to try a change on first: ruff, then the tests of tests/library/ and
    tests/processes/ and the library's doctests, less those marked slow, against the wheel; no
    site is built and no browser starts (tests/conftest.py says what each folder needs).
    """
    ensure_venv("test")
    if quick:
        write_rules()
        install_wheel(build_wheel())
        log("ruff")
        run(VENV / "bin" / "ruff", "check", ".")
        log("pytest: the quick tier")
        timed_pytest(
            "tests/library", "tests/processes", "README.md", "--doctest-glob=README.md",
            "--pyargs", "freecell", "-m", "not slow and not site", "-n", "2", *pytest_args,
        )  # fmt: skip
        return
    build_site()
    build_site(frozenset())  # the plain site, which tests/page/test_plain.py plays on
    install_wheel(build_wheel())
    ensure_chromium()
    bin_dir = VENV / "bin"
    log("ruff")
    run(bin_dir / "ruff", "check", ".")
    run(bin_dir / "ruff", "format", "--check", ".")
    log("mypy --strict")
    run(bin_dir / "mypy")
    log("pytest")
    # The tests, the README's examples, and the docstrings of the installed wheel, shared by
    # two processes (pytest-xdist; each has its own browser; docs/performance.md has the
    # figures). `-n 0` runs them in one.
    timed_pytest(
        "tests", "README.md", "--doctest-glob=README.md", "--pyargs", "freecell", "-n", "2",
        *pytest_args,
    )  # fmt: skip


def timed_pytest(*args: str) -> None:
    """Run pytest in the virtual environment, then say its time and the CPU-seconds it took."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    started, busy = time.monotonic(), busy_cpu_seconds()
    run(VENV_PYTHON, "-m", "pytest", *args, env=env)
    seconds = time.monotonic() - started
    if busy is not None and (now := busy_cpu_seconds()) is not None:
        cores = os.cpu_count() or 1
        # The CPU-seconds say more than the time on a machine whose speed varies.
        log(
            f"pytest took {seconds:.0f} s; the machine was busy {now - busy:.0f} CPU-s "
            f"of {seconds * cores:.0f} ({cores} cores)"
        )


def busy_cpu_seconds() -> float | None:
    """Return the CPU time the whole machine has been busy since it started, or None if unknown.

    Linux's /proc/stat: all but idle and waiting for I/O, in seconds.
    """
    try:
        with Path("/proc/stat").open() as stat:
            ticks = [int(field) for field in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def command_bench() -> None:
    """Run the benchmarks and print their tables."""
    ensure_venv("test")
    build_site()
    install_wheel(build_wheel())
    ensure_chromium()
    # The benches run as modules of the package bench/, from the root (run's folder), where
    # they import devtools/ and one another.
    run(VENV_PYTHON, "-m", "bench.bench_dealer")
    run(VENV_PYTHON, "-m", "bench.bench_web")
    run(VENV_PYTHON, "-m", "bench.bench_solver")  # FREECELL_SOLVER_DEALS=N: 1..N only
    run(VENV_PYTHON, "-m", "bench.bench_analyze")  # FREECELL_ANALYZE_DEALS=N: 1..N only
    run(VENV_PYTHON, "-m", "bench.bench_hints")
    run(VENV_PYTHON, "-m", "bench.bench_network")
    run(VENV_PYTHON, "-m", "bench.bench_lighthouse")


def add_layer_options(parser: argparse.ArgumentParser) -> None:
    """Add the options that choose the site's LAYERS: --plain, --without."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--plain", action="store_true", help="none of the start-up's speed-ups: dist-plain/"
    )
    which.add_argument(
        "--without",
        metavar="LAYER,...",
        help="all the start-up's speed-ups but these (dist-without-LAYER.../): "
        + ", ".join(LAYERS),
    )


def main() -> None:
    """Parse the command line and run the command."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_layer_options(parser)
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="build, then serve dist/ locally")
    add_layer_options(serve)
    serve.add_argument("--port", type=int, default=8000, help="default 8000; 0 picks a free one")
    serve.add_argument(
        "--network",
        choices=sorted(NETWORKS),
        help="serve as a CDN (gzip, caching) over one shaped link: "
        + ", ".join(f"{name} {NETWORK_NAMES[name]}" for name in sorted(NETWORKS)),
    )
    test = sub.add_parser(
        "test", help="lint, type-check and run all tests (other arguments go to pytest)"
    )
    test.add_argument(
        "--quick",
        action="store_true",
        help="the quick tier: the library's and the command line's tests but the slow ones, "
        "against the wheel, with ruff; no site, no browser",
    )
    sub.add_parser("bench", help="run the benchmarks")
    sub.add_parser("wheel", help="build the wheel into build/wheel/")
    args, extra = parser.parse_known_args()
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "test":
        command_test(extra, quick=args.quick)
    elif args.command == "serve":
        command_serve(args.port, args.network, chosen_layers(args.plain, args.without))
    elif args.command == "bench":
        command_bench()
    elif args.command == "wheel":
        log(f"built {build_wheel().relative_to(ROOT)}")
    else:
        layers = chosen_layers(args.plain, args.without)
        site = build_site(layers).relative_to(ROOT)
        how = " --plain" if not layers else f" --without {args.without}" if args.without else ""
        log(f"built {site}/: serve it with `python3 build.py serve{how}`")


if __name__ == "__main__":
    main()
