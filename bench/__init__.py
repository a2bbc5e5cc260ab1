"""Benchmarks: each bench_*.py module has `main(argv) -> None` that prints its figures."""
