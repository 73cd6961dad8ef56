#!/usr/bin/env python3
"""Build, serve, test and benchmark FreeCell Deals. Standard library only.

    python3 build.py                         build the static site into dist/
    python3 build.py serve [--port 8000]     build, then serve dist/ on http://127.0.0.1:8000/
    python3 build.py test [PYTEST ARGS...]   build, lint, type-check and run every test
    python3 build.py bench                   measure the dealer, the page and the solver
                                             (docs/performance.md)
    python3 build.py wheel                   build the wheel into build/wheel/

Every command first creates or updates the virtual environment `.venv` with the dependency
groups of pyproject.toml; it reinstalls only when pyproject.toml changed. The web runtime comes
from the npm package `pyodide`, pinned in web/package.json and web/package-lock.json; micropip
comes from PyPI, at the version the runtime's pyodide-lock.json names.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import venv
from http import HTTPStatus
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
WHEEL_DIR = ROOT / "build" / "wheel"
WEB = ROOT / "web"
DIST = ROOT / "dist"
PYODIDE = WEB / "node_modules" / "pyodide"
MICROPIP_DIR = ROOT / "build" / "micropip"
STDLIB_DIR = ROOT / "build" / "stdlib"
COMPILE_STDLIB = WEB / "tools" / "compile_stdlib.mjs"
# Left out of the page's standard library (unless its boot imports them): developer tools that
# a page never runs. Everything else stays importable.
STDLIB_EXCLUDED = ["__phello__/", "_pyrepl/", "doctest.py", "pdb.py", "pydoc.py", "unittest/"]
SERVICE_WORKER = "sw.js"
# The runtime files the page loads; the package's other files (maps, the classic pyodide.js,
# console pages, type declarations) stay out of the site.
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]
SOURCES = [ROOT / "pyproject.toml", ROOT / "README.md", *sorted((ROOT / "py").rglob("*.py"))]


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


def install_wheel(wheel: Path) -> None:
    """Install the built wheel into .venv, so the tests exercise what users get."""
    run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", wheel)


def install_runtime() -> dict[str, str]:
    """Install the pinned Pyodide runtime with `npm ci`; return its version and micropip's file."""
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
    micropip = json.loads((PYODIDE / "pyodide-lock.json").read_text())["packages"]["micropip"]
    return {"pyodide": runtime["version"], "micropip": micropip["file_name"]}


def download_micropip(file_name: str) -> Path:
    """Download the micropip wheel the runtime's lockfile names, from PyPI (once)."""
    wheel = MICROPIP_DIR / file_name
    if not wheel.exists():
        version = file_name.split("-")[1]
        log(f"downloading micropip {version} from PyPI")
        run(
            VENV_PYTHON, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary=:all:", "--python-version", "3.14", "--dest", MICROPIP_DIR,
            f"micropip=={version}",
        )  # fmt: skip
    return wheel


def compile_stdlib(runtime: dict[str, str], micropip: Path, dealer: Path) -> Path:
    """Return the page's standard library, compiled to bytecode by the runtime itself (cached).

    web/tools/compile_stdlib.mjs boots the runtime under Node.js, runs the page's boot and
    every request of its API, and compile_stdlib.py compiles what they imported; build/stdlib/
    keeps one result per runtime version and inputs.
    """
    h = hashlib.sha256(f"{runtime['pyodide']}\0{STDLIB_EXCLUDED}".encode())
    compiler = COMPILE_STDLIB.with_suffix(".py")
    for path in (COMPILE_STDLIB, compiler, PYODIDE / "python_stdlib.zip", micropip, dealer):
        h.update(path.read_bytes())
    folder = STDLIB_DIR / f"{runtime['pyodide']}-{h.hexdigest()[:16]}"
    result = folder / "python_stdlib.zip"
    if result.exists():
        return result
    if shutil.which("node") is None:
        log("node is missing: install Node.js (Debian: apt-get install nodejs)")
        sys.exit(1)
    log(f"compiling the standard library to bytecode in Pyodide {runtime['pyodide']}")
    shutil.rmtree(STDLIB_DIR, ignore_errors=True)
    folder.mkdir(parents=True)
    partial = folder / "python_stdlib.zip.partial"
    run("node", COMPILE_STDLIB, PYODIDE, micropip, dealer, partial, *STDLIB_EXCLUDED)
    partial.rename(result)
    return result


def write_service_worker(build: str) -> None:
    """Give dist/sw.js the build's id and the site's files, so a new build replaces its cache."""
    skipped = {SERVICE_WORKER, "pyodide/python_stdlib.zip"}  # the page loads stdlib/'s
    files = sorted(
        name
        for path in DIST.rglob("*")
        if path.is_file()
        and not path.name.startswith(".")
        and (name := path.relative_to(DIST).as_posix()) not in skipped
    )
    sw = DIST / SERVICE_WORKER
    text = sw.read_text()
    for placeholder, value in (('"BUILD"', build), ("[/* FILES */]", files)):
        if placeholder not in text:
            sys.exit(f"build.py: {placeholder} is missing from web/src/{SERVICE_WORKER}")
        text = text.replace(placeholder, json.dumps(value), 1)
    sw.write_text(text)


