"""Random linalg-on-tensors programs for the differential fuzzer.

`generate(seed)` returns the text of one module holding `func.func @fuzz`
with static shapes, written the way frontends (torch-mlir, IREE, upstream
MLIR tests) write linalg: one `tensor.empty` per op, `linalg.fill` inits,
`#map` aliases, f16/bf16 functions that extend to f32 inside the bodies.
The program is a chain of *steps* (elementwise chains, reductions,
normalizations, GEMMs, attention, layout changes) applied to a main value;
values a step leaves unused are returned, so every op is live.

Values stay finite by construction: every tensor carries a bound on its
magnitude, and an op that would push the bound past the dtype's budget is
preceded by a `tanh`; divisions only divide by values known to be positive
(a sum of `exp(x - max)`, `1 + y*y`, `var + eps`, a constant). The inputs
spacefusion-run feeds are uniform in (-1, 1).
"""

import math
import random

SIZES = [1, 3, 7, 16, 100, 128, 257]
# Small sizes are drawn more often: they keep tensors small and put size-1
# and odd extents (the edge cases) into most programs.
SIZE_WEIGHTS = [3, 3, 3, 4, 2, 3, 2]
MAX_ELEMENTS = 1 << 17
MAX_MACS = 1 << 21
FLOAT_TYPES = ("f32", "f16", "bf16")
NEG_INF = "0xFF800000"
POS_INF = "0x7F800000"
NAN = "0x7FC00000"
# Largest magnitude a tensor may reach before an op squashes it with tanh.
BOUND_LIMIT = {"f32": 1e4, "f16": 1e2, "bf16": 1e2, "i32": 1e6}
EXP_LIMIT = 8.0  # exp of a value bounded by this stays < 3000


def float_literal(value):
    """An f32 literal as MLIR prints it (scientific, always with a point)."""
    return "%.6e" % value


class Tensor:
    """An SSA value of ranked tensor type, with a bound on |element|."""

    def __init__(self, name, shape, dtype, bound):
        self.name, self.shape, self.dtype, self.bound = name, tuple(shape), dtype, bound

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)

    @property
    def elements(self):
        return math.prod(self.shape)


def tensor_type(shape, dtype):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), dtype)


def affine_map(rank, exprs):
    dims = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join("d%d" % e for e in exprs))


class Body:
    """The scalar region of one linalg.generic: computes in f32 (or i32)."""

    def __init__(self, builder):
        self.builder = builder
        self.lines = []

    def _fresh(self):
        return self.builder.fresh("v")

    def op(self, text, type_="f32"):
        name = self._fresh()
        self.lines.append("%s = %s : %s" % (name, text, type_))
        return name

    def binary(self, opname, a, b, type_="f32"):
        return self.op("%s %s, %s" % (opname, a, b), type_)

    def unary(self, opname, a, type_="f32"):
        return self.op("%s %s" % (opname, a), type_)

    def const(self, value, type_="f32"):
        return self.builder.constant(value, type_)

    def extend(self, value, dtype):
        """An element of `dtype` as the f32 the math runs in."""
        if dtype in ("f16", "bf16"):
            return self.op("arith.extf %s" % value, "%s to f32" % dtype)
        return value

    def truncate(self, value, dtype):
        if dtype in ("f16", "bf16"):
            return self.op("arith.truncf %s" % value, "f32 to %s" % dtype)
        return value

    def select(self, predicate, a, b, on_true, on_false):
        cond = self.builder.fresh("c")
        self.lines.append("%s = arith.cmpf %s, %s, %s : f32" % (cond, predicate, a, b))
        return self.op("arith.select %s, %s, %s" % (cond, on_true, on_false))

    def index(self, dim):
        name = self._fresh()
        self.lines.append("%s = linalg.index %d : index" % (name, dim))
        return name


class FunctionBuilder:
    """Accumulates the arguments, constants and ops of `@fuzz`."""

    def __init__(self, rng, dtype):
        self.rng = rng
        self.dtype = dtype  # the function's element type
        self.args = []
        self.constants = {}
        self.constant_lines = []
        self.lines = []
        self.maps = {}
        self.counter = 0

    # -- names, constants, maps ------------------------------------------
    def fresh(self, hint):
        self.counter += 1
        return "%%%s%d" % (hint, self.counter)

    def constant(self, value, type_="f32"):
        text = value if isinstance(value, str) else (
            float_literal(value) if type_.startswith(("f", "bf")) else str(int(value)))
        key = (text, type_)
        if key not in self.constants:
            name = self.fresh("cst")
            self.constants[key] = name
            self.constant_lines.append("%s = arith.constant %s : %s" % (name, text, type_))
        return self.constants[key]

    def map_alias(self, rank, exprs):
        text = affine_map(rank, exprs)
        if text not in self.maps:
            self.maps[text] = "#map%d" % len(self.maps)
        return self.maps[text]

    # -- values ------------------------------------------------------------
    def arg(self, shape, dtype=None):
        dtype = dtype or self.dtype
        value = Tensor("%%arg%d" % len(self.args), shape, dtype, 1.0)
        self.args.append(value)
        return value

    def empty(self, shape, dtype):
        name = self.fresh("init")
        self.lines.append("%s = tensor.empty() : %s" % (name, tensor_type(shape, dtype)))
        return name

    def fill(self, value, shape, dtype):
        init = self.empty(shape, dtype)
        cst = self.constant(value, dtype)
        name = self.fresh("fill")
        type_ = tensor_type(shape, dtype)
        self.lines.append("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s"
                          % (name, cst, dtype, init, type_, type_))
        return name

    def emit(self, line):
        self.lines.append(line)

    # -- linalg.generic ------------------------------------------------------
    def generic(self, rank, iterators, ins, outs, body_fn, hint="g"):
        """Emits a linalg.generic over `rank` loops.

        ins: [(Tensor, exprs)]; outs: [(init name, shape, dtype, exprs)];
        body_fn(body, in_args, out_args) returns the yielded values (one per
        out, already in the out's element type). Returns the result names.
        """
        body = Body(self)
        in_args = ["%%in%d_%d" % (self.counter, i) for i in range(len(ins))]
        out_args = ["%%out%d_%d" % (self.counter, i) for i in range(len(outs))]
        self.counter += 1
        yielded = body_fn(body, in_args, out_args)
        maps = [self.map_alias(rank, exprs) for _, exprs in ins]
        maps += [self.map_alias(rank, o[3]) for o in outs]
        results = [self.fresh(hint) for _ in outs]
        lhs = results[0] if len(outs) == 1 else "%s:%d" % (results[0], len(outs))
        in_part = ""
        if ins:
            in_part = " ins(%s : %s)" % (", ".join(t.name for t, _ in ins),
                                         ", ".join(t.type for t, _ in ins))
        out_types = [tensor_type(o[1], o[2]) for o in outs]
        block_args = ["%s: %s" % (a, t.dtype) for a, (t, _) in zip(in_args, ins)]
        block_args += ["%s: %s" % (a, o[2]) for a, o in zip(out_args, outs)]
        result_type = out_types[0] if len(outs) == 1 else "(%s)" % ", ".join(out_types)
        self.lines.append(
            "%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}%s outs(%s : %s) {"
            % (lhs, ", ".join(maps), ", ".join('"%s"' % it for it in iterators), in_part,
               ", ".join(o[0] for o in outs), ", ".join(out_types)))
        self.lines.append("^bb0(%s):" % ", ".join(block_args))
        self.lines.extend("  " + line for line in body.lines)
        self.lines.append("  linalg.yield %s : %s" % (", ".join(yielded),
                                                       ", ".join(o[2] for o in outs)))
        self.lines.append("} -> %s" % result_type)
        if len(outs) == 1:
            return results
        return ["%s#%d" % (results[0], i) for i in range(len(outs))]

    def render(self, results, header):
        sig = ", ".join("%s: %s" % (a.name, a.type) for a in self.args)
        ret_types = ", ".join(r.type for r in results)
        out = [header]
        out += ["%s = %s" % (alias, text) for text, alias in self.maps.items()]
        out.append("func.func @fuzz(%s) -> (%s) {" % (sig, ret_types))
        out += ["  " + line for line in self.constant_lines + self.lines]
        out.append("  return %s : %s" % (", ".join(r.name for r in results), ret_types))
        out.append("}")
        return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# Shapes


