# PyTorch's side of bench/op_survey.mjs: the same tensors (shapes and value ranges) and each case's Python
# expression from cases.json, timed by the same rules. A server: op_survey.mjs writes one case name per
# line and reads back one JSON line {"ms": ms} or {"error": text}, right before it times the case itself,
# so both sides of a row meet the same moment of the shared machine (its memory bandwidth swings by up
# to 30% over minutes; with all PyTorch cases first, rows drifted apart by as much).
# Usage: /usr/bin/python3 bench/op_survey/torch_side.py THREADS
import json, os, sys, time
import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]))
torch.manual_seed(0)
N = 1 << 20
x = torch.randn(N); y = torch.randn(N); p = torch.rand(N).mul(0.98).add(0.01); q = torch.rand(N).mul(0.98).add(0.01)
m = x.gt(0); mat = torch.randn(1024, 1024); mat2 = torch.randn(1024, 1024); matT = mat.t(); row = torch.randn(1024)
img = torch.randn(16, 64, 32, 32); pw = torch.rand(64); seq = torch.randn(16, 64, 1024); w1d = torch.randn(64, 64, 3)
wdw = torch.randn(64, 1, 3, 3); wt = torch.randn(64, 32, 2, 2); rm = torch.zeros(64); rv = torch.ones(64)
emb = torch.randn(1024, 64); xi = torch.randint(0, 1024, [N]); sortedv = torch.sort(torch.randn(1024))[0]
rows = torch.randint(0, 1024, [1024]); gidx = torch.randint(0, 1024, [1024, 1024]); logits = torch.randn(4096, 256)
tgt = torch.randint(0, 256, [4096]); b3 = torch.randn(64, 128, 128); pr = torch.rand(1000)

def time_case(fn):
    # a first call, 200 ms of calls, then batches of >= 2 ms: the median of up to 30 (at least 5) over 300 ms
    t0 = time.perf_counter(); fn(); first = (time.perf_counter() - t0) * 1e3
    batch = max(1, int(2 / max(first, 1e-3)) + 1)
    w0 = time.perf_counter()
    while time.perf_counter() - w0 < 0.2: fn()
    times = []; start = time.perf_counter()
    while len(times) < 5 or ((time.perf_counter() - start) < 0.3 and len(times) < 30):
        t0 = time.perf_counter()
        for _ in range(batch): fn()
        times.append((time.perf_counter() - t0) * 1e3 / batch)
    times.sort()
    return times[len(times) // 2]

cases = {name: expr for name, _, expr in json.load(open(os.path.join(os.path.dirname(__file__), "cases.json")))}
while True:
    line = sys.stdin.readline()
    if not line: break
    name = line.strip()
    if not name: continue
    try:
        answer = {"ms": time_case(eval("lambda: (" + cases[name] + ")"))}
    except Exception as e:
        answer = {"error": "ERR " + str(e).split("\n")[0][:100]}
    print(json.dumps(answer), flush=True)