def build_site() -> None:
    """Build dist/: the page, the runtime, micropip and our wheel, with relative URLs only."""
    dealer = build_wheel()
    runtime = install_runtime()
    micropip = download_micropip(runtime["micropip"])
    stdlib = compile_stdlib(runtime, micropip, dealer)
    log("building dist/")
    shutil.rmtree(DIST, ignore_errors=True)
    shutil.copytree(WEB / "src", DIST)
    (DIST / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, DIST / "pyodide" / name)
    # Our wheel's folder is named by its content, so a new build is never served from a cache.
    dealer_dir = DIST / "wheels" / digest([dealer])[:12]
    dealer_dir.mkdir(parents=True)
    shutil.copy2(dealer, dealer_dir / dealer.name)
    shutil.copy2(micropip, DIST / "wheels" / micropip.name)
    # The stdlib keeps its stock name (python_stdlib.zip) in a folder named by its content; the
    # stock one stays in pyodide/ for comparison (bench/bench_web.py) but the page never loads it.
    stdlib_dir = DIST / "stdlib" / digest([stdlib])[:12]
    stdlib_dir.mkdir(parents=True)
    shutil.copy2(stdlib, stdlib_dir / stdlib.name)
    site = sorted(path for path in DIST.rglob("*") if path.is_file())
    manifest = {
        "pyodide": runtime["pyodide"],
        "build": digest(site)[:16],
        "stdlib": f"{stdlib_dir.relative_to(DIST)}/{stdlib.name}",
        "micropip": f"wheels/{micropip.name}",
        "dealer": f"{dealer_dir.relative_to(DIST)}/{dealer.name}",
    }
    (DIST / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    write_service_worker(manifest["build"])
    (DIST / ".nojekyll").write_text("")  # GitHub Pages: serve the files as they are


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serve a built site with the types a browser needs for modules and WebAssembly.

    `build.py serve`, the browser tests and the bench all serve with it. With a `prefix`, only
    paths under it exist (the prefix is stripped), others are 404; `quiet` logs nothing;
    `headers` go with every response.
    """

    extensions_map = {  # noqa: RUF012 - the base class declares it as a plain dict
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".svg": "image/svg+xml",
        ".zip": "application/zip",
        ".whl": "application/zip",
    }

    def __init__(
        self,
        *args: Any,
        directory: str,
        prefix: str = "/",
        quiet: bool = False,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.prefix = prefix
        self.quiet = quiet
        self.extra_headers = headers or {}
        super().__init__(*args, directory=directory)

    def end_headers(self) -> None:
        """Send the extra headers (such as a Content-Security-Policy) with every response."""
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def _strip_prefix(self) -> bool:
        """Map the request path into the site; answer 404 and return False if it is outside."""
        if not self.path.startswith(self.prefix):
            self.send_error(HTTPStatus.NOT_FOUND, "outside the served prefix")
            return False
        self.path = "/" + self.path.removeprefix(self.prefix)
        return True

    def do_GET(self) -> None:
        """Serve a file under the prefix."""
        if self._strip_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:
        """Answer a HEAD request for a file under the prefix."""
        if self._strip_prefix():
            super().do_HEAD()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """Log a request, unless quiet."""
        if not self.quiet:
            super().log_message(format, *args)


def command_serve(port: int) -> None:
    """Build the site and serve it on 127.0.0.1 until interrupted."""
    build_site()
    handler = functools.partial(SiteHandler, directory=str(DIST))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        log(f"serving dist/ on http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            log("stopped")


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""How the browser tests and the bench start Chromium: headless-safe, and quiet on a closed
network (no background requests, updates or sync)."""


def find_chromium() -> str | None:
    """Return how the browser tests will find Chromium, or None if they cannot."""
    if os.environ.get("FREECELL_CHROMIUM"):
        return os.environ["FREECELL_CHROMIUM"]
    if path := shutil.which("chromium"):
        return path
    cache = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", Path.home() / ".cache/ms-playwright"))
    if any(cache.glob("chromium*/chrome-linux*/chrome")):
        return "Playwright's own Chromium"
    return None


def ensure_chromium() -> None:
    """Get a Chromium for the browser tests, or say exactly what to install."""
    if find_chromium():
        return
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


def command_test(pytest_args: list[str]) -> None:
    """Lint, type-check and run the whole test suite against the installed wheel."""
    ensure_venv("test")
    build_site()
    install_wheel(build_wheel())
    ensure_chromium()
    bin_dir = VENV / "bin"
    log("ruff")
    run(bin_dir / "ruff", "check", ".")
    run(bin_dir / "ruff", "format", "--check", ".")
    log("mypy --strict")
    run(bin_dir / "mypy")
    log("pytest")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    # The tests, the README's examples, and the docstrings of the installed wheel.
    run(
        VENV_PYTHON, "-m", "pytest", "tests", "README.md", "--doctest-glob=README.md",
        "--pyargs", "freecell", *pytest_args, env=env,
    )  # fmt: skip


def command_bench() -> None:
    """Run the benchmarks and print their tables."""
    ensure_venv("test")
    build_site()
    install_wheel(build_wheel())
    ensure_chromium()
    run(VENV_PYTHON, ROOT / "bench" / "bench_dealer.py")
    run(VENV_PYTHON, ROOT / "bench" / "bench_web.py")
    run(VENV_PYTHON, ROOT / "bench" / "bench_solver.py")  # FREECELL_SOLVER_DEALS=N: 1..N only
    run(VENV_PYTHON, ROOT / "bench" / "bench_hints.py")


def main() -> None:
    """Parse the command line and run the command."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="build, then serve dist/ locally")
    serve.add_argument("--port", type=int, default=8000, help="default 8000; 0 picks a free one")
    sub.add_parser("test", help="lint, type-check and run all tests (other arguments go to pytest)")
    sub.add_parser("bench", help="run the benchmarks")
    sub.add_parser("wheel", help="build the wheel into build/wheel/")
    args, extra = parser.parse_known_args()
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "test":
        command_test(extra)
    elif args.command == "serve":
        command_serve(args.port)
    elif args.command == "bench":
        command_bench()
    elif args.command == "wheel":
        log(f"built {build_wheel().relative_to(ROOT)}")
    else:
        build_site()
        log("built dist/: serve it with `python3 build.py serve`")


if __name__ == "__main__":
    main()
