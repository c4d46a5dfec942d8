"""Benchmarks, not part of the test run.

Run one with `python -m bench.<name>`, all of them with `python -m bench`.
"""