def draw_size(rng):
    return rng.choices(SIZES, SIZE_WEIGHTS)[0]


def draw_shape(rng, rank, limit=MAX_ELEMENTS):
    shape = [draw_size(rng) for _ in range(rank)]
    while math.prod(shape) > limit:
        i = max(range(rank), key=lambda j: shape[j])
        shape[i] = max(s for s in SIZES if s < shape[i])
    return shape


def fits(*shapes):
    return all(math.prod(s) <= MAX_ELEMENTS for s in shapes)


def identity(rank):
    return list(range(rank))


def is_float(dtype):
    return dtype in FLOAT_TYPES


# ---------------------------------------------------------------------------
# The program: a main value transformed by steps


class Program:
    """The state steps share: the builder, the main value, unused values."""

    def __init__(self, rng, dtype, seed):
        self.rng = rng
        self.fb = FunctionBuilder(rng, dtype)
        self.dtype = dtype
        self.main = None
        self.side = []  # computed values no op consumes yet: returned
        self.steps = []  # step descriptions, for the header
        self.features = set()
        # Features added after seed FEATURES_SINCE draw from a generator of
        # their own, so that the recorded seeds below keep their programs.
        self.later_features = seed >= FEATURES_SINCE
        self.aux = random.Random("aux-%d" % seed)

    def new_input(self, shape, dtype=None):
        return self.fb.arg(shape, dtype)

    def tensor(self, name, shape, dtype, bound):
        return Tensor(name, shape, dtype, bound)

    def limit(self, dtype):
        return BOUND_LIMIT.get(dtype, 1e4)

    def squash_if(self, body, value, bound, dtype, limit=None):
        """tanh(value) when its bound exceeds the budget; returns (value, bound)."""
        if bound > (limit or self.limit(dtype)):
            return body.unary("math.tanh", value), 1.0
        return value, bound


# -- elementwise ------------------------------------------------------------

UNARY = ["math.exp", "math.tanh", "arith.negf", "math.absf"]
BINARY = ["arith.addf", "arith.mulf", "arith.subf", "arith.divf", "arith.maximumf",
          "arith.minimumf", "select"]


def apply_unary(prog, body, opname, value, bound):
    if opname == "math.exp":
        value, bound = prog.squash_if(body, value, bound, "f32", EXP_LIMIT)
        return body.unary(opname, value), math.exp(bound)
    if opname == "math.tanh":
        return body.unary(opname, value), 1.0
    return body.unary(opname, value), bound


def apply_binary(prog, body, opname, a, ba, b, bb):
    """a `op` b in f32 with the bound of the result."""
    if opname == "arith.divf":
        # Divide by 1 + b*b (>= 1): finite whatever b is.
        b, bb = prog.squash_if(body, b, bb, "f32", 100.0)
        square = body.binary("arith.mulf", b, b)
        denominator = body.binary("arith.addf", body.const(1.0), square)
        return body.binary("arith.divf", a, denominator), ba
    if opname == "select":
        predicate = prog.rng.choice(["ogt", "olt", "oge", "ule"])
        on_false = prog.rng.choice([b, body.const(0.0)])
        return body.select(predicate, a, b, a, on_false), max(ba, bb)
    if opname == "arith.mulf":
        return body.binary(opname, a, b), ba * bb
    if opname in ("arith.addf", "arith.subf"):
        return body.binary(opname, a, b), ba + bb
    return body.binary(opname, a, b), max(ba, bb)


def broadcast_operand(prog, x):
    """A new input indexed by a subset of x's dims (bias/scale style)."""
    rank = len(x.shape)
    keep = sorted(prog.rng.sample(range(rank), prog.rng.randint(1, rank))) if rank > 1 else [0]
    shape = [x.shape[d] for d in keep]
    return prog.new_input(shape, x.dtype), keep


def step_elementwise(prog):
    """A chain of 1-4 elementwise ops, in one generic or one generic per op."""
    x = prog.main
    ops = prog.rng.randint(1, 4)
    one_body = prog.rng.random() < 0.5
    prog.steps.append("elementwise(%d,%s)" % (ops, "fused" if one_body else "per-op"))
    if one_body:
        prog.main = elementwise_generic(prog, x, ops)
    else:
        for _ in range(ops):
            prog.main = elementwise_generic(prog, prog.main, 1)


