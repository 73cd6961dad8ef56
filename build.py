#!/usr/bin/env python3
"""Build, serve, test and benchmark FreeCell Deals. Standard library only.

    python3 build.py test [PYTEST ARGS...]   lint, type-check and run every test
    python3 build.py bench                   measure the dealer against pysol-cards
    python3 build.py wheel                   build the wheel into build/wheel/

Every command first creates or updates the virtual environment `.venv` with the dependency
groups of pyproject.toml; it reinstalls only when pyproject.toml changed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
WHEEL_DIR = ROOT / "build" / "wheel"
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


def command_test(pytest_args: list[str]) -> None:
    """Lint, type-check and run the whole test suite against the installed wheel."""
    ensure_venv("test")
    install_wheel(build_wheel())
    bin_dir = VENV / "bin"
    log("ruff")
    run(bin_dir / "ruff", "check", ".")
    run(bin_dir / "ruff", "format", "--check", ".")
    log("mypy --strict")
    run(bin_dir / "mypy")
    log("pytest")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    run(VENV_PYTHON, "-m", "pytest", "tests", "--pyargs", "freecell", *pytest_args, env=env)


def command_bench() -> None:
    """Run the benchmarks and print their tables."""
    ensure_venv("test")
    install_wheel(build_wheel())
    run(VENV_PYTHON, ROOT / "bench" / "bench_dealer.py")


def main() -> None:
    """Parse the command line and run the command."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("test", help="lint, type-check and run all tests (other arguments go to pytest)")
    sub.add_parser("bench", help="run the benchmarks")
    sub.add_parser("wheel", help="build the wheel into build/wheel/")
    args, extra = parser.parse_known_args()
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "test":
        command_test(extra)
    elif args.command == "bench":
        command_bench()
    else:
        log(f"built {build_wheel().relative_to(ROOT)}")


if __name__ == "__main__":
    main()
