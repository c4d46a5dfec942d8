"""Which riskboard is installed: the version in the distribution's metadata (pyproject's
`version`), the one `riskboard --version`, `riskboard doctor` and the host page name.

Read from `importlib.metadata` (no second copy of the number in the code to forget), once
per process, and only by what shows it: `riskboard <subcommand>` does not pay for it.
"""

from __future__ import annotations

from functools import lru_cache

DISTRIBUTION = "riskboard"
NOT_INSTALLED = "unknown (not installed; run `make .venv/.installed` or `pip install -e .`)"


@lru_cache(maxsize=1)
def installed_version() -> str:
    """The installed distribution's version, e.g. "0.1.0" (`NOT_INSTALLED` when the code
    runs from a folder that pip never installed)."""
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return NOT_INSTALLED


def version_line() -> str:
    """What `riskboard --version` prints: "riskboard 0.1.0"."""
    return f"{DISTRIBUTION} {installed_version()}"