def elementwise_generic(prog, x, ops):
    rng = prog.rng
    rank = len(x.shape)
    ins = [(x, identity(rank))]
    operands = []  # (in index, bound) the binary ops take from
    for _ in range(ops):
        choice = rng.random()
        if choice < 0.35:
            ins.append((prog.new_input(x.shape, x.dtype), identity(rank)))
        elif choice < 0.6:
            b, keep = broadcast_operand(prog, x)
            ins.append((b, keep))
            prog.features.add("broadcast-operand")
        elif choice < 0.7:
            ins.append((x, identity(rank)))  # the same value as two operands
            prog.features.add("used-twice")
        elif choice < 0.8 and prog.side and prog.side[-1].shape == x.shape \
                and prog.side[-1].dtype == x.dtype:
            other = prog.side.pop()
            ins.append((other, identity(rank)))
            prog.features.add("used-twice")
        else:
            continue
        operands.append(len(ins) - 1)
    kinds = [rng.choice(UNARY + BINARY) for _ in range(ops)]
    bound = [x.bound]

    def body_fn(body, in_args, out_args):
        values = [body.extend(a, t.dtype) for a, (t, _) in zip(in_args, ins)]
        acc, b_acc = values[0], x.bound
        pending = list(operands)
        for kind in kinds:
            if kind in BINARY and pending:
                j = pending.pop(0)
                acc, b_acc = prog.squash_if(body, acc, b_acc, x.dtype)
                acc, b_acc = apply_binary(prog, body, kind, acc, b_acc, values[j], ins[j][0].bound)
            elif kind in BINARY:
                scalar = rng.choice([0.5, 2.0, -1.5, 0.125])
                acc, b_acc = apply_binary(prog, body, kind, acc, b_acc, body.const(scalar),
                                          abs(scalar))
            else:
                acc, b_acc = apply_unary(prog, body, kind, acc, b_acc)
        # Operands the chain did not reach are added so that none is dead.
        for j in pending:
            acc = body.binary("arith.addf", acc, values[j])
            b_acc += ins[j][0].bound
        acc, b_acc = prog.squash_if(body, acc, b_acc, x.dtype)
        bound[0] = b_acc
        return [body.truncate(acc, x.dtype)]

    init = prog.fb.empty(x.shape, x.dtype)
    (name,) = prog.fb.generic(rank, ["parallel"] * rank, ins,
                              [(init, x.shape, x.dtype, identity(rank))], body_fn, "ew")
    return Tensor(name, x.shape, x.dtype, bound[0])


# -- reductions -------------------------------------------------------------

# kind -> (combiner, fill value, description)
REDUCTIONS = {
    "sum": ("arith.addf", 0.0),
    "max": ("arith.maximumf", NEG_INF),
    "min": ("arith.minimumf", POS_INF),
    "maxnumf-nan": ("arith.maxnumf", NAN),
}


def reduce_dims_of(prog, x, count=None):
    rank = len(x.shape)
    if rank < 2:
        return None
    count = count or (2 if rank >= 3 and prog.rng.random() < 0.3 else 1)
    return sorted(prog.rng.sample(range(rank), count))


def reduction(prog, x, dims, kind, init=None, prologue=None, acc_dtype="f32"):
    """Reduces x over `dims` with `kind`; init is a Tensor (computed init)
    or None (a fill with the kind's identity). prologue(body, v) maps the
    element first (e.g. v*v). Returns the reduced Tensor (dtype acc_dtype)."""
    rank = len(x.shape)
    kept = [d for d in range(rank) if d not in dims]
    shape = [x.shape[d] for d in kept]
    combiner, identity_value = REDUCTIONS[kind]
    init_name = init.name if init is not None else prog.fb.fill(identity_value, shape, acc_dtype)
    ops_bound = [x.bound]

    def body_fn(body, in_args, out_args):
        v = body.extend(in_args[0], x.dtype)
        if prologue:
            v, ops_bound[0] = prologue(body, v, x.bound)
        acc = body.extend(out_args[0], acc_dtype)
        return [body.truncate(body.binary(combiner, v, acc), acc_dtype)]

    iterators = ["reduction" if d in dims else "parallel" for d in range(rank)]
    (name,) = prog.fb.generic(rank, iterators, [(x, identity(rank))],
                              [(init_name, shape, acc_dtype, kept)], body_fn, "red")
    extent = math.prod(x.shape[d] for d in dims)
    bound = ops_bound[0] * extent if kind == "sum" else ops_bound[0]
    if init is not None:
        bound += init.bound
    return Tensor(name, shape, acc_dtype, bound)


def broadcast_back(prog, x, r, dims, opname, hint="bc"):
    """x `op` r with r broadcast along the reduced `dims` (x - max, x / sum)."""
    rank = len(x.shape)
    kept = [d for d in range(rank) if d not in dims]
    bound = [x.bound]

    def body_fn(body, in_args, out_args):
        a = body.extend(in_args[0], x.dtype)
        b = body.extend(in_args[1], r.dtype)
        value = body.binary(opname, a, b)
        if opname == "arith.subf":
            bound[0] = x.bound + r.bound
        elif opname == "arith.mulf":
            bound[0] = x.bound * r.bound
        return [body.truncate(value, x.dtype)]

    r_map = kept
    if prog.rng.random() < 0.25:
        # As named-op frontends write it: r materialized at x's shape by
        # linalg.broadcast, then read elementwise (smap-fold-broadcasts).
        r_init = prog.fb.empty(x.shape, r.dtype)
        r_full = prog.fb.fresh("bcast")
        prog.fb.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]"
                     % (r_full, r.name, r.type, r_init, tensor_type(x.shape, r.dtype),
                        ", ".join(str(d) for d in sorted(dims))))
        prog.features.add("broadcast-copy")
        r, r_map = Tensor(r_full, x.shape, r.dtype, r.bound), identity(rank)
    init = prog.fb.empty(x.shape, x.dtype)
    (name,) = prog.fb.generic(rank, ["parallel"] * rank, [(x, identity(rank)), (r, r_map)],
                              [(init, x.shape, x.dtype, identity(rank))], body_fn, hint)
    return Tensor(name, x.shape, x.dtype, bound[0])


def map_unary(prog, x, fn, bound, hint="ew"):
    """A one-input elementwise generic: fn(body, v) in f32."""
    rank = len(x.shape)

    def body_fn(body, in_args, out_args):
        return [body.truncate(fn(body, body.extend(in_args[0], x.dtype)), x.dtype)]

    init = prog.fb.empty(x.shape, x.dtype)
    (name,) = prog.fb.generic(rank, ["parallel"] * rank, [(x, identity(rank))],
                              [(init, x.shape, x.dtype, identity(rank))], body_fn, hint)
    return Tensor(name, x.shape, x.dtype, bound)


