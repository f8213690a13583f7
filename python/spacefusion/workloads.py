"""Workloads as linalg on tensors, for any shape and dtype, and their numpy
references (computed in float32).

Every generator returns the text of one `func.func` named after the workload.
For f16 and bf16 the inputs and outputs have that type and the computation
runs in f32 (an `arith.extf` per input, an `arith.truncf` per output), as
mixed-precision kernels do.
"""

import functools
import inspect
import numbers

import numpy as np

_F32 = "f32"


class _Func:
    """Accumulates the body of one function."""

    def __init__(self, name, dtype):
        self.name = name
        self.dtype = dtype
        self.args = []
        self.lines = []
        self.counter = 0

    def fresh(self, base):
        self.counter += 1
        return "%%%s%d" % (base, self.counter)

    @staticmethod
    def tensor(shape, dtype=_F32):
        return "tensor<%s>" % "x".join([str(s) for s in shape] + [dtype])

    def arg(self, name, shape):
        """An input of the workload's dtype, as an f32 value."""
        self.args.append("%%%s: %s" % (name, self.tensor(shape, self.dtype)))
        value = "%" + name
        if self.dtype != _F32:
            value = self.convert(value, shape, self.dtype, _F32, "arith.extf")
        return value

    def raw_arg(self, name, shape):
        """An input of the workload's dtype, as it is (no conversion)."""
        self.args.append("%%%s: %s" % (name, self.tensor(shape, self.dtype)))
        return "%" + name

    def int_arg(self, name, shape, dtype="i64"):
        """An integer input (indices, lengths), as it is."""
        self.args.append("%%%s: %s" % (name, self.tensor(shape, dtype)))
        return "%" + name

    def const(self, value):
        name = self.fresh("c")
        self.lines.append("  %s = arith.constant %s : f32" % (name, _float(value)))
        return name

    def empty(self, shape, dtype=_F32):
        name = self.fresh("e")
        self.lines.append("  %s = tensor.empty() : %s" % (name, self.tensor(shape, dtype)))
        return name

    def fill(self, value, shape):
        scalar = self.const(value)
        name = self.fresh("f")
        t = self.tensor(shape)
        self.lines.append("  %s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s"
                          % (name, scalar, self.empty(shape), t, t))
        return name

    def generic(self, dims, inputs, out_shape, out_map, body, init=None, reduce=(),
                out_dtype=_F32, in_dtypes=None):
        """A linalg.generic over `dims`; inputs are (value, shape, map) with maps
        as lists of dim names; `body(args, acc)` returns scalar op lines and
        the yielded value."""
        iters = ", ".join('"reduction"' if d in reduce else '"parallel"' for d in dims)
        maps = ["affine_map<(%s) -> (%s)>" % (", ".join(dims), ", ".join(m))
                for _, _, m in inputs] + ["affine_map<(%s) -> (%s)>" % (", ".join(dims), ", ".join(out_map))]
        in_dtypes = in_dtypes or [_F32] * len(inputs)
        ins = ", ".join(v for v, _, _ in inputs)
        in_types = ", ".join(self.tensor(s, t) for (_, s, _), t in zip(inputs, in_dtypes))
        out_t = self.tensor(out_shape, out_dtype)
        init = init or self.empty(out_shape, out_dtype)
        name = self.fresh("g")
        args = ["%%in%d" % i for i in range(len(inputs))]
        block = ", ".join("%s: %s" % (a, t) for a, t in zip(args + ["%acc"], in_dtypes + [out_dtype]))
        ops, result = body(args, "%acc")
        self.lines.append("  %s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
                          % (name, ", ".join(maps), iters))
        self.lines.append("      ins(%s : %s) outs(%s : %s) {" % (ins, in_types, init, out_t))
        self.lines.append("  ^bb0(%s):" % block)
        self.lines += ["    " + op for op in ops]
        self.lines.append("    linalg.yield %s : %s" % (result, out_dtype))
        self.lines.append("  } -> %s" % out_t)
        return name

    def convert(self, value, shape, src, dst, op):
        dims = ["d%d" % i for i in range(len(shape))]
        return self.generic(dims, [(value, shape, dims)], shape, dims,
                            lambda a, acc: (["%%y = %s %s : %s to %s" % (op, a[0], src, dst)], "%y"),
                            out_dtype=dst, in_dtypes=[src])

    def finish(self, results, out_dtype=None):
        """`results` are (f32 value, shape) pairs, converted to `out_dtype`
        (the workload's dtype by default)."""
        out_dtype = out_dtype or self.dtype
        values, types = [], []
        for value, shape in results:
            if out_dtype != _F32:
                value = self.convert(value, shape, _F32, out_dtype, "arith.truncf")
            values.append(value)
            types.append(self.tensor(shape, out_dtype))
        ret = types[0] if len(types) == 1 else "(%s)" % ", ".join(types)
        return "\n".join(["func.func @%s(%s) -> %s {" % (self.name, ", ".join(self.args), ret)]
                         + self.lines
                         + ["  return %s : %s" % (", ".join(values), ", ".join(types)), "}", ""])


