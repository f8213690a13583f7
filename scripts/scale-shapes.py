#!/usr/bin/env python3
"""Rewrites the static sizes of an MLIR file: scale-shapes.py in.mlir 4096=64 768=128

Every integer token equal to a given size (in tensor types, output_shape
lists and slice sizes) is replaced; floats such as 7.68e+02 are left alone.
Tests use it to run the examples at smaller or different shapes.
"""
import re
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    text = open(sys.argv[1]).read()
    mapping = dict(arg.split("=") for arg in sys.argv[2:])
    # An integer token: not part of a float, an SSA name or an identifier.
    pattern = re.compile(r"(?<![\w.%#@])(\d+)(?![\w.]*\d*e[+-]|\.\d)")
    text = pattern.sub(lambda m: mapping.get(m.group(1), m.group(1)), text)
    # tensor<4096x768xf32>: sizes glued by 'x' are tokens too.
    text = re.sub(r"tensor<([0-9x?]+)x([a-z])",
                  lambda m: "tensor<" + "x".join(mapping.get(d, d) for d in m.group(1).split("x")) + "x" + m.group(2),
                  text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