def computed_init(prog, shape, acc_dtype):
    """An init that is a previous op's result: a bias (the function's dtype)
    passed through an op into the accumulator's type."""
    bias = prog.new_input(shape)
    rank = len(shape)
    init = prog.fb.empty(shape, acc_dtype)

    def body_fn(body, in_args, out_args):
        v = body.binary("arith.mulf", body.extend(in_args[0], bias.dtype), body.const(0.5))
        return [body.truncate(v, acc_dtype)]

    (name,) = prog.fb.generic(rank, ["parallel"] * rank, [(bias, identity(rank))],
                              [(init, shape, acc_dtype, identity(rank))], body_fn, "bias")
    return Tensor(name, shape, acc_dtype, 0.5)


def step_reduction(prog):
    x = prog.main
    dims = reduce_dims_of(prog, x)
    if dims is None:
        return False
    kind = prog.rng.choice(["sum", "sum", "max", "min", "maxnumf-nan", "computed"])
    squares = kind in ("sum", "computed") and x.bound <= 100 and prog.rng.random() < 0.3
    init = None
    if kind == "computed":
        kept_shape = [x.shape[d] for d in range(len(x.shape)) if d not in dims]
        init = computed_init(prog, kept_shape, "f32")
        kind = "sum"
        prog.features.add("computed-init")
    prologue = (lambda body, v, b: (body.binary("arith.mulf", v, v), b * b)) if squares else None
    prog.steps.append("reduce(%s%s,dims=%s%s)" % (kind, "+init" if init else "",
                                                   ",".join(map(str, dims)),
                                                   ",squares" if squares else ""))
    r = reduction(prog, x, dims, kind, init, prologue)
    if r.bound > prog.limit("f32"):
        r = map_unary(prog, r, lambda body, v: body.unary("math.tanh", v), 1.0, "squash")
    if prog.rng.random() < 0.5 and x.dtype == "f32":
        # Broadcast it back (x - r): a dependent chain like a normalization's.
        prog.side_or_drop(x)
        prog.main = broadcast_back(prog, x, r, dims, "arith.subf")
        prog.steps[-1] += "+broadcast"
    else:
        prog.main = r if x.dtype == "f32" else to_dtype(prog, r, x.dtype)
    return True


def to_dtype(prog, x, dtype):
    """Truncates an f32 accumulator back to the function's 16-bit type."""
    rank = len(x.shape)
    init = prog.fb.empty(x.shape, dtype)
    (name,) = prog.fb.generic(rank, ["parallel"] * rank, [(x, identity(rank))],
                              [(init, x.shape, dtype, identity(rank))],
                              lambda body, i, o: [body.truncate(i[0], dtype)], "trunc")
    return Tensor(name, x.shape, dtype, x.bound)


def step_multi_reduction(prog):
    """One generic computing two reductions (sum and max) of the same input."""
    x = prog.main
    dims = reduce_dims_of(prog, x, 1)
    if dims is None:
        return False
    rank = len(x.shape)
    kept = [d for d in range(rank) if d not in dims]
    shape = [x.shape[d] for d in kept]
    sum_init = prog.fb.fill(0.0, shape, "f32")
    max_init = prog.fb.fill(NEG_INF, shape, "f32")

    def body_fn(body, in_args, out_args):
        v = body.extend(in_args[0], x.dtype)
        return [body.binary("arith.addf", v, out_args[0]),
                body.binary("arith.maximumf", v, out_args[1])]

    iterators = ["reduction" if d in dims else "parallel" for d in range(rank)]
    names = prog.fb.generic(rank, iterators, [(x, identity(rank))],
                            [(sum_init, shape, "f32", kept), (max_init, shape, "f32", kept)],
                            body_fn, "mred")
    extent = math.prod(x.shape[d] for d in dims)
    prog.steps.append("multi-result-reduce(dims=%d)" % dims[0])
    prog.features.add("multi-result")
    total = Tensor(names[0], shape, "f32", x.bound * extent)
    prog.side.append(Tensor(names[1], shape, "f32", x.bound))
    prog.main = total if x.dtype == "f32" else to_dtype(prog, total, x.dtype)
    return True


# -- normalizations ---------------------------------------------------------


def mask_values(prog, s, dim):
    """s with some positions set to -inf, never a whole row: by index
    against another dim (causal, anti-causal; a sliding window, a prefix LM
    and a band, written with `ori` / `andi` / `xori` as frontends combine
    masks), or where s is large."""
    rank = len(s.shape)
    others = [d for d in range(rank) if d != dim and s.shape[d] > 1]
    styles = ["causal", "anti-causal", "threshold", "prefix", "band", "window"]
    style = prog.rng.choice(styles) if others else "threshold"
    row = prog.rng.choice(others) if others else None
    if style == "window" and s.shape[row] > s.shape[dim]:
        style = "causal"  # rows past the last column would see no key
    n = s.shape[dim]
    prefix = prog.rng.randint(1, n) if style in ("prefix", "band") else 0
    width = prog.rng.randint(1, n) if style == "window" else 0
    negate = prog.rng.random() < 0.5
    if prog.later_features and prog.aux.random() < 0.3:
        style = "tensor"  # an i1 input, as torch's boolean attn_mask
    prog.features.add("mask-" + style)

    def compare(body, predicate, a, b):
        cond = prog.fb.fresh("c")
        body.lines.append("%s = arith.cmpi %s, %s, %s : index" % (cond, predicate, a, b))
        return cond

    def masked(body, v, hide):
        """-inf where `hide`; as select(keep, v, -inf) with keep = hide ^ true
        half the time (torch's masked_fill(~keep))."""
        ninf = body.const(NEG_INF)
        if negate:
            keep = body.op("arith.xori %s, %s" % (hide, body.const(1, "i1")), "i1")
            return body.op("arith.select %s, %s, %s" % (keep, v, ninf))
        return body.op("arith.select %s, %s, %s" % (hide, ninf, v))

    def body_fn(body, in_args, out_args):
        v = body.extend(in_args[0], s.dtype)
        j = body.index(dim)
        if style == "tensor":
            # Kept where the mask input is 1, and in column 0 (no row is
            # masked entirely).
            first = compare(body, "eq", j, body.const(0, "index"))
            keep = body.op("arith.ori %s, %s" % (in_args[1], first), "i1")
            return [body.truncate(body.op("arith.select %s, %s, %s" % (keep, v, body.const(NEG_INF))),
                                  s.dtype)]
        if style == "threshold":
            # Where v > 0.5, except in column 0: no row is masked entirely.
            large = prog.fb.fresh("c")
            body.lines.append("%s = arith.cmpf ogt, %s, %s : f32" % (large, v, body.const(0.5)))
            inner = compare(body, "ne", j, body.const(0, "index"))
            cond = body.op("arith.andi %s, %s" % (large, inner), "i1")
            return [body.truncate(body.op("arith.select %s, %s, %s" % (cond, body.const(NEG_INF), v)),
                                  s.dtype)]
        i = body.index(row)
        if style == "anti-causal":
            # Rows past the last column keep it: the row index clamped.
            i = body.binary("arith.minsi", i, body.const(n - 1, "index"), "index")
            hide = compare(body, "slt", j, i)
        elif style == "causal":
            hide = compare(body, "sgt", j, i)  # column 0 is seen by every row
        elif style == "prefix":
            # Hidden past the row and past the prefix (a conjunction).
            hide = body.op("arith.andi %s, %s" % (compare(body, "sgt", j, i),
                                                  compare(body, "sge", j, body.const(prefix, "index"))),
                           "i1")
        elif style == "band":
            # Hidden past the row and before `prefix`: a conjunction bounding
            # the column from both sides (column 0 seen by every row).
            hide = body.op("arith.andi %s, %s" % (compare(body, "sgt", j, i),
                                                  compare(body, "slt", j, body.const(prefix, "index"))),
                           "i1")
        else:
            # A sliding window: hidden past the row or `width` or more
            # before it (a union).
            jw = body.binary("arith.addi", j, body.const(width, "index"), "index")
            hide = body.op("arith.ori %s, %s" % (compare(body, "sgt", j, i), compare(body, "sle", jw, i)),
                           "i1")
        return [body.truncate(masked(body, v, hide), s.dtype)]

    inputs = [(s, identity(rank))]
    if style == "tensor":
        inputs.append((prog.new_input(s.shape, "i1"), identity(rank)))
    init = prog.fb.empty(s.shape, s.dtype)
    (name,) = prog.fb.generic(rank, ["parallel"] * rank, inputs,
                              [(init, s.shape, s.dtype, identity(rank))], body_fn, "mask")
    return Tensor(name, s.shape, s.dtype, s.bound)