# Element types the generators write, and the numpy / torch spellings of each.
ELEMENT_TYPES = ("f16", "bf16", "f32", "f64")
_DTYPE_ALIASES = {"float16": "f16", "half": "f16", "bfloat16": "bf16", "float32": "f32",
                  "float": "f32", "float64": "f64", "double": "f64"}
# Size arguments that may be left out (None).
_OPTIONAL_SIZES = ("kv_seq", "window")


def element_type(dtype):
    """The MLIR element type name of `dtype`: "f16", "bf16", "f32", "f64",
    or a numpy or torch dtype of one of them."""
    if isinstance(dtype, str) and dtype in ELEMENT_TYPES:
        return dtype
    name = str(dtype)
    if name.startswith("torch."):
        name = name[len("torch."):]
    elif not isinstance(dtype, (str, bool)):
        try:
            name = np.dtype(dtype).name
        except TypeError:
            pass
    if name in _DTYPE_ALIASES:
        return _DTYPE_ALIASES[name]
    raise ValueError("dtype must be one of %s (or a numpy / torch dtype of one), got %r"
                     % (", ".join(ELEMENT_TYPES), dtype))


def _check_size(function, name, value):
    values = value if isinstance(value, (list, tuple)) else [value]
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v <= 0:
            raise ValueError("%s: %s must be a positive integer%s, got %r"
                             % (function, name, " or a list of them" if value is not v else "", value))


def _checked(generator):
    """Validates a generator's sizes (its arguments without a default, and
    the optional sizes when given: positive integers) and its dtype."""
    signature = inspect.signature(generator)

    @functools.wraps(generator)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        for name, param in signature.parameters.items():
            value = bound.arguments[name]
            if name == "dtype":
                bound.arguments[name] = element_type(value)
            elif param.default is inspect.Parameter.empty or (name in _OPTIONAL_SIZES and value is not None):
                _check_size(generator.__name__, name, value)
        return generator(*bound.args, **bound.kwargs)
    return wrapper



def _float(value):
    if value == float("-inf"):
        return "0xFF800000"
    return "%.9e" % value


def _binary(op):
    return lambda a, acc: (["%%y = arith.%s %s, %s : f32" % (op, a[0], a[1])], "%y")


def _reduce(op):
    return lambda a, acc: (["%%y = arith.%s %s, %s : f32" % (op, a[0], acc)], "%y")


def _contract(a, acc):
    return (["%%p = arith.mulf %s, %s : f32" % (a[0], a[1]), "%%y = arith.addf %s, %%p : f32" % acc], "%y")


@_checked
def gemm(m, n, k, dtype="f32", frontend=False):
    """C = A . B. `frontend` writes it the way mixed-precision frontends do
    for a matmul with an f32 result: the 16-bit operands extended inside the
    contraction body, and C returned in f32 (no rounding, no epilogue)."""
    f = _Func("gemm", dtype)
    inline = frontend and dtype != _F32
    arg = f.raw_arg if inline else f.arg
    a, b = arg("a", (m, k)), arg("b", (k, n))
    contract, operands = (_contract_extended(dtype), [dtype, dtype]) if inline else (_contract, None)
    c = f.generic(["m", "n", "k"], [(a, (m, k), ["m", "k"]), (b, (k, n), ["k", "n"])], (m, n), ["m", "n"],
                  contract, init=f.fill(0.0, (m, n)), reduce=("k",), in_dtypes=operands)
    return f.finish([(c, (m, n))], out_dtype=_F32 if inline else None)


@_checked
def matmul_storage(m, n, k, dtype="f16"):
    """C = A . B as one named linalg.matmul whose storage type is its compute
    type (an f16 matmul into f16, as torch-mlir writes a half-precision mm):
    the IR accumulates in `dtype`. The function is `gemm`."""
    t = lambda *shape: "tensor<%s>" % "x".join([str(s) for s in shape] + [dtype])
    return "\n".join([
        "func.func @gemm(%%a: %s, %%b: %s) -> %s {" % (t(m, k), t(k, n), t(m, n)),
        "  %%zero = arith.constant 0.0 : %s" % dtype,
        "  %%e = tensor.empty() : %s" % t(m, n),
        "  %%f = linalg.fill ins(%%zero : %s) outs(%%e : %s) -> %s" % (dtype, t(m, n), t(m, n)),
        "  %%c = linalg.matmul ins(%%a, %%b : %s, %s) outs(%%f : %s) -> %s" % (t(m, k), t(k, n), t(m, n), t(m, n)),
        "  return %%c : %s" % t(m, n),
        "}", ""])


