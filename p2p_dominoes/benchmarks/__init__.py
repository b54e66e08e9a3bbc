"""Benchmarks behind `p2p-dominoes bench`: they print figures and ratios."""
