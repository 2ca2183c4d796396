"""Benchmarks, run by hand (python -m bench.<name>); figures go in the closing notes."""
