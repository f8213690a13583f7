#!/usr/bin/env python3
"""SASS and resource report of the compute-bound kernels (issue 6 asks for
HMMA or HGMMA in the hot loop and no local-memory spills; HGMMA is wgmma,
UTMALDG a TMA load, SYNCS the mbarrier waits and arrivals; LDGSTS is cp.async,
SHFL and MUFU the row reductions and exp2 of register-level fusion).

    /usr/bin/python3 bench/sass_report.py build build/sass     # here: PTX -> cubin, ptxas -v
    python3 bench/sass_report.py report build/sass OUT.md      # on the GPU machine (cuobjdump)
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

WORKLOADS = [("attention", (32, 12, 512, 64)), ("attention", (4, 32, 2048, 128)), ("gemm", (8192, 4096, 4096)),
             ("mlp", (16384, 768, 3072)), ("gemm_chain", (8192, (1024, 1024, 1024)))]


def build(out):
    import spacefusion as sf
    import spacefusion.gpu  # noqa: F401 (sf.gpu)
    from spacefusion.compiler import find_tools
    from spacefusion.gpu import _cuda_env
    tools = find_tools(None)
    os.makedirs(out, exist_ok=True)
    ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
    manifest = []
    for name, args in WORKLOADS:
        source = (sf.workloads.gemm_chain(args[0], list(args[1]), dtype="f16") if name == "gemm_chain"
                  else getattr(sf.workloads, name)(*args, dtype="f16"))
        kernels_json = os.path.join(out, "kernels.json")
        lowered = subprocess.run([tools["spacefusion-opt"],
                                  "--spacefusion-lower-gpu=format=isa kernel-manifest=" + kernels_json, "-"],
                                 input=source, capture_output=True, text=True, env=_cuda_env(), check=True).stdout
        kernels = next(iter(sf.gpu.read_kernel_manifest(kernels_json).values()), [])
        tag = "%s_%s" % (name, "x".join(str(a) for a in (args[:1] + tuple(args[1]) if name == "gemm_chain"
                                                          else args)))
        for i, m in enumerate(re.finditer(r'assembly = "(.*?)"\s*>', lowered, re.S)):
            ptx = re.sub(r'\\([0-9A-Fa-f]{2})', lambda x: chr(int(x.group(1), 16)), m.group(1))
            base = os.path.join(out, "%s_%d" % (tag, i))
            with open(base + ".ptx", "w") as f:
                f.write(ptx)
            info = subprocess.run([ptxas, "-arch=sm_90a", "-v", base + ".ptx", "-o", base + ".cubin"],
                                  capture_output=True, text=True, check=True).stderr
            regs = re.search(r"Used (\d+) registers", info)
            spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", info)
            manifest.append({"workload": tag, "cubin": os.path.basename(base + ".cubin"),
                             "registers": int(regs.group(1)) if regs else None,
                             "spill_stores": int(spills.group(1)) if spills else None,
                             "spill_loads": int(spills.group(2)) if spills else None,
                             "kernel": sf.gpu.describe_kernel(kernels[i]) if i < len(kernels) else None})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def report(directory, out):
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    lines = ["# SASS of the compute-bound kernels (sm_90a)", "",
             "`ptxas -v` (CUDA 13.0) for registers and spills; `cuobjdump --dump-sass` on the H200 machine for "
             "the instruction mix (static counts over the kernel). Regenerate with `bench/sass_report.py`.", "",
             "| kernel | registers | spills (st/ld bytes) | HMMA | HGMMA | UTMALDG | SYNCS | LDSM | LDGSTS | LDG "
             "| STS | SHFL | MUFU | BAR | our kernel |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for entry in manifest:
        sass = subprocess.run(["cuobjdump", "--dump-sass", os.path.join(directory, entry["cubin"])],
                              capture_output=True, text=True).stdout
        ops = re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\d+\s+)?([A-Z][A-Z0-9]*)", sass)
        count = lambda prefix: sum(1 for o in ops if o.startswith(prefix))
        plain = lambda name: sum(1 for o in ops if o == name)
        lines.append("| %s | %s | %s/%s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s |" % (
            entry["workload"], entry["registers"], entry["spill_stores"], entry["spill_loads"], count("HMMA"),
            count("HGMMA"), count("UTMALDG"), count("SYNCS"), count("LDSM"), count("LDGSTS"), plain("LDG"), plain("STS"), count("SHFL"), count("MUFU"), count("BAR"),
            entry["kernel"]))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    else:
        report(sys.argv[2], sys.argv[3])