def softmax(prog, x, dim, flavor):
    """softmax of x along dim: the named op, or the decomposition with the
    max as -inf/maximumf (torch-mlir) or NaN/maxnumf (upstream's)."""
    rank = len(x.shape)
    if flavor == "named":
        init = prog.fb.empty(x.shape, x.dtype)
        name = prog.fb.fresh("softmax")
        prog.fb.emit("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s"
                     % (name, dim, x.name, x.type, init, x.type, x.type))
        return Tensor(name, x.shape, x.dtype, 1.0)
    kind = "maxnumf-nan" if flavor == "nan-max" else "max"
    m = reduction(prog, x, [dim], kind)
    kept = [d for d in range(rank) if d != dim]

    def exp_body(body, in_args, out_args):
        v = body.extend(in_args[0], x.dtype)
        d = body.binary("arith.subf", v, in_args[1])
        return [body.truncate(body.unary("math.exp", d), x.dtype)]

    e_init = prog.fb.empty(x.shape, x.dtype)
    (e_name,) = prog.fb.generic(rank, ["parallel"] * rank, [(x, identity(rank)), (m, kept)],
                                [(e_init, x.shape, x.dtype, identity(rank))], exp_body, "exp")
    e = Tensor(e_name, x.shape, x.dtype, 1.0)
    s = reduction(prog, e, [dim], "sum")
    return broadcast_back(prog, e, s, [dim], "arith.divf", "softmax")


def step_softmax(prog):
    x = prog.main
    rank = len(x.shape)
    dim = prog.rng.randrange(rank)
    flavor = prog.rng.choice(["generic", "generic", "named", "nan-max"])
    masked = flavor != "named" and rank >= 1 and prog.rng.random() < 0.3
    prog.steps.append("softmax(%s,dim=%d%s)" % (flavor, dim, ",masked" if masked else ""))
    if masked:
        x = mask_values(prog, x, dim)
    prog.main = softmax(prog, x, dim, flavor)
    return True


def norm_dims(prog, x):
    rank = len(x.shape)
    count = 2 if rank >= 3 and prog.rng.random() < 0.3 else 1
    return list(range(rank - count, rank))  # the trailing dims, as LayerNorm does


def step_layernorm(prog):
    x = prog.main
    if len(x.shape) < 2 or x.bound > 100:
        return False
    dims = norm_dims(prog, x)
    extent = math.prod(x.shape[d] for d in dims)
    affine = prog.rng.random() < 0.6
    prog.steps.append("layernorm(dims=%s%s)" % (",".join(map(str, dims)), ",affine" if affine else ""))
    mean = scale(prog, reduction(prog, x, dims, "sum"), 1.0 / extent, x.bound)
    centered = broadcast_back(prog, x, mean, dims, "arith.subf")
    var = scale(prog, reduction(prog, centered, dims, "sum",
                                prologue=lambda b, v, bd: (b.binary("arith.mulf", v, v), bd * bd)),
                1.0 / extent, centered.bound ** 2)
    rstd = map_unary(prog, var, lambda b, v: b.unary("math.rsqrt",
                                                     b.binary("arith.addf", v, b.const(1e-5))),
                     1.0 / math.sqrt(1e-5), "rstd")
    y = broadcast_back(prog, centered, rstd, dims, "arith.mulf")
    y.bound = math.sqrt(extent) + 1
    prog.main = affine_params(prog, y, dims) if affine else y
    return True


def step_rmsnorm(prog):
    x = prog.main
    if len(x.shape) < 2 or x.bound > 100:
        return False
    dims = norm_dims(prog, x)
    extent = math.prod(x.shape[d] for d in dims)
    prog.steps.append("rmsnorm(dims=%s)" % ",".join(map(str, dims)))
    ms = scale(prog, reduction(prog, x, dims, "sum",
                               prologue=lambda b, v, bd: (b.binary("arith.mulf", v, v), bd * bd)),
               1.0 / extent, x.bound ** 2)
    r = map_unary(prog, ms, lambda b, v: b.unary("math.rsqrt",
                                                 b.binary("arith.addf", v, b.const(1e-6))),
                  1e3, "rrms")
    y = broadcast_back(prog, x, r, dims, "arith.mulf")
    y.bound = math.sqrt(extent) + 1
    prog.main = affine_params(prog, y, dims, beta=False)
    return True


def scale(prog, x, factor, bound):
    return map_unary(prog, x, lambda b, v: b.binary("arith.mulf", v, b.const(factor)), bound,
                     "scale")


