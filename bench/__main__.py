"""Run every benchmark module in this package, one after another."""

import importlib
import pkgutil
import sys

import bench


def main() -> int:
    """Import and run `main()` of each bench module (but those that say
    `RUN_BY_MAKE_BENCH = False`); return non-zero if any failed."""
    failed = 0
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        if not getattr(module, "RUN_BY_MAKE_BENCH", True):
            print(f"== bench.{info.name} left out (long: run it alone)", flush=True)
            continue
        print(f"== bench.{info.name}", flush=True)
        try:
            module.main()
        except Exception as exc:  # report and go on with the others
            failed += 1
            print(f"bench.{info.name} failed: {exc!r}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
