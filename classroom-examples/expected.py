#!/usr/bin/env python3
"""Expected outputs of the classroom examples, computed independently of forkcc.

Each program's output is recomputed here from the same inputs (the LCG of lcg.h) with a plain
sequential algorithm, for every `//! run:` case recorded in the program. Sizes come from the
program's own `#define`s, overridden by the case's `-D` flags, as the compiler does.

  python3 expected.py --check   exit 1 if any recorded `//! expect:` block differs
  python3 expected.py --write   rewrite the `//! expect:` blocks
  python3 expected.py --sweep "target/debug/forkcc sim"
                                run a backend on the recorded sizes with many processor
                                counts and compare its output with the model's
Files may be named after the flag; the default is every program that has a model here.
"""

import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MASK32 = 0xFFFFFFFF


def lcg_step(x):
    return (x * 1103515245 + 12345) & MASK32


def rnd(i, seed, m):
    """lcg.h's rnd(i, seed, m), with C's unsigned 32-bit wrap-around."""
    x = lcg_step(((i & MASK32) * 2654435761 + seed) & MASK32)
    x = lcg_step(x ^ (x >> 15))
    return (x >> 16) % m


class Case:
    """One `//! run:` line: processor count and macro values."""

    def __init__(self, flags, defines):
        self.flags = flags
        args = shlex.split(flags)
        self.p = 1
        self.defines = dict(defines)
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "-p":
                self.p = int(args[i + 1])
                i += 2
            elif arg == "-D":
                name, _, value = args[i + 1].partition("=")
                self.defines[name] = value or "1"
                i += 2
            elif arg in ("--crcw", "--model", "--max-steps"):
                i += 2
            else:
                raise SystemExit(f"unknown run flag {arg!r} in `{flags}`")

    def __getitem__(self, name):
        return int(self.defines[name], 0)


def bool_word(b):
    return "yes" if b else "no"


def groups(c):
    p, k = c.p, c["K"]
    out = [f"P = {p} processors, K = {k}"]
    out += [f"root: proc {q} $={q} $$={q} @=0 size={p}" for q in range(p)]
    for name, members in (("even", range(0, p, 2)), ("odd", range(1, p, 2))):
        size = len(members)
        out += [f"{name}: proc {q} $={q} $$={r} @=0 size={size}" for r, q in enumerate(members)]
    for g in range(k):
        members = [q for q in range(p) if q % k == g]
        out += [
            f"fork: proc {q} $={q // k} $$={r} @={g} size={len(members)}"
            for r, q in enumerate(members)
        ]
    out.append(f"joined again: size={p}")
    return out


def inclusive_scan(xs):
    out, s = [], 0
    for x in xs:
        s += x
        out.append(s)
    return out


def prefix_hillis_steele(c):
    n = c["N"]
    x = inclusive_scan([rnd(i, 1, 100) for i in range(n)])
    return [
        f"N = {n}, P = {c.p}",
        f"x[0] = {x[0]}, x[{n // 2}] = {x[n // 2]}, x[{n - 1}] = {x[n - 1]}",
        "prefix sums correct: yes",
    ]


def prefix_blelloch(c):
    n = c["N"]
    data = [rnd(i, 2, 100) for i in range(n)]
    x = [0] + inclusive_scan(data)[:-1]
    return [
        f"N = {n}, P = {c.p}",
        f"x[0] = {x[0]}, x[{n // 2}] = {x[n // 2]}, x[{n - 1}] = {x[n - 1]}, "
        f"total = {sum(data)}",
        "exclusive prefix sums correct: yes",
    ]


def reduce_fork(c):
    n = c["N"]
    total = sum(rnd(i, 3, 1000) for i in range(n))
    return [f"sum of {n} elements on {c.p} processors = {total}"]


def sieve(c):
    n = c["N"]
    primes = [k for k in range(2, n + 1) if all(k % d for d in range(2, int(k**0.5) + 1))]
    return [f"primes up to {n}: {len(primes)}, sum {sum(primes)}, largest {max(primes)}"]