@_checked
def linear(m, n, k, dtype="f16"):
    """y = x . w^T on x [m, k] and w [n, k] (a linear layer's weight as
    PyTorch stores it), as one named linalg.matmul whose indexing maps read
    B transposed (upstream's form of matmul_transpose_b), f16/bf16 operands
    accumulated in f32 and the result rounded to `dtype` by a separate
    generic. The function is `linear`."""
    t = lambda *shape, e=dtype: "tensor<%s>" % "x".join([str(s) for s in shape] + [e])
    return "\n".join([
        "func.func @linear(%%x: %s, %%w: %s) -> %s {" % (t(m, k), t(n, k), t(m, n)),
        "  %zero = arith.constant 0.0 : f32",
        "  %%e = tensor.empty() : %s" % t(m, n, e="f32"),
        "  %%f = linalg.fill ins(%%zero : f32) outs(%%e : %s) -> %s" % (t(m, n, e="f32"), t(m, n, e="f32")),
        "  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
        "affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]",
        "      ins(%%x, %%w : %s, %s) outs(%%f : %s) -> %s" % (t(m, k), t(n, k), t(m, n, e="f32"), t(m, n, e="f32")),
        "  %%er = tensor.empty() : %s" % t(m, n),
        "  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
        "affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\"]}",
        "      ins(%%y : %s) outs(%%er : %s) {" % (t(m, n, e="f32"), t(m, n)),
        "  ^bb0(%%in: f32, %%out: %s):" % dtype,
        "    %%t = arith.truncf %%in : f32 to %s" % dtype,
        "    linalg.yield %%t : %s" % dtype,
        "  } -> %s" % t(m, n),
        "  return %%r : %s" % t(m, n),
        "}", ""])


@_checked
def batch_matmul(batch, m, n, k, dtype="f16", b_layout="kn"):
    """C[b] = A[b] . B[b] as one named linalg.batch_matmul of storage type
    `dtype` (torch.bmm in half precision; the pipeline accumulates in f32).
    `b_layout`: "kn" B [batch, k, n]; "nk" B [batch, n, k] read through the
    op's indexing maps (batch_matmul_transpose_b); "shared" one B [k, n]
    for every batch, broadcast by linalg.broadcast as named-op frontends
    write it. The function is `batch_matmul`."""
    t = lambda *shape: "tensor<%s>" % "x".join([str(s) for s in shape] + [dtype])
    if b_layout not in ("kn", "nk", "shared"):
        raise ValueError("batch_matmul: b_layout must be kn, nk or shared, got %r" % (b_layout,))
    b_shape = {"kn": (batch, k, n), "nk": (batch, n, k), "shared": (k, n)}[b_layout]
    lines = ["func.func @batch_matmul(%%a: %s, %%b: %s) -> %s {" % (t(batch, m, k), t(*b_shape), t(batch, m, n)),
             "  %%zero = arith.constant 0.0 : %s" % dtype]
    b, maps = "%b", ""
    if b_layout == "shared":
        lines += ["  %%eb = tensor.empty() : %s" % t(batch, k, n),
                  "  %%bb = linalg.broadcast ins(%%b : %s) outs(%%eb : %s) dimensions = [0]"
                  % (t(k, n), t(batch, k, n))]
        b, b_shape = "%bb", (batch, k, n)
    if b_layout == "nk":
        maps = (" indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, "
                "affine_map<(b, m, n, k) -> (b, m, n)>]")
    lines += ["  %%e = tensor.empty() : %s" % t(batch, m, n),
              "  %%f = linalg.fill ins(%%zero : %s) outs(%%e : %s) -> %s" % (dtype, t(batch, m, n), t(batch, m, n)),
              "  %%c = linalg.batch_matmul%s ins(%%a, %s : %s, %s) outs(%%f : %s) -> %s"
              % (maps, b, t(batch, m, k), t(*b_shape), t(batch, m, n), t(batch, m, n)),
              "  return %%c : %s" % t(batch, m, n), "}", ""]
    return "\n".join(lines)


