"""The package's version, in one place: the wheel's metadata reads it from here (pyproject.toml)."""

__version__ = "0.1.0"
