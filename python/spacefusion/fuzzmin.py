"""Shrinks a failing fuzzer module while its failure persists.

    python3 -m spacefusion.fuzz --minimize SEED [--stage STAGE] [--build-dir DIR]

The module is cut at the statement level: a return value dropped, or an op
replaced by a new function argument of its result type (which makes the ops
only it used dead; they are removed too). A candidate is kept when the same
stage, run the same way (cse first if the seed uses it, the same forced
schedule), still fails with the same outcome and, for crashes and invalid
IR, the same reason. Works on the text fuzzgen writes (one statement per
line, a linalg.generic up to its `} -> type` line).
"""

import os
import re
import shutil
import sys
import tempfile

from . import fuzz
from .fuzzgen import generate, uses_cse

RESULT = re.compile(r"^  (%[\w]+)(?::(\d+))? = ")


class Module:
    """The parts of one @fuzz module: header, signature, statements, return."""

    def __init__(self, text):
        lines = text.splitlines()
        start = next(i for i, l in enumerate(lines) if l.startswith("func.func @fuzz("))
        self.prologue = lines[:start]
        m = re.match(r"func\.func @fuzz\((.*)\) -> \((.*)\) \{$", lines[start])
        self.args = split_top(m.group(1))  # ["%arg0: tensor<...>", ...]
        self.statements = []
        current = None
        for line in lines[start + 1:]:
            if line.startswith("  return "):
                ret = re.match(r"  return (.*) : (.*)$", line)
                self.returns = list(zip(split_top(ret.group(1)), split_top(ret.group(2))))
                break
            current = (current or []) + [line]
            has_region = current[0].rstrip().endswith("{")
            if not has_region or line.startswith("  } ->"):
                self.statements.append(current)
                current = None
        self.fresh = 0

    def text(self):
        sig = ", ".join(self.args)
        types = ", ".join(t for _, t in self.returns)
        out = list(self.prologue)
        out.append("func.func @fuzz(%s) -> (%s) {" % (sig, types))
        for s in self.statements:
            out.extend(s)
        out.append("  return %s : %s" % (", ".join(v for v, _ in self.returns), types))
        out.append("}")
        return "\n".join(out) + "\n"

    def copy(self):
        other = Module.__new__(Module)
        other.prologue, other.args = list(self.prologue), list(self.args)
        other.statements = [list(s) for s in self.statements]
        other.returns, other.fresh = list(self.returns), self.fresh
        return other


def split_top(text):
    """Splits at commas outside <>, (), [] (types hold commas)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "<([" and 1 or (ch in ">)]" and -1 or 0)
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def results_of(statement):
    """[(name as used, type)] of a statement's results."""
    m = RESULT.match(statement[0])
    if not m:
        return []
    name, count = m.group(1), m.group(2)
    types = result_types(statement)
    if count:
        return [("%s#%d" % (name, i), t) for i, t in enumerate(types)]
    return [(name, types[0])]


def result_types(statement):
    last = statement[-1].rstrip()
    first = statement[0].rstrip()
    if len(statement) > 1 or " -> " in first:
        tail = last.rsplit(" -> ", 1)[1]
        return split_top(tail[1:-1]) if tail.startswith("(") else [tail]
    if " into " in first:
        return [first.rsplit(" into ", 1)[1]]
    outs = re.search(r"outs\(%\w+ : ([^)]*)\)", first)
    if outs:
        return [outs.group(1)]
    return [first.rsplit(" : ", 1)[1]]


def uses(text, name):
    return re.search(re.escape(name) + r"(?![\w#])", text) is not None


def used_names(module, skip=None):
    text = "\n".join("\n".join(s) for i, s in enumerate(module.statements) if i != skip)
    return text + "\n" + " ".join(v for v, _ in module.returns)


def remove_dead(module):
    """Drops statements none of whose results are used, and unused args."""
    changed = True
    while changed:
        changed = False
        for i in reversed(range(len(module.statements))):
            results = results_of(module.statements[i])
            rest = used_names(module, skip=i)
            base = RESULT.match(module.statements[i][0])
            if base and not any(uses(rest, r) for r, _ in results) and not uses(rest, base.group(1)):
                del module.statements[i]
                changed = True
    body = used_names(module)
    module.args = [a for a in module.args if uses(body, a.split(":")[0])]
    return module


def replace_by_argument(module, index):
    """The statement's results become new function arguments."""
    results = results_of(module.statements[index])
    if not results or any(not t.startswith("tensor<") for _, t in results):
        return None
    out = module.copy()
    renames = {}
    for name, type_ in results:
        out.fresh += 1
        arg = "%%min%d" % out.fresh
        out.args.append("%s: %s" % (arg, type_))
        renames[name] = arg
    del out.statements[index]

    def rename(line):
        for old, new in renames.items():
            line = re.sub(re.escape(old) + r"(?![\w#])", new, line)
        return line
    out.statements = [[rename(l) for l in s] for s in out.statements]
    out.returns = [(rename(v), t) for v, t in out.returns]
    return remove_dead(out)


def operands_of(statement):
    """[(name, type)] of the tensor operands in the statement's ins(...)."""
    m = re.search(r"\bins\(([^:]*) : (.*?)\)(?: outs| permutation| dimensions|$)", statement[0])
    if not m:
        return []
    return list(zip(split_top(m.group(1)), split_top(m.group(2))))


