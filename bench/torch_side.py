"""The PyTorch side of `npm run bench` (bench/run.mjs), one process asked workload by workload: the
first stdin line is {threads, timing}; then each line is one round of one workload {id, kind, params,
warm_ms, round, rounds}, answered with one JSON line {id, result} (the median of its rounds so far, or
the error; the workload is built at round 0 and kept to its last round); a line "done" is answered with
the environment (torch version, threads, which BLAS library the process mapped) and ends the process.
run.mjs asks for each round between Glasstorch's rounds of the same workload, so both sides of a row
are measured at the same moments of the machine's load. The workloads mirror bench/workloads.mjs kind
by kind; the sampling rules mirror bench/lib/timing.mjs (CellTimer)."""
import json
import math
import os
import platform
import statistics
import sys
import time
import traceback

import torch
import torch.nn.functional as F

spec = json.loads(sys.stdin.readline())
torch.set_num_threads(int(spec["threads"]))


class CellTimer:
    """bench/lib/timing.mjs's CellTimer, the same steps: start() (steps 1-3), round(share) (step 4 for a
    share of the samples and budget; a later round re-warms first), result() (step 5 over all rounds)."""

    def __init__(self, fn, budget_ms=1000.0, min_samples=5, max_cell_ms=60000.0, warm_ms=200.0, rewarm_ms=150.0):
        self.fn, self.budget_ms, self.min_samples, self.max_cell_ms = fn, budget_ms, min_samples, max_cell_ms
        self.warm_ms, self.rewarm_ms = warm_ms, rewarm_ms
        self.times, self.batch, self.single, self.rounds = [], 1, False, 0

    def start(self):
        fn, max_cell_ms = self.fn, self.max_cell_ms
        t0 = now()
        fn()
        first = now() - t0
        if first > max_cell_ms / 2:
            self.single = True
            self.times.append(first)
            return self
        typical = first  # a call's time once warm: the last warm-up call's
        for i in range(2):
            if (i + 2) * first < max_cell_ms / 4:
                t0 = now()
                fn()
                typical = now() - t0
        batch = 1
        if typical < 1:
            while True:
                t0 = now()
                for _ in range(batch):
                    fn()
                if now() - t0 >= 1 or batch >= 1 << 20:
                    break
                batch *= 2
        self.batch = batch
        self.warmable = typical * batch < max_cell_ms / 8
        if self.warmable:
            self._calls_for(self.warm_ms)
        self.want = max(1, min(self.min_samples, int(max_cell_ms // max(typical * batch, 1e-9))))
        return self

    def _calls_for(self, ms):
        start = now()
        while now() - start < ms:
            for _ in range(self.batch):
                self.fn()

    def round(self, share=1.0):
        if self.single:
            return self
        if self.rounds > 0 and self.warmable:
            self._calls_for(self.rewarm_ms)
        self.rounds += 1
        want = math.ceil(self.want * share)
        most = max(want, math.floor(50 * share))
        budget = self.budget_ms * share
        fn, batch, times = self.fn, self.batch, self.times
        start = now()
        n = 0
        while n < want or (now() - start < budget and n < most):
            t0 = now()
            for _ in range(batch):
                fn()
            times.append((now() - t0) / batch)
            n += 1
        return self

    def result(self):
        return {"ms": statistics.median(self.times), "samples": len(self.times), "batch": self.batch, "flagged": len(self.times) < self.min_samples}


def now():
    return time.perf_counter() * 1000.0


# One builder per workload kind: (params) -> a zero-argument function doing one unit of work.
def b_matmul(p):
    n = p["n"]
    a, b = torch.rand(n, n), torch.rand(n, n)
    return lambda: torch.mm(a, b)


def b_binary(p):
    n, op = p["n"], getattr(torch, p["op"])
    a, b = torch.rand(n), torch.rand(n)
    if p.get("out"):
        o = torch.empty(n)
        return lambda: op(a, b, out=o)
    return lambda: op(a, b)


def b_unary(p):
    n, op = p["n"], getattr(torch, p["op"])
    a = torch.rand(n)
    if p.get("out"):
        o = torch.empty(n)
        return lambda: op(a, out=o)
    return lambda: op(a)


def b_sum(p):
    a = torch.rand(p["n"])
    return lambda: torch.sum(a)


def b_softmax(p):
    x = torch.rand(*p["shape"])
    if p.get("log"):
        return lambda: torch.log_softmax(x, -1)
    return lambda: torch.softmax(x, -1)


def b_copy(p):
    x, y = torch.empty(p["n"]), torch.rand(p["n"])
    return lambda: x.copy_(y)


def b_conv2d(p):
    x = torch.rand(*p["input"])
    w = torch.rand(*p["weight"])
    return lambda: F.conv2d(x, w, None, p["stride"], p["padding"])


def b_overhead(p):
    a = torch.ones(1, requires_grad=p["requires_grad"])
    b = torch.ones(1, requires_grad=p["requires_grad"])
    return lambda: torch.add(a, b)


def b_mlp(p):
    model = torch.nn.Sequential(torch.nn.Linear(p["inp"], p["hidden"]), torch.nn.ReLU(), torch.nn.Linear(p["hidden"], p["classes"]))
    opt = torch.optim.SGD(model.parameters(), lr=p["lr"])
    x = torch.randn(p["batch"], p["inp"])
    y = torch.randint(0, p["classes"], (p["batch"],))

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    return step


def b_transformer(p):
    layer = torch.nn.TransformerEncoderLayer(p["d_model"], p["nhead"], p["dim_feedforward"], dropout=p["dropout"], batch_first=True)
    src = torch.randn(p["batch"], p["seq"], p["d_model"])

    def step():
        layer.zero_grad()
        layer(src).sum().backward()

    return step


def b_expr(p):
    g = {"torch": torch}
    exec(p.get("setup") or "pass", g)
    return eval("lambda: " + p["expr"], g)


BUILDERS = {
    "matmul": b_matmul, "binary": b_binary, "unary": b_unary, "sum": b_sum, "softmax": b_softmax, "copy": b_copy,
    "conv2d": b_conv2d, "overhead": b_overhead, "mlp": b_mlp, "transformer": b_transformer, "expr": b_expr,
}


def blas_libraries():
    """Which BLAS this process runs: the shared objects mapped after a matmul has run (libblas.so.3 is
    whatever update-alternatives selected: netlib's reference BLAS or OpenBLAS)."""
    a = torch.rand(8, 8)
    a @ a
    libs = []
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            base = os.path.basename(path)
            if any(k in base for k in ("blas", "lapack", "mkl", "blis")) and path not in libs:
                libs.append(path)
    real = sorted({os.path.realpath(x) for x in libs})
    kind = "OpenBLAS" if any("openblas" in x for x in real) else "MKL" if any("mkl" in x for x in real) else \
        "BLIS" if any("blis" in x for x in real) else "netlib reference BLAS" if real else "none mapped"
    return {"kind": kind, "libraries": real}


timing = spec.get("timing", {})
cell = None  # the workload being timed: {id, timer} or {id, error}, kept from its first round to its last
for line in sys.stdin:
    if line.strip() == "done":
        break
    w = json.loads(line)
    rnd, rounds = w.get("round", 0), w.get("rounds", 1)
    try:
        if rnd == 0 or cell is None or cell["id"] != w["id"]:
            cell = None  # the last cell's tensors are freed before this one, as Glasstorch's are collected
            torch.manual_seed(0)
            fn = BUILDERS[w["kind"]](w["params"])
            cell = {"id": w["id"], "timer": CellTimer(fn, timing.get("budgetMs", 1000), timing.get("minSamples", 5), timing.get("maxCellMs", 60000),
                                                      w.get("warm_ms") or timing.get("warmMs", 200)).start()}
        if "error" in cell:
            result = {"error": cell["error"]}
        else:
            result = cell["timer"].round(1.0 / rounds).result()
    except Exception as e:  # a workload PyTorch cannot run is reported, not fatal
        cell = {"id": w["id"], "error": f"{type(e).__name__}: {e}"}
        result = {"error": cell["error"]}
        traceback.print_exc(file=sys.stderr)
    if rnd + 1 >= rounds:
        cell = None
    print(json.dumps({"id": w["id"], "result": result}), flush=True)

config = torch.__config__.show()
env = {
    "torch": torch.__version__,
    "python": platform.python_version(),
    "num_threads": torch.get_num_threads(),
    "num_interop_threads": torch.get_num_interop_threads(),
    "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
    "blas": blas_libraries(),
    "blas_info": next((s.split("=")[1] for s in config.replace(",", "\n").split("\n") if "BLAS_INFO" in s and "LAPACK" not in s), None),
    "cpu_capability": next((l.split(":")[1].strip() for l in config.split("\n") if "CPU capability usage" in l), None),
    "parallel_backend": next((l.split(":")[1].strip() for l in torch.__config__.parallel_info().split("\n") if "parallel backend" in l), None),
}
print(json.dumps({"env": env}), flush=True)
