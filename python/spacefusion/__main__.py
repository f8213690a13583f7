"""Command line: one command from a linalg file to a shared object.

    python3 -m spacefusion gpu FILE.mlir -o DIR [--chip sm_90a] [--entry NAME]
                               [--options "approx-math=false ..."]
    python3 -m spacefusion cpu FILE.mlir -o DIR [--entry NAME] [--unfused]

`gpu` writes DIR/libNAME.so (host code + embedded cubin; needs only the
NVIDIA driver at run time, next to DIR/libspacefusion_cuda_runtime.so) and
DIR/NAME.json (the signature and the kernel configuration). `cpu` writes
DIR/libNAME.so and DIR/NAME.json. Both export `_mlir_ciface_NAME(inputs...,
outputs...)` on memref descriptors (see docs/Integration.md). Errors print
the compiler's diagnostics and exit with status 1.
"""
import argparse
import json
import os
import shutil
import sys

from . import CompileError, compile as compile_cpu


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m spacefusion", description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=["gpu", "cpu"])
    parser.add_argument("file", help="MLIR file: linalg on tensors")
    parser.add_argument("-o", "--output", required=True, help="output directory")
    parser.add_argument("--entry", help="function to compile (default: the only one)")
    parser.add_argument("--chip", default="sm_90a", help="GPU chip (gpu only)")
    parser.add_argument("--options", default="",
                        help="more --spacefusion-lower-gpu options, e.g. \"approx-math=false\" (gpu only)")
    parser.add_argument("--unfused", action="store_true", help="skip fusion (cpu only)")
    args = parser.parse_args(argv)
    if args.options and args.target != "gpu":
        parser.error("--options applies to gpu only")
    with open(args.file) as f:
        source = f.read()
    os.makedirs(args.output, exist_ok=True)
    try:
        if args.target == "gpu":
            from .gpu import compile_gpu
            so = compile_gpu(source, args.output, chip=args.chip, entry=args.entry,
                             options=args.options)
        else:
            module = compile_cpu(source, entry=args.entry, fused=not args.unfused)
            so = os.path.join(args.output, "lib%s.so" % module.name)
            shutil.copy(module.path, so)
            name, inputs, outputs = module.name, module.inputs, module.outputs
            with open(os.path.join(args.output, name + ".json"), "w") as f:
                json.dump({"name": name, "inputs": inputs, "outputs": outputs,
                           "library": os.path.basename(so), "decisions": module.decisions}, f, indent=1)
    except CompileError as error:
        print(str(error), file=sys.stderr)
        return 1
    print(so)
    return 0


if __name__ == "__main__":
    sys.exit(main())
