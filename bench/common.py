"""What every benchmark records besides its own rows: the machine, the
project commit the bundle was built from, and the ceilings of the device
measured in the same process (../shared/docs/baselines.md, "How to measure").
"""
import datetime
import json
import os
import subprocess


def write_bundle_info(bundle):
    """On the build machine: records the commit a bundle is built from."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

    def git(*args):
        try:
            return subprocess.run(["git", "-C", root] + list(args), capture_output=True,
                                  text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""
    info = {"commit": git("rev-parse", "--short=12", "HEAD") or "unknown",
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
            "built": str(datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0))}
    with open(os.path.join(bundle, "bundle.json"), "w") as f:
        json.dump(info, f, indent=1)


def machine_info(bundle):
    """On the GPU machine: device, driver, library versions, date, commit."""
    import torch
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        driver = "unknown"
    info = {"device": torch.cuda.get_device_name(), "driver": driver, "torch": torch.__version__,
            "cuda": torch.version.cuda, "date": str(datetime.date.today())}
    try:
        with open(os.path.join(bundle, "bundle.json")) as f:
            built = json.load(f)
        info["commit"] = built["commit"] + ("+dirty" if built.get("dirty") else "")
    except (OSError, ValueError, KeyError):
        info["commit"] = "unknown"
    return info


def describe(info):
    return "%s (driver %s), PyTorch %s, CUDA %s, %s, project commit %s" % (
        info["device"], info["driver"], info["torch"], info["cuda"], info["date"], info["commit"])


def run_checked(module, *tensors):
    """Runs a GPUModule once and waits for it: None, or the runtime error as
    (code, message), faults that surface only at the synchronization
    included."""
    import torch
    from spacefusion.gpu import GPURuntimeError
    try:
        module(*tensors)
        torch.cuda.synchronize()
        module.check()
    except GPURuntimeError as e:
        return (e.code, e.message)
    return None


def median_ms(call, rep=200):
    """Median of triton.testing.do_bench: CUDA events, L2 flushed between runs."""
    import triton.testing
    return triton.testing.do_bench(call, warmup=25, rep=rep, return_mode="median")


def copy_ceiling_GBps(megabytes=512):
    """Device-to-device copy, bytes read + written: the memory-bound ceiling."""
    import torch
    n = megabytes * (1 << 20) // 2
    src = torch.randn(n, device="cuda", dtype=torch.float16)
    dst = torch.empty_like(src)
    ms = median_ms(lambda: dst.copy_(src))
    return 2 * src.numel() * 2 / (ms * 1e-3) / 1e9


def gemm_ceiling_TFLOPs(size=8192):
    """cuBLAS on a square fp16 GEMM: the tensor-core ceiling."""
    import torch
    dtype = torch.float16
    a = torch.randn(size, size, device="cuda", dtype=dtype)
    b = torch.randn(size, size, device="cuda", dtype=dtype)
    ms = median_ms(lambda: torch.matmul(a, b))
    return 2 * size ** 3 / (ms * 1e-3) / 1e12