@_checked
def linear_3d(batch, seq, inputs, outputs, dtype="f16"):
    """y = x . w^T on x [batch, seq, inputs], w [outputs, inputs], as
    torch-mlir writes `aten.linear` without a bias: the weight transposed by
    a copy generic, x collapsed to 2-D, a named matmul of storage type
    `dtype`, the result expanded. The function is `linear_3d`."""
    t = lambda *shape: "tensor<%s>" % "x".join([str(s) for s in shape] + [dtype])
    rows = batch * seq
    return "\n".join([
        "func.func @linear_3d(%%x: %s, %%w: %s) -> %s {" % (t(batch, seq, inputs), t(outputs, inputs),
                                                          t(batch, seq, outputs)),
        "  %%et = tensor.empty() : %s" % t(inputs, outputs),
        "  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, "
        "affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\"]}",
        "      ins(%%w : %s) outs(%%et : %s) {" % (t(outputs, inputs), t(inputs, outputs)),
        "  ^bb0(%%in: %s, %%out: %s):" % (dtype, dtype),
        "    linalg.yield %%in : %s" % dtype,
        "  } -> %s" % t(inputs, outputs),
        "  %%x2 = tensor.collapse_shape %%x [[0, 1], [2]] : %s into %s" % (t(batch, seq, inputs), t(rows, inputs)),
        "  %%zero = arith.constant 0.0 : %s" % dtype,
        "  %%e = tensor.empty() : %s" % t(rows, outputs),
        "  %%f = linalg.fill ins(%%zero : %s) outs(%%e : %s) -> %s" % (dtype, t(rows, outputs), t(rows, outputs)),
        "  %%y2 = linalg.matmul ins(%%x2, %%wt : %s, %s) outs(%%f : %s) -> %s"
        % (t(rows, inputs), t(inputs, outputs), t(rows, outputs), t(rows, outputs)),
        "  %%y = tensor.expand_shape %%y2 [[0, 1], [2]] output_shape [%d, %d, %d] : %s into %s"
        % (batch, seq, outputs, t(rows, outputs), t(batch, seq, outputs)),
        "  return %%y : %s" % t(batch, seq, outputs),
        "}", ""])


def _softmax_rows(f, x, rows, cols):
    row = ["m"]
    mx = f.generic(["m", "n"], [(x, (rows, cols), ["m", "n"])], (rows,), row, _reduce("maximumf"),
                   init=f.fill(float("-inf"), (rows,)), reduce=("n",))
    ex = f.generic(["m", "n"], [(x, (rows, cols), ["m", "n"]), (mx, (rows,), row)], (rows, cols), ["m", "n"],
                   lambda a, acc: (["%%d = arith.subf %s, %s : f32" % (a[0], a[1]), "%y = math.exp %d : f32"], "%y"))
    sm = f.generic(["m", "n"], [(ex, (rows, cols), ["m", "n"])], (rows,), row, _reduce("addf"),
                   init=f.fill(0.0, (rows,)), reduce=("n",))
    return f.generic(["m", "n"], [(ex, (rows, cols), ["m", "n"]), (sm, (rows,), row)], (rows, cols), ["m", "n"],
                     _binary("divf"))


@_checked
def softmax(rows, cols, dtype="f32"):
    f = _Func("softmax", dtype)
    x = f.arg("x", (rows, cols))
    return f.finish([(_softmax_rows(f, x, rows, cols), (rows, cols))])


def _mean(f, x, rows, cols, square=False):
    s = f.generic(["m", "n"], [(x, (rows, cols), ["m", "n"])], (rows,), ["m"],
                  (lambda a, acc: (["%%sq = arith.mulf %s, %s : f32" % (a[0], a[0]),
                                    "%%y = arith.addf %%sq, %s : f32" % acc], "%y")) if square else _reduce("addf"),
                  init=f.fill(0.0, (rows,)), reduce=("n",))
    n = f.const(float(cols))
    return f.generic(["m"], [(s, (rows,), ["m"])], (rows,), ["m"],
                     lambda a, acc: (["%%y = arith.divf %s, %s : f32" % (a[0], n)], "%y"))


@_checked
def layernorm(rows, hidden, dtype="f32", eps=1e-5):
    f = _Func("layernorm", dtype)
    x, g, b = f.arg("x", (rows, hidden)), f.arg("gamma", (hidden,)), f.arg("beta", (hidden,))
    return f.finish([(_layernorm_rows(f, x, g, b, rows, hidden, eps), (rows, hidden))])


@_checked
def rmsnorm(rows, hidden, dtype="f32", eps=1e-6):
    f = _Func("rmsnorm", dtype)
    x, g = f.arg("x", (rows, hidden)), f.arg("gamma", (hidden,))
    ms = _mean(f, x, rows, hidden, square=True)
    e = f.const(eps)
    r = f.generic(["m"], [(ms, (rows,), ["m"])], (rows,), ["m"],
                  lambda a, acc: (["%%v = arith.addf %s, %s : f32" % (a[0], e), "%y = math.rsqrt %v : f32"], "%y"))
    y = f.generic(["m", "n"], [(x, (rows, hidden), ["m", "n"]), (r, (rows,), ["m"]), (g, (hidden,), ["n"])],
                  (rows, hidden), ["m", "n"],
                  lambda a, acc: (["%%t = arith.mulf %s, %s : f32" % (a[0], a[1]),
                                   "%%y = arith.mulf %%t, %s : f32" % a[2]], "%y"))
    return f.finish([(y, (rows, hidden))])