def bypass(module, index, operand):
    """Uses of the statement's (single) result read its operand instead."""
    results = results_of(module.statements[index])
    if len(results) != 1 or results[0][1] != operand[1]:
        return None
    out = module.copy()
    old, new = results[0][0], operand[0]
    del out.statements[index]
    pattern = re.escape(old) + r"(?![\w#])"
    out.statements = [[re.sub(pattern, new, l) for l in s] for s in out.statements]
    out.returns = [(re.sub(pattern, new, v), t) for v, t in out.returns]
    return remove_dead(out)


def drop_return(module, index):
    if len(module.returns) < 2:
        return None
    out = module.copy()
    del out.returns[index]
    return remove_dead(out)


# Inits are not replaced by arguments: they die with their users, and a
# fill kept in the reproducer says what the reduction starts from.
INIT_OPS = (" = tensor.empty(", " = linalg.fill ", " = arith.constant ")


def candidates(module):
    for i in range(len(module.returns)):
        yield drop_return(module, i)
    for i, statement in enumerate(module.statements):
        if not any(op in statement[0] for op in INIT_OPS):
            yield replace_by_argument(module, i)
    for i, statement in enumerate(module.statements):
        for operand in operands_of(statement):
            yield bypass(module, i, operand)


# ---------------------------------------------------------------------------


class Failure:
    """How one stage of a seed fails, and the test that it still does."""

    def __init__(self, tools, seed, stage, timeout):
        self.tools, self.seed, self.stage, self.timeout = tools, seed, stage, timeout
        self.scratch = tempfile.mkdtemp(prefix="sf-fuzz-min-")

    def check(self, text):
        """The (outcome, reason) of the stage on `text`."""
        path = os.path.join(self.scratch, "seed-%d.mlir" % self.seed)
        with open(path, "w") as f:
            f.write(text)
        if uses_cse(self.seed) and self.stage.name != "cse":
            cse_path = path.replace(".mlir", ".cse.mlir")
            result = fuzz.run_tool([self.tools.opt, "--cse", path, "-o", cse_path], self.timeout)
            if result.returncode != 0:
                return "reject", "cse failed"
            path = cse_path
        argv = [path if a.endswith(".mlir") and not a.startswith("-") else a
                for a in self.stage.command]
        if argv[0] == self.tools.run:
            schedule = parse_schedule(argv)
            stage = fuzz.run_stage(self.tools, self.stage.name, path, schedule, self.timeout)
        else:
            stage, _ = fuzz.opt_stage(self.tools, self.stage.name, argv, self.timeout)
        return stage.outcome, stage.reason

    def persists(self, text):
        outcome, reason = self.check(text)
        if outcome != self.stage.outcome:
            return False
        return outcome == "wrong" or reason == self.stage.reason


def parse_schedule(argv):
    schedule = {}
    for a in argv:
        m = re.match(r"--(spatial|temporal)=(.*)", a)
        if m:
            schedule[m.group(1)] = m.group(2)
    return schedule


def minimize(text, persists, log=None):
    """Greedy: take the first smaller candidate that still fails, repeat."""
    module = Module(text)
    progress = True
    while progress:
        progress = False
        for candidate in candidates(module):
            if candidate is None:
                continue
            if persists(candidate.text()):
                module = candidate
                progress = True
                if log:
                    log("minimize: %d statements, %d results"
                        % (len(module.statements), len(module.returns)))
                break
    return module.text()


def main_minimize(args):
    tools = fuzz.Tools(args.build_dir)
    seed = args.minimize
    work = tempfile.mkdtemp(prefix="sf-fuzz-")
    try:
        rec = fuzz.fuzz_seed(seed, tools, args.timeout, work)
        failing = [s for s in rec["stages"] if s.outcome in fuzz.FAILURES and
                   (args.stage is None or s.name == args.stage)]
        if not failing:
            print("seed %d: no failing stage%s" % (seed, " " + args.stage if args.stage else ""),
                  file=sys.stderr)
            return 1
        stage = failing[0]
        print("minimize: seed %d %s %s: %s" % (seed, stage.name, stage.outcome, stage.reason),
              file=sys.stderr)
        failure = Failure(tools, seed, stage, args.timeout)
        smallest = minimize(generate(seed), failure.persists,
                            log=lambda m: print(m, file=sys.stderr))
        flags = " ".join(fuzz.quote(a) for a in stage.command[1:] if not a.endswith(".mlir"))
        tool = "spacefusion-run" if stage.command[0] == tools.run else "spacefusion-opt"
        source = "spacefusion-opt --cse FILE | %s -" % tool if rec["cse"] else tool + " FILE"
        print("// Minimized from fuzz seed %d (python3 -m spacefusion.fuzz --minimize %d)."
              % (seed, seed))
        print("// Command: %s %s" % (source, flags))
        print("// Observed: %s %s: %s" % (stage.name, stage.outcome, stage.reason))
        sys.stdout.write(smallest)
        shutil.rmtree(failure.scratch, ignore_errors=True)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(tools.snapshot_dir, ignore_errors=True)