def affine_params(prog, y, dims, beta=True):
    """y * gamma (+ beta), the parameters indexed by the normalized dims."""
    rank = len(y.shape)
    shape = [y.shape[d] for d in dims]
    gamma = prog.new_input(shape, y.dtype)
    ins = [(y, identity(rank)), (gamma, dims)]
    if beta:
        ins.append((prog.new_input(shape, y.dtype), dims))

    def body_fn(body, in_args, out_args):
        vals = [body.extend(a, t.dtype) for a, (t, _) in zip(in_args, ins)]
        v = body.binary("arith.mulf", vals[0], vals[1])
        if beta:
            v = body.binary("arith.addf", v, vals[2])
        return [body.truncate(v, y.dtype)]

    init = prog.fb.empty(y.shape, y.dtype)
    (name,) = prog.fb.generic(rank, ["parallel"] * rank, ins,
                              [(init, y.shape, y.dtype, identity(rank))], body_fn, "affine")
    return Tensor(name, y.shape, y.dtype, y.bound + 1)


# -- contractions -------------------------------------------------------------


def pick_n(prog, macs_per_n, elements_per_n):
    sizes = [s for s in SIZES if s * macs_per_n <= MAX_MACS and s * elements_per_n <= MAX_ELEMENTS]
    return prog.rng.choice(sizes) if sizes else None


def accumulator_init(prog, shape, acc_dtype):
    """Zero fill, or (sometimes) a computed value: the bias as the init."""
    if prog.rng.random() < 0.2:
        prog.features.add("computed-init")
        init = computed_init(prog, shape, acc_dtype)
        return init.name, init.bound
    return prog.fb.fill(0.0, shape, acc_dtype), 0.0


def contraction_generic(prog, a, a_exprs, b, b_exprs, rank, out_exprs, reduce_loops, out_shape,
                        acc_dtype):
    init, init_bound = accumulator_init(prog, out_shape, acc_dtype)

    def body_fn(body, in_args, out_args):
        va = body.extend(in_args[0], a.dtype)
        vb = body.extend(in_args[1], b.dtype)
        acc = body.extend(out_args[0], acc_dtype)
        return [body.truncate(body.binary("arith.addf", acc, body.binary("arith.mulf", va, vb)),
                              acc_dtype)]

    iterators = ["reduction" if d in reduce_loops else "parallel" for d in range(rank)]
    (name,) = prog.fb.generic(rank, iterators, [(a, a_exprs), (b, b_exprs)],
                              [(init, out_shape, acc_dtype, out_exprs)], body_fn, "mm")
    return name, init_bound


def gemm(prog, x, n=None, style=None, weight=None):
    """x[..., m, k] times a new weight [k, n] (or [n, k] transposed): the
    named op (matmul, batch_matmul) or a generic; f16/bf16 accumulate in f32."""
    rank = len(x.shape)
    batch, m, k = x.shape[:-2], x.shape[-2], x.shape[-1]
    acc_dtype = "f32"
    if n is None:
        n = pick_n(prog, math.prod(x.shape), math.prod(batch) * max(m, k))
        if n is None:
            return None
    styles = ["generic", "generic-transposed-b"]
    if rank == 2:
        styles += ["named", "named", "generic-transposed-a"]
    if rank == 3:
        styles += ["named-batch", "named-batch"]
    style = style or prog.rng.choice(styles)
    out_shape = list(batch) + [m, n]
    transposed_b = style == "generic-transposed-b"
    w_shape = list(batch if style == "named-batch" else []) + ([n, k] if transposed_b else [k, n])
    w = weight or prog.new_input(w_shape, x.dtype)
    bound = x.bound * w.bound * k
    if style.startswith("named"):
        op = "linalg.matmul" if style == "named" else "linalg.batch_matmul"
        init, init_bound = accumulator_init(prog, out_shape, acc_dtype)
        name = prog.fb.fresh("mm")
        out_type = tensor_type(out_shape, acc_dtype)
        prog.fb.emit("%s = %s ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                     % (name, op, x.name, w.name, x.type, w.type, init, out_type, out_type))
    elif style == "generic-transposed-a":
        # x is given as [k, m]: a transposed copy of the operand frontends fold in.
        xt = transpose_generic(prog, x, [1, 0])
        loops = 3  # (m, n, k)
        name, init_bound = contraction_generic(prog, xt, [2, 0], w, [2, 1], loops, [0, 1], [2],
                                               out_shape, acc_dtype)
    else:
        nb = len(batch)
        loops = nb + 3  # (batch..., m, n, k)
        bdims = list(range(nb))
        mi, ni, ki = nb, nb + 1, nb + 2
        w_exprs = [ni, ki] if transposed_b else [ki, ni]
        name, init_bound = contraction_generic(prog, x, bdims + [mi, ki], w, w_exprs, loops,
                                               bdims + [mi, ni], [ki], out_shape, acc_dtype)
    prog.steps.append("gemm(%s,%s)" % (style, "x".join(map(str, out_shape + [k]))))
    result = Tensor(name, out_shape, acc_dtype, bound + init_bound)
    if result.bound > prog.limit(x.dtype):
        result = map_unary(prog, result, lambda b, v: b.unary("math.tanh", v), 1.0, "squash")
    return result if x.dtype == "f32" else to_dtype(prog, result, x.dtype)


def transpose_generic(prog, x, perm):
    """A transposed copy: linalg.transpose or a generic with permuted maps."""
    rank = len(x.shape)
    shape = [x.shape[p] for p in perm]
    init = prog.fb.empty(shape, x.dtype)
    if prog.rng.random() < 0.5:
        name = prog.fb.fresh("tr")
        prog.fb.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]"
                     % (name, x.name, x.type, init, tensor_type(shape, x.dtype),
                        ", ".join(map(str, perm))))
    else:
        # out[i] = x[perm^-1 ...]: loops over the output, the input map permuted.
        (name,) = prog.fb.generic(rank, ["parallel"] * rank,
                                  [(x, [perm.index(d) for d in range(rank)])],
                                  [(init, shape, x.dtype, identity(rank))],
                                  lambda body, i, o: [i[0]], "tr")
    return Tensor(name, shape, x.dtype, x.bound)


def ensure_matrix(prog):
    """The main value as [.., m, k] for a GEMM: rank 2 or 3 (else a new input)."""
    x = prog.main
    if len(x.shape) in (2, 3) and x.elements <= MAX_ELEMENTS:
        return x
    prog.side_or_drop(x)
    return prog.new_input(draw_shape(prog.rng, prog.rng.choice([2, 3])))


def step_gemm(prog):
    x = ensure_matrix(prog)
    y = gemm(prog, x)
    if y is None:
        return False
    if prog.rng.random() < 0.4:
        # A GEMM chain (MLP-like): an activation, then a second GEMM.
        prog.steps[-1] = prog.steps[-1].replace("gemm(", "gemm-chain(")
        y = map_unary(prog, y, lambda b, v: b.unary("math.tanh", v), 1.0, "act")
        y2 = gemm(prog, y)
        if y2 is not None:
            y = y2
    prog.main = y
    return True