def _contract_extended(dtype):
    """A contraction body over `dtype` operands extended to f32 inline."""
    def body(a, acc):
        return (["%%x = arith.extf %s : %s to f32" % (a[0], dtype),
                 "%%w = arith.extf %s : %s to f32" % (a[1], dtype),
                 "%p = arith.mulf %x, %w : f32",
                 "%%y = arith.addf %s, %%p : f32" % acc], "%y")
    return body


@_checked
def attention(batch, heads, seq, head_dim, dtype="f32", mask=False, scale=None, k_transposed=False,
              frontend=False, kv_seq=None, causal=False, window=None, padding=False, prefix=None):
    """Scaled dot-product attention; `k_transposed` gives K as [b, h, k, l]
    (the function is then `attention_kt`). `frontend` writes it the way
    mixed-precision frontends do (torch-mlir, IREE): the 16-bit operands
    extended inside the contraction bodies, f32 scores and softmax, the
    probabilities rounded to `dtype` (in the normalizing generic) before the
    second contraction. `kv_seq` gives the keys and values another length
    than the queries (cross attention, chunked prefill, decode). `causal`
    masks the keys after each query (aligned bottom-right when there are
    more keys than queries) as frontends write it: linalg.index, cmpi and a
    select of -inf on the scaled scores (the function is then
    `attention_causal`); `window` also hides the keys `window` or more
    before the query (a sliding window, Mistral's; `attention_window`).
    `prefix` also shows every query the first `prefix` keys (a prefix LM,
    T5's and PaliGemma's: the prefix attended bidirectionally), written as
    frontends build it, a select keeping what is causal or in the prefix
    (`attention_prefix`).
    `padding` adds an input `lens` (i64, one per batch) and hides the keys
    from `lens[b]` on, as a per-batch valid length does in batched inference
    (`attention_padded`; a row whose length is 0 is NaN, as unfused)."""
    if padding and (mask or causal or window or k_transposed or prefix is not None):
        raise ValueError("padding is not combined with mask, causal, window, prefix or k_transposed")
    if prefix is not None and (window or not isinstance(prefix, int) or not 0 <= prefix <= (kv_seq or seq)):
        raise ValueError("attention: prefix must be a key count in [0, %d], without window, got %r"
                         % (kv_seq or seq, prefix))
    f = _Func("attention_padded" if padding else "attention_mask" if mask else "attention_kt" if k_transposed
              else "attention_window" if window else "attention_prefix" if prefix is not None
              else "attention_causal" if causal else "attention", dtype)
    b, h, s, d = batch, heads, seq, head_dim
    t = kv_seq or seq
    k_shape, k_dims = ((b, h, d, t), ["b", "h", "k", "l"]) if k_transposed else ((b, h, t, d), ["b", "h", "l", "k"])
    inline = frontend and dtype != _F32
    arg = f.raw_arg if inline else f.arg
    q, k, v = arg("q", (b, h, s, d)), arg("k", k_shape), arg("v", (b, h, t, d))
    msk = f.arg("mask", (b, h, s, t)) if mask else None
    lens = f.int_arg("lens", (b,)) if padding else None
    contract, operands = (_contract_extended(dtype), [dtype, dtype]) if inline else (_contract, None)
    qk = f.generic(["b", "h", "m", "l", "k"], [(q, (b, h, s, d), ["b", "h", "m", "k"]),
                                               (k, k_shape, k_dims)],
                   (b, h, s, t), ["b", "h", "m", "l"], contract, init=f.fill(0.0, (b, h, s, t)), reduce=("k",),
                   in_dtypes=operands)
    c = f.const(scale if scale is not None else 1.0 / np.sqrt(d))
    dims4 = ["b", "h", "m", "l"]
    causal = causal or bool(window) or prefix is not None

    def scale(a, acc):
        if padding:
            # Key j is hidden in batch b when j >= lens[b].
            return (["%%x = arith.mulf %s, %s : f32" % (a[0], c),
                     "%j = linalg.index 3 : index",
                     "%jl = arith.index_cast %j : index to i64",
                     "%%hide = arith.cmpi sge, %%jl, %s : i64" % a[1],
                     "%ninf = arith.constant 0xFF800000 : f32",
                     "%y = arith.select %hide, %ninf, %x : f32"], "%y")
        if not causal:
            return ["%%y = arith.mulf %s, %s : f32" % (a[0], c)], "%y"
        # Key j is hidden from query i when j > i + (t - s).
        head = ["%%x = arith.mulf %s, %s : f32" % (a[0], c),
                "%i = linalg.index 2 : index", "%j = linalg.index 3 : index",
                "%%shift = arith.constant %d : index" % (t - s),
                "%last = arith.addi %i, %shift : index"]
        if prefix is not None:
            # Kept when causal or in the prefix.
            return (head + ["%seen = arith.cmpi ule, %j, %last : index",
                            "%%p = arith.constant %d : index" % prefix,
                            "%inprefix = arith.cmpi ult, %j, %p : index",
                            "%keep = arith.ori %seen, %inprefix : i1",
                            "%ninf = arith.constant 0xFF800000 : f32",
                            "%y = arith.select %keep, %x, %ninf : f32"], "%y")
        return (head + ["%hide = arith.cmpi ugt, %j, %last : index"]
                + (["%%w = arith.constant %d : index" % window,
                    "%jw = arith.addi %j, %w : index",
                    "%old = arith.cmpi ule, %jw, %last : index",
                    "%out = arith.ori %hide, %old : i1"] if window else [])
                + ["%ninf = arith.constant 0xFF800000 : f32",
                   "%%y = arith.select %s, %%ninf, %%x : f32" % ("%out" if window else "%hide")], "%y")
    if padding:
        sc = f.generic(dims4, [(qk, (b, h, s, t), dims4), (lens, (b,), ["b"])], (b, h, s, t), dims4, scale,
                       in_dtypes=[_F32, "i64"])
    else:
        sc = f.generic(dims4, [(qk, (b, h, s, t), dims4)], (b, h, s, t), dims4, scale)
    if mask:
        sc = f.generic(dims4, [(sc, (b, h, s, t), dims4), (msk, (b, h, s, t), dims4)], (b, h, s, t), dims4,
                       _binary("addf"))
    row = ["b", "h", "m"]
    mx = f.generic(dims4, [(sc, (b, h, s, t), dims4)], (b, h, s), row, _reduce("maximumf"),
                   init=f.fill(float("-inf"), (b, h, s)), reduce=("l",))
    ex = f.generic(dims4, [(sc, (b, h, s, t), dims4), (mx, (b, h, s), row)], (b, h, s, t), dims4,
                   lambda a, acc: (["%%d = arith.subf %s, %s : f32" % (a[0], a[1]), "%y = math.exp %d : f32"], "%y"))
    sm = f.generic(dims4, [(ex, (b, h, s, t), dims4)], (b, h, s), row, _reduce("addf"),
                   init=f.fill(0.0, (b, h, s)), reduce=("l",))
    if inline:
        p = f.generic(dims4, [(ex, (b, h, s, t), dims4), (sm, (b, h, s), row)], (b, h, s, t), dims4,
                      lambda a, acc: (["%%r = arith.divf %s, %s : f32" % (a[0], a[1]),
                                       "%%y = arith.truncf %%r : f32 to %s" % dtype], "%y"),
                      out_dtype=dtype)
    else:
        p = f.generic(dims4, [(ex, (b, h, s, t), dims4), (sm, (b, h, s), row)], (b, h, s, t), dims4,
                      _binary("divf"))
    out = f.generic(["b", "h", "m", "n", "l"], [(p, (b, h, s, t), ["b", "h", "m", "l"]),
                                                (v, (b, h, t, d), ["b", "h", "l", "n"])],
                    (b, h, s, d), ["b", "h", "m", "n"], contract, init=f.fill(0.0, (b, h, s, d)), reduce=("l",),
                    in_dtypes=operands)
    return f.finish([(out, (b, h, s, d))])