def sorted_report(n, p, keys):
    keys = sorted(keys)
    return [
        f"N = {n}, P = {p}, sorted: yes",
        f"a[0] = {keys[0]}, a[{n // 2}] = {keys[n // 2]}, a[{n - 1}] = {keys[n - 1]}, "
        f"sum = {sum(keys)}",
    ]


def quicksort(c):
    n = c["N"]
    return sorted_report(n, c.p, [rnd(i, 4, 10000) for i in range(n)])


def odd_even_sort(c):
    n = c["N"]
    return sorted_report(n, c.p, [rnd(i, 7, 1000) for i in range(n)])


def matmul(c):
    n = c["N"]
    a = [[rnd(i * n + j, 5, 10) for j in range(n)] for i in range(n)]
    b = [[rnd(i * n + j, 6, 10) for j in range(n)] for i in range(n)]
    prod = [[sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    trace = sum(prod[i][i] for i in range(n))
    checksum = sum(prod[i][j] * (i + 2 * j + 1) for i in range(n) for j in range(n))
    return [
        f"N = {n}, P = {c.p}",
        f"C[0][0] = {prod[0][0]}, C[{n - 1}][{n - 1}] = {prod[n - 1][n - 1]}",
        f"trace = {trace}, checksum = {checksum}",
    ]


def list_ranking(c):
    n = c["N"]
    order = [(5 + k * 7919) % n for k in range(n)]
    rank = {node: n - 1 - k for k, node in enumerate(order)}
    return [
        f"N = {n}, P = {c.p}, head {order[0]}, tail {order[-1]}",
        f"rank[0] = {rank[0]}, rank[1] = {rank[1]}, rank[{n - 1}] = {rank[n - 1]}",
        "ranks correct: yes",
    ]


def pack(c):
    n = c["N"]
    kept = [x for x in (rnd(i, 8, 1000) for i in range(n)) if x % 3 == 0]
    out = [f"kept {len(kept)} of {n}, stable: yes"]
    if kept:
        checksum = sum((k + 1) * x for k, x in enumerate(kept))
        out.append(f"first {kept[0]}, last {kept[-1]}, checksum {checksum}")
    return out


def crcw_max(c):
    n = c["N"]
    a = [rnd(i, 9, 20) for i in range(n)]
    return [f"N = {n}, P = {c.p}: max {max(a)} at index {a.index(max(a))}"]


def merge(c):
    na, nb = c["NA"], c["NB"]
    a = [3 * i + rnd(i, 10, 3) for i in range(na)]
    b = [4 * i + rnd(i, 11, 4) for i in range(nb)]
    merged = sorted(a + b)
    n = na + nb
    checksum = sum((k + 1) * x for k, x in enumerate(merged))
    return [
        f"merged {na} + {nb} on {c.p} processors, sorted: yes",
        f"C[0] = {merged[0]}, C[{n // 2}] = {merged[n // 2]}, C[{n - 1}] = {merged[n - 1]}, "
        f"checksum {checksum}",
    ]


def collatz_steps(n):
    s = 0
    while n != 1:
        n = 3 * n + 1 if n % 2 else n // 2
        s += 1
    return s


def farm_tasks(c):
    tasks = c["TASKS"]
    steps = [collatz_steps(t + 1) for t in range(tasks)]
    longest = steps.index(max(steps))
    return [
        f"{tasks} tasks done by {c.p} processors",
        f"total steps {sum(steps)}; longest: start {longest + 1}, {steps[longest]} steps",
    ]


MODELS = {
    "groups.fork": groups,
    "prefix_hillis_steele.fork": prefix_hillis_steele,
    "prefix_blelloch.fork": prefix_blelloch,
    "reduce_fork.fork": reduce_fork,
    "sieve.fork": sieve,
    "quicksort.fork": quicksort,
    "quicksort_balanced.fork": quicksort,
    "matmul.fork": matmul,
    "list_ranking.fork": list_ranking,
    "odd_even_sort.fork": odd_even_sort,
    "pack.fork": pack,
    "crcw_max.fork": crcw_max,
    "merge.fork": merge,
    "farm_tasks.fork": farm_tasks,
}

DEFINE = re.compile(r"^#define\s+([A-Za-z_]\w*)\s+(\S+)\s*$")
DIRECTIVE = "//!"
RUN = DIRECTIVE + " run:"
EXPECT_ERROR = DIRECTIVE + " expect-error:"


def file_defines(lines):
    """The object-like `#define NAME value` lines of the program (function-like ones skipped)."""
    return dict(m.groups() for m in map(DEFINE.match, lines) if m)


def expected_block(lines, model):
    """The `//!` block as it should read: each run line followed by its computed output.
    A case that expects an error (`//! expect-error: TEXT`) is kept as written: it records
    that the run must fail, which is a property of the model flags, not an output to compute."""
    defines = file_defines(lines)
    block = []
    for line, following in zip(lines, lines[1:] + [""]):
        if line.startswith(RUN):
            block.append(line)
            if following.startswith(EXPECT_ERROR):
                block.append(following)
                continue
            block.append(DIRECTIVE + " expect:")
            case = Case(line[len(RUN) :], defines)
            block += [f"{DIRECTIVE} {out}" if out else DIRECTIVE for out in model(case)]
    return block


def directive_span(lines):
    """First and one-past-last index of the contiguous `//!` block."""
    start = next(i for i, line in enumerate(lines) if line.startswith(DIRECTIVE))
    end = start
    while end < len(lines) and lines[end].startswith(DIRECTIVE):
        end += 1
    return start, end


SWEEP_PROCS = (1, 2, 3, 5, 8, 13, 32, 100)


def sweep(path, lines, model, command):
    """Runs `command FILE -p P -D ...` for each recorded size and every P in SWEEP_PROCS;
    returns the number of runs whose output differs from the model's."""
    defines = file_defines(lines)
    sizes = {
        tuple(re.findall(r"-D\s*(\S+)", line))
        for line, following in zip(lines, lines[1:] + [""])
        if line.startswith(RUN) and not following.startswith(EXPECT_ERROR)
    }
    failures = 0
    for size in sorted(sizes):
        for p in SWEEP_PROCS:
            flags = f"-p {p} " + " ".join(f"-D {d}" for d in size)
            want = "".join(line + "\n" for line in model(Case(flags, defines)))
            run = subprocess.run(
                shlex.split(command) + [str(path)] + shlex.split(flags),
                capture_output=True,
                text=True,
            )
            if run.returncode != 0 or run.stdout != want:
                failures += 1
                print(f"DIFFERS  {path.name} {flags} (exit {run.returncode})", file=sys.stderr)
    verdict = "ok" if failures == 0 else "FAILED"
    print(f"{verdict:8} {path.name}: {len(sizes) * len(SWEEP_PROCS)} runs")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="verify the expect blocks")
    mode.add_argument("--write", action="store_true", help="rewrite the expect blocks")
    mode.add_argument("--sweep", metavar="COMMAND", help="compare a backend with the model")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or [HERE / name for name in MODELS]
    failed = False
    for path in files:
        model = MODELS.get(path.name)
        if model is None:
            print(f"{path}: no model of this program in expected.py", file=sys.stderr)
            failed = True
            continue
        lines = path.read_text().splitlines()
        if args.sweep:
            failed |= sweep(path, lines, model, args.sweep) > 0
            continue
        start, end = directive_span(lines)
        block = expected_block(lines, model)
        if lines[start:end] == block:
            print(f"ok       {path.name}")
        elif args.write:
            path.write_text("\n".join(lines[:start] + block + lines[end:]) + "\n")
            print(f"written  {path.name}")
        else:
            print(f"MISMATCH {path.name}", file=sys.stderr)
            for want in block:
                if want not in lines[start:end]:
                    print(f"  expected: {want}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