def step_attention(prog):
    """softmax(Q K^T * scale [+ mask]) V, the first GEMM written as a generic."""
    rng = prog.rng
    batch = [rng.choice([1, 3, 7, 16])] if rng.random() < 0.6 else []
    for _ in range(30):
        m, l, d, n = (draw_size(rng) for _ in range(4))
        b = math.prod(batch)
        if b * m * l <= MAX_ELEMENTS and b * m * l * max(d, n) <= MAX_MACS and \
                fits(batch + [m, d], batch + [l, d], batch + [l, n], batch + [m, n]):
            break
    else:
        return False
    x = prog.main
    if list(x.shape) == batch + [m, d]:
        q = x
    else:
        prog.side_or_drop(x)
        q = prog.new_input(batch + [m, d])
    kt = rng.random() < 0.3  # K given as [.., d, l]
    k = prog.new_input(batch + ([d, l] if kt else [l, d]))
    v = prog.new_input(batch + [l, n])
    nb = len(batch)
    bd = list(range(nb))
    mi, li, ki = nb, nb + 1, nb + 2  # loops (batch.., m, l, k)
    s_shape = batch + [m, l]
    s_name, _ = contraction_generic(prog, q, bd + [mi, ki], k, bd + ([ki, li] if kt else [li, ki]),
                                    nb + 3, bd + [mi, li], [ki], s_shape, "f32")
    s = Tensor(s_name, s_shape, "f32", q.bound * k.bound * d)
    s = scale(prog, s, 1.0 / math.sqrt(d), s.bound / math.sqrt(d))
    if s.bound > EXP_LIMIT:
        s = map_unary(prog, s, lambda b_, v_: b_.unary("math.tanh", v_), 1.0, "squash")
    masked = rng.random() < 0.35
    if masked:
        s = mask_values(prog, s, nb + 1)
    flavor = rng.choice(["generic", "generic", "nan-max", "named"])
    p = softmax(prog, s, nb + 1, flavor)
    p_style = rng.choice(["generic", "named"])
    if p_style == "named" and nb <= 1:
        o = gemm(prog, p, n=n, style="named" if nb == 0 else "named-batch", weight=v)
        prog.steps.pop()
    else:
        o_name, _ = contraction_generic(prog, p, bd + [mi, li], v, bd + [li, ki], nb + 3,
                                        bd + [mi, ki], [li], batch + [m, n], "f32")
        o = Tensor(o_name, batch + [m, n], "f32", float(l))
    prog.steps.append("attention(%s,softmax=%s,pv=%s%s%s)" % (
        "x".join(map(str, batch + [m, l, d, n])), flavor, p_style, ",kt" if kt else "",
        ",masked" if masked else ""))
    prog.main = o if prog.dtype == "f32" or o.dtype != "f32" else to_dtype(prog, o, prog.dtype)
    return True


# -- layout -------------------------------------------------------------------


def factor_pairs(n):
    return [(a, n // a) for a in range(1, n + 1) if n % a == 0]


def step_transpose(prog):
    x = prog.main
    rank = len(x.shape)
    if rank < 2:
        return False
    perm = list(range(rank))
    while perm == list(range(rank)):
        prog.rng.shuffle(perm)
    prog.steps.append("transpose(%s)" % ",".join(map(str, perm)))
    prog.main = transpose_generic(prog, x, perm)
    return True


def step_expand(prog):
    x = prog.main
    rank = len(x.shape)
    if rank >= 4:
        return False
    d = prog.rng.randrange(rank)
    a, b = prog.rng.choice(factor_pairs(x.shape[d]))
    shape = list(x.shape[:d]) + [a, b] + list(x.shape[d + 1:])
    groups = [[i] for i in range(d)] + [[d, d + 1]] + [[i + 1] for i in range(d + 1, rank)]
    name = prog.fb.fresh("exp_sh")
    prog.fb.emit("%s = tensor.expand_shape %s %s output_shape [%s] : %s into %s"
                 % (name, x.name, groups_text(groups), ", ".join(map(str, shape)), x.type,
                    tensor_type(shape, x.dtype)))
    prog.steps.append("expand_shape(%d->%dx%d)" % (d, a, b))
    prog.main = Tensor(name, shape, x.dtype, x.bound)
    return True


def step_collapse(prog):
    x = prog.main
    rank = len(x.shape)
    if rank < 2:
        return False
    d = prog.rng.randrange(rank - 1)
    shape = list(x.shape[:d]) + [x.shape[d] * x.shape[d + 1]] + list(x.shape[d + 2:])
    groups = [[i] for i in range(d)] + [[d, d + 1]] + [[i] for i in range(d + 2, rank)]
    name = prog.fb.fresh("col_sh")
    prog.fb.emit("%s = tensor.collapse_shape %s %s : %s into %s"
                 % (name, x.name, groups_text(groups), x.type, tensor_type(shape, x.dtype)))
    prog.steps.append("collapse_shape(%d,%d)" % (d, d + 1))
    prog.main = Tensor(name, shape, x.dtype, x.bound)
    return True


def groups_text(groups):
    return "[%s]" % ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups)


def step_broadcast(prog):
    """linalg.broadcast: a new dim, then something that reduces or uses it."""
    x = prog.main
    rank = len(x.shape)
    if rank >= 4:
        return False
    size = prog.rng.choice([s for s in SIZES if s * x.elements <= MAX_ELEMENTS] or [1])
    d = prog.rng.randrange(rank + 1)
    shape = list(x.shape[:d]) + [size] + list(x.shape[d:])
    init = prog.fb.empty(shape, x.dtype)
    name = prog.fb.fresh("bcast")
    prog.fb.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%d]"
                 % (name, x.name, x.type, init, tensor_type(shape, x.dtype), d))
    prog.steps.append("broadcast(dim=%d,size=%d)" % (d, size))
    prog.main = Tensor(name, shape, x.dtype, x.bound)
    return True


def step_multi_output_elementwise(prog):
    """One generic with two results: x * c and exp(tanh(x))."""
    x = prog.main
    rank = len(x.shape)
    inits = [prog.fb.empty(x.shape, x.dtype) for _ in range(2)]

    def body_fn(body, in_args, out_args):
        v = body.extend(in_args[0], x.dtype)
        first = body.binary("arith.mulf", v, body.const(0.5))
        second = body.unary("math.exp", body.unary("math.tanh", v))
        return [body.truncate(first, x.dtype), body.truncate(second, x.dtype)]

    names = prog.fb.generic(rank, ["parallel"] * rank, [(x, identity(rank))],
                            [(i, x.shape, x.dtype, identity(rank)) for i in inits], body_fn, "mo")
    prog.steps.append("multi-result-elementwise")
    prog.features.add("multi-result")
    prog.side.append(Tensor(names[1], x.shape, x.dtype, math.e))
    prog.main = Tensor(names[0], x.shape, x.dtype, x.bound * 0.5)
    return True