def _linear(f, x, w, bias, m, n, k):
    y = f.generic(["m", "n", "k"], [(x, (m, k), ["m", "k"]), (w, (k, n), ["k", "n"])], (m, n), ["m", "n"],
                  _contract, init=f.fill(0.0, (m, n)), reduce=("k",))
    if bias is None:
        return y
    return f.generic(["m", "n"], [(y, (m, n), ["m", "n"]), (bias, (n,), ["n"])], (m, n), ["m", "n"], _binary("addf"))


@_checked
def mlp(tokens, hidden, inner, dtype="f32"):
    f = _Func("mlp", dtype)
    x = f.arg("x", (tokens, hidden))
    w1, b1 = f.arg("w1", (hidden, inner)), f.arg("b1", (inner,))
    w2, b2 = f.arg("w2", (inner, hidden)), f.arg("b2", (hidden,))
    h = _linear(f, x, w1, b1, tokens, inner, hidden)
    c0, c1, c2 = f.const(0.5), f.const(0.7978845608), f.const(0.044715)
    one = f.const(1.0)
    gelu = f.generic(["m", "n"], [(h, (tokens, inner), ["m", "n"])], (tokens, inner), ["m", "n"],
                     lambda a, acc: (["%%x3 = arith.mulf %s, %s : f32" % (a[0], a[0]),
                                      "%%x3b = arith.mulf %%x3, %s : f32" % a[0],
                                      "%%t = arith.mulf %%x3b, %s : f32" % c2,
                                      "%%u = arith.addf %s, %%t : f32" % a[0],
                                      "%%v = arith.mulf %%u, %s : f32" % c1,
                                      "%th = math.tanh %v : f32",
                                      "%%w = arith.addf %%th, %s : f32" % one,
                                      "%%z = arith.mulf %%w, %s : f32" % a[0],
                                      "%%y = arith.mulf %%z, %s : f32" % c0], "%y"))
    return f.finish([(_linear(f, gelu, w2, b2, tokens, hidden, inner), (tokens, hidden))])


