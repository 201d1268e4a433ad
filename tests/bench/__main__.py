"""`make bench`: every benchmark once; the core figures print last, as the README shows."""

from importlib import import_module

# Device and window benchmarks first; the core's lines and the peer's are printed last.
ORDER = ("bench_floor", "bench_progressive", "bench_shoe", "bench_window", "bench_keys",
         "bench_sync", "bench_shift", "bench_analysis", "bench_bonus", "bench_core", "bench_peer")

for name in ORDER:
    try:
        module = import_module(f"tests.bench.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"tests.bench.{name}":
            raise
        continue
    module.main()