# -- exotic programs (low weight): integer and index element types, zero dims --


def integer_program(prog):
    """An i32 elementwise op and an integer sum reduction (addi)."""
    rank = prog.rng.choice([2, 3])
    x = prog.new_input(draw_shape(prog.rng, rank), "i32")
    y = prog.new_input(x.shape, "i32")
    init = prog.fb.empty(x.shape, "i32")
    (s,) = prog.fb.generic(rank, ["parallel"] * rank, [(x, identity(rank)), (y, identity(rank))],
                           [(init, x.shape, "i32", identity(rank))],
                           lambda b, i, o: [b.binary(prog.rng.choice(["arith.addi", "arith.muli",
                                                                      "arith.maxsi"]),
                                                     i[0], i[1], "i32")], "iew")
    dims = [rank - 1]
    kept = identity(rank - 1)
    shape = list(x.shape[:-1])
    fill = prog.fb.fill(0, shape, "i32")
    (r,) = prog.fb.generic(rank, ["parallel"] * (rank - 1) + ["reduction"],
                           [(Tensor(s, x.shape, "i32", 1), identity(rank))],
                           [(fill, shape, "i32", kept)],
                           lambda b, i, o: [b.binary("arith.addi", i[0], o[0], "i32")], "ired")
    prog.steps.append("integer(reduce,dim=%d)" % dims[0])
    prog.main = Tensor(r, shape, "i32", 1)


def index_program(prog):
    """An intermediate of index element type (linalg.index), used by a float op."""
    rank = 2
    x = prog.new_input(draw_shape(prog.rng, rank))
    init = prog.fb.empty(x.shape, "index")
    (idx,) = prog.fb.generic(rank, ["parallel"] * rank, [],
                             [(init, x.shape, "index", identity(rank))],
                             lambda b, i, o: [b.binary("arith.addi", b.index(0), b.index(1),
                                                       "index")], "iota")
    it = Tensor(idx, x.shape, "index", 1)
    out = prog.fb.empty(x.shape, x.dtype)

    def body_fn(body, in_args, out_args):
        as_int = body.op("arith.index_cast %s" % in_args[1], "index to i32")
        as_float = body.op("arith.sitofp %s" % as_int, "i32 to f32")
        return [body.truncate(body.binary("arith.mulf", body.extend(in_args[0], x.dtype),
                                          as_float), x.dtype)]

    (y,) = prog.fb.generic(rank, ["parallel"] * rank, [(x, identity(rank)), (it, identity(rank))],
                           [(out, x.shape, x.dtype, identity(rank))], body_fn, "useidx")
    prog.steps.append("index-element-type")
    prog.main = Tensor(y, x.shape, x.dtype, float(sum(x.shape)))


def zero_dim_program(prog):
    """A softmax-like reduction over a tensor with a zero-size dim."""
    shape = draw_shape(prog.rng, 2)
    shape[prog.rng.randrange(2)] = 0
    prog.features.add("zero-size-dim")
    prog.main = prog.new_input(shape)
    prog.steps.append("zero-size-dim(%s)" % "x".join(map(str, shape)))
    (step_softmax if prog.rng.random() < 0.5 else step_reduction)(prog)


# -- assembling a program --------------------------------------------------------

STEPS = [
    (step_elementwise, 14),
    (step_reduction, 12),
    (step_softmax, 12),
    (step_layernorm, 8),
    (step_rmsnorm, 5),
    (step_gemm, 12),
    (step_attention, 8),
    (step_transpose, 5),
    (step_expand, 3),
    (step_collapse, 3),
    (step_broadcast, 4),
    (step_multi_reduction, 3),
    (step_multi_output_elementwise, 3),
]
EXOTIC = [(integer_program, 1), (index_program, 1), (zero_dim_program, 1)]
# Seeds from here on may use the features added after the recorded runs
# (masks given as i1 tensors).
FEATURES_SINCE = 2000
EXOTIC_PROBABILITY = 0.04


def side_or_drop(self, value):
    """A value the main chain stops using: returned if it was computed."""
    if not value.name.startswith("%arg") and value not in self.side:
        self.side.append(value)


Program.side_or_drop = side_or_drop


def pick_dtype(rng):
    return rng.choices(["f32", "f16", "bf16"], [8, 1, 1])[0]


def uses_cse(seed):
    """Whether the runner pipes this seed's module through --cse first."""
    return random.Random("cse-%d" % seed).random() < 0.5


def build(seed):
    """The Program for `seed` (deterministic)."""
    rng = random.Random(seed)
    prog = Program(rng, pick_dtype(rng), seed)
    if rng.random() < EXOTIC_PROBABILITY:
        prog.dtype = prog.fb.dtype = "f32"
        rng.choices([f for f, _ in EXOTIC], [w for _, w in EXOTIC])[0](prog)
        return prog
    prog.main = prog.new_input(draw_shape(rng, rng.choices([1, 2, 3, 4], [1, 5, 4, 1])[0]))
    wanted = rng.choices([1, 2, 3, 4], [3, 4, 2, 1])[0]
    done = attempts = 0
    while done < wanted and attempts < 20:
        attempts += 1
        step = rng.choices([s for s, _ in STEPS], [w for _, w in STEPS])[0]
        if step(prog) is not False:
            done += 1
    if done == 0:
        step_elementwise(prog)
    if rng.random() < 0.25 and not prog.side:
        prog.features.add("multi-output")
        prog.side.append(prog.main)
        step_elementwise(prog)  # the previous main is returned and used again
    return prog


def results_of(prog):
    results = [prog.main] + [v for v in prog.side if v is not prog.main]
    if len(results) > 1:
        prog.features.add("multi-output")
    return results


def header(seed, prog):
    features = sorted(prog.features) or ["-"]
    return "// fuzz: seed=%d dtype=%s cse=%d steps=%s features=%s" % (
        seed, prog.dtype, uses_cse(seed), ";".join(prog.steps), ",".join(features))


def generate(seed):
    """The module text for `seed`: a `// fuzz:` line, #map aliases, @fuzz."""
    prog = build(seed)
    results = results_of(prog)
    return prog.fb.render(results, header(seed, prog))