def _layernorm_rows(f, x, g, b, rows, hidden, eps):
    mean = _mean(f, x, rows, hidden)
    d = f.generic(["m", "n"], [(x, (rows, hidden), ["m", "n"]), (mean, (rows,), ["m"])], (rows, hidden),
                  ["m", "n"], _binary("subf"))
    var = _mean(f, d, rows, hidden, square=True)
    e = f.const(eps)
    rstd = f.generic(["m"], [(var, (rows,), ["m"])], (rows,), ["m"],
                     lambda a, acc: (["%%v = arith.addf %s, %s : f32" % (a[0], e), "%y = math.rsqrt %v : f32"], "%y"))
    return f.generic(["m", "n"], [(d, (rows, hidden), ["m", "n"]), (rstd, (rows,), ["m"]), (g, (hidden,), ["n"]),
                                  (b, (hidden,), ["n"])], (rows, hidden), ["m", "n"],
                     lambda a, acc: (["%%t = arith.mulf %s, %s : f32" % (a[0], a[1]),
                                      "%%u = arith.mulf %%t, %s : f32" % a[2],
                                      "%%y = arith.addf %%u, %s : f32" % a[3]], "%y"))


@_checked
def linear_layernorm(tokens, hidden, inner, dtype="f32", eps=1e-5):
    """BERT's output block: LayerNorm(x . w + bias + residual) * gamma +
    beta, with x [tokens, inner] and w [inner, hidden]. The cost model cuts
    it after the GEMM's epilogue, leaving a LayerNorm graph fed by the GEMM's
    graph (one function, two graphs)."""
    f = _Func("linear_layernorm", dtype)
    x, w = f.arg("x", (tokens, inner)), f.arg("w", (inner, hidden))
    bias, res = f.arg("bias", (hidden,)), f.arg("residual", (tokens, hidden))
    g, b = f.arg("gamma", (hidden,)), f.arg("beta", (hidden,))
    y = _linear(f, x, w, bias, tokens, hidden, inner)
    h = f.generic(["m", "n"], [(y, (tokens, hidden), ["m", "n"]), (res, (tokens, hidden), ["m", "n"])],
                  (tokens, hidden), ["m", "n"], _binary("addf"))
    return f.finish([(_layernorm_rows(f, h, g, b, tokens, hidden, eps), (tokens, hidden))])


@_checked
def gemm_chain(m, dims, dtype="f32"):
    """A . B1 . B2 ... with A [m, dims[0]] and Bi [dims[i-1], dims[i]]."""
    f = _Func("gemm_chain", dtype)
    x = f.arg("a", (m, dims[0]))
    for i in range(1, len(dims)):
        w = f.arg("b%d" % i, (dims[i - 1], dims[i]))
        x = _linear(f, x, w, None, m, dims[i], dims[i - 1])
    return f.finish([(x, (m, dims[-1]))])


@_checked
def lstm_cell(batch, inputs, hidden, dtype="f32"):
    f = _Func("lstm_cell", dtype)
    x, wx = f.arg("x", (batch, inputs)), f.arg("wx", (inputs, 4 * hidden))
    hprev, wh = f.arg("h", (batch, hidden)), f.arg("wh", (hidden, 4 * hidden))
    bias, c = f.arg("bias", (4 * hidden,)), f.arg("c", (batch, hidden))
    g1 = _linear(f, x, wx, None, batch, 4 * hidden, inputs)
    g2 = _linear(f, hprev, wh, None, batch, 4 * hidden, hidden)
    gates = f.generic(["m", "n"], [(g1, (batch, 4 * hidden), ["m", "n"]), (g2, (batch, 4 * hidden), ["m", "n"]),
                                   (bias, (4 * hidden,), ["n"])], (batch, 4 * hidden), ["m", "n"],
                      lambda a, acc: (["%%s = arith.addf %s, %s : f32" % (a[0], a[1]),
                                       "%%y = arith.addf %%s, %s : f32" % a[2]], "%y"))
    one = f.const(1.0)
    parts = []
    for i in range(4):
        name = f.fresh("gate")
        f.lines.append("  %s = tensor.extract_slice %s[0, %d] [%d, %d] [1, 1] : %s to %s"
                       % (name, gates, i * hidden, batch, hidden, f.tensor((batch, 4 * hidden)),
                          f.tensor((batch, hidden))))
        parts.append(name)
    shape, dims = (batch, hidden), ["m", "n"]

    def sigmoid(v):
        return f.generic(dims, [(v, shape, dims)], shape, dims,
                         lambda a, acc: (["%%n = arith.negf %s : f32" % a[0], "%e = math.exp %n : f32",
                                          "%%d = arith.addf %%e, %s : f32" % one,
                                          "%%y = arith.divf %s, %%d : f32" % one], "%y"))

    i_g, f_g, o_g = sigmoid(parts[0]), sigmoid(parts[1]), sigmoid(parts[3])
    g_g = f.generic(dims, [(parts[2], shape, dims)], shape, dims,
                    lambda a, acc: (["%%y = math.tanh %s : f32" % a[0]], "%y"))
    c2 = f.generic(dims, [(f_g, shape, dims), (c, shape, dims), (i_g, shape, dims), (g_g, shape, dims)], shape, dims,
                   lambda a, acc: (["%%p = arith.mulf %s, %s : f32" % (a[0], a[1]),
                                    "%%q = arith.mulf %s, %s : f32" % (a[2], a[3]),
                                    "%y = arith.addf %p, %q : f32"], "%y"))
    h2 = f.generic(dims, [(o_g, shape, dims), (c2, shape, dims)], shape, dims,
                   lambda a, acc: (["%%t = math.tanh %s : f32" % a[1], "%%y = arith.mulf %s, %%t : f32" % a[0]], "%y"))
    return f.finish([(h2, shape), (c2, shape)])


