"""`python -m bench [NAME ...]` runs every bench/bench_*.py (or the named ones) and prints figures.

Benchmarks print numbers and ratios against a baseline run in the same process; they assert
nothing about time. Pass `--quick` for a short run; arguments after `--` go to each named bench
(`python -m bench gateway -- --quick --against main`).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import bench


def main(argv: list[str]) -> int:
    argv, passed = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, None)
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    options = [a for a in argv if a.startswith("-")]
    if {"-h", "--help"} & set(options):
        print(__doc__.strip(), f"\n\nbenchmarks: {', '.join(n[6:] for n in names)}")
        return 0
    strange = [o for o in options if o != "--quick"]
    if strange:  # a bench's own option before `--` would be dropped silently: a long run of the wrong thing
        print(f"unknown option(s): {', '.join(strange)}; the runner takes --quick, a bench's own go after `--`")
        return 2
    quick = "--quick" in argv
    wanted = [a for a in argv if not a.startswith("-")]
    unknown = [w for w in wanted if f"bench_{w}" not in names and w not in names]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(n[6:] for n in names)}")
        return 2
    for name in names:
        if wanted and name not in wanted and name[6:] not in wanted:
            continue
        print(f"== {name[6:]}", flush=True)
        started = time.perf_counter()
        importlib.import_module(f"bench.{name}").main(passed if passed is not None else ["--quick"] if quick else [])
        print(f"   ({time.perf_counter() - started:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
