#!/usr/bin/env python3
"""Builds a subset of bench/build_fused.py's WORKLOADS: those whose tag
matches REGEX (every attention* and lstm_cell shape by default), same
options and bundle layout, so bench/run_fused.py runs it unchanged:

    /usr/bin/python3 bench/build_fused_subset.py build/fused-issue17 [--tags REGEX] [--options ...]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_fused  # noqa: E402


def main():
    argv = sys.argv[1:]
    pattern = r"^(attention.*|lstm_cell)$"
    if "--tags" in argv:
        i = argv.index("--tags")
        pattern = argv[i + 1]
        del argv[i:i + 2]
    build_fused.WORKLOADS = [w for w in build_fused.WORKLOADS if re.search(pattern, w[0])]
    sys.argv = [sys.argv[0]] + argv
    build_fused.main()


if __name__ == "__main__":
    main()