#===------------------------------------------------------------------------===#
# float32 references
#===------------------------------------------------------------------------===#

def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _float32(x):
    """A float32 numpy copy of an array or of a torch tensor (bf16 included,
    which numpy cannot convert)."""
    if hasattr(x, "detach") and hasattr(x, "float"):  # a torch tensor
        x = x.detach().float().cpu().numpy()
    return np.asarray(x, dtype=np.float32)


def reference(name, *arrays, eps=None, scale=None, window=None, prefix=None):
    """The workload `name` computed in float32 with numpy, on numpy arrays or
    torch tensors (e.g. the torch.bfloat16 inputs of a bf16 function)."""
    a = [_float32(x) for x in arrays]
    if name == "gemm":
        return [a[0] @ a[1]]
    if name in ("linear", "linear_3d"):
        return [a[0] @ a[1].T]
    if name in ("batch_matmul", "batch_matmul_shared"):
        return [a[0] @ a[1]]
    if name == "batch_matmul_nk":
        return [a[0] @ np.swapaxes(a[1], -1, -2)]
    if name == "softmax":
        return [_softmax(a[0])]
    if name == "layernorm":
        mean = a[0].mean(-1, keepdims=True)
        var = ((a[0] - mean) ** 2).mean(-1, keepdims=True)
        return [(a[0] - mean) / np.sqrt(var + (eps or 1e-5)) * a[1] + a[2]]
    if name == "linear_layernorm":
        x, w, bias, res, g, b = a
        return reference("layernorm", x @ w + bias + res, g, b, eps=eps)
    if name == "rmsnorm":
        return [a[0] / np.sqrt((a[0] ** 2).mean(-1, keepdims=True) + (eps or 1e-6)) * a[1]]
    if name in ("attention", "attention_mask", "attention_kt", "attention_causal", "attention_window",
                "attention_padded", "attention_prefix"):
        q, k, v = a[:3]
        kt = k if name == "attention_kt" else np.swapaxes(k, -1, -2)
        s = q @ kt * (scale if scale is not None else 1.0 / np.sqrt(q.shape[-1]))
        if name == "attention_mask":
            s = s + a[3]
        if name in ("attention_causal", "attention_window", "attention_prefix"):
            rows, cols = s.shape[-2:]
            last = np.arange(rows)[:, None] + (cols - rows)
            hidden = np.arange(cols)[None, :] > last
            if name == "attention_window":
                hidden |= np.arange(cols)[None, :] + window <= last
            if name == "attention_prefix":
                hidden &= np.arange(cols)[None, :] >= prefix
            s = np.where(hidden, -np.inf, s)
        if name == "attention_padded":
            lens = np.asarray(arrays[3]).astype(np.int64)
            s = np.where(np.arange(s.shape[-1])[None, None, None, :] >= lens[:, None, None, None], -np.inf, s)
        return [_softmax(s) @ v]
    if name == "mlp":
        x, w1, b1, w2, b2 = a
        h = x @ w1 + b1
        g = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
        return [g @ w2 + b2]
    if name == "gemm_chain":
        x = a[0]
        for w in a[1:]:
            x = x @ w
        return [x]
    if name == "lstm_cell":
        x, wx, h, wh, bias, c = a
        gates = x @ wx + h @ wh + bias
        i, f, g, o = np.split(gates, 4, axis=1)
        sig = lambda t: 1 / (1 + np.exp(-t))
        c2 = sig(f) * c + sig(i) * np.tanh(g)
        return [sig(o) * np.tanh(c2), c2]
    raise ValueError("unknown workload %r" % name)
