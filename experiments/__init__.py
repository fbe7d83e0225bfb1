"""Experiments: configs, the command line, tournaments and the benchmark runner."""
