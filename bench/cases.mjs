// The benchmark cases: each names one operation and says how Glasstorch, PyTorch and TF.js run it.
// Keep the three versions doing the same work (same sizes, dtypes, and a fresh result each run).
export const cases = [
  { name: "zeros 1e6 float32", gt: (t) => t.zeros(1_000_000), py: "torch.zeros(1_000_000)", tf: (tf) => tf.zeros([1_000_000]) },
  { name: "full 1000x1000 float32", gt: (t) => t.full([1000, 1000], 1.5), py: "torch.full((1000, 1000), 1.5)", tf: (tf) => tf.fill([1000, 1000], 1.5) },
  { name: "arange 1e6 float32", gt: (t) => t.arange(0, 1_000_000, 1, { dtype: t.float32 }), py: "torch.arange(0, 1_000_000, 1, dtype=torch.float32)", tf: (tf) => tf.range(0, 1_000_000, 1, "float32") },
  { name: "linspace 1e6 float32", gt: (t) => t.linspace(0, 1, 1_000_000), py: "torch.linspace(0, 1, 1_000_000)", tf: (tf) => tf.linspace(0, 1, 1_000_000) },
  { name: "rand 1e6 float32", gt: (t) => t.rand(1_000_000), py: "torch.rand(1_000_000)", tf: (tf) => tf.randomUniform([1_000_000]) },
  { name: "randn 1e6 float32", gt: (t) => t.randn(1_000_000), py: "torch.randn(1_000_000)", tf: (tf) => tf.randomNormal([1_000_000]) },
  { name: "randint 1e6 int64", gt: (t) => t.randint(0, 100, [1_000_000]), py: "torch.randint(0, 100, (1_000_000,))", tf: null },
  { name: "randperm 1e5", gt: (t) => t.randperm(100_000), py: "torch.randperm(100_000)", tf: null },
  { name: "tensor from 1000x1000 nested array", setup: () => Array.from({ length: 1000 }, (_, i) => Array.from({ length: 1000 }, (_, j) => i + j * 0.5)),
    gt: (t, data) => t.tensor(data), py: "torch.tensor(data)", pySetup: "data = [[i + j * 0.5 for j in range(1000)] for i in range(1000)]", tf: (tf, data) => tf.tensor(data) },
  // Dispatcher overhead: a 1-element add is almost all binding + dispatch + allocation (PyTorch: about 4 µs here)
  { name: "add 1-element (per-op overhead)", gtSetup: (t) => [t.ones(1), t.ones(1)], gt: (t, _d, [a, b]) => t.add(a, b),
    pySetup: "a = torch.ones(1); b = torch.ones(1)", py: "torch.add(a, b)", tfSetup: (tf) => [tf.ones([1]), tf.ones([1])], tf: (tf, _d, [a, b]) => tf.add(a, b) },
  { name: "add 1-element, tracing on", gtSetup: (t) => { t.trace.startRecording({ callSites: false, capacity: 1000 }); return [t.ones(1), t.ones(1)]; },
    gt: (t, _d, [a, b]) => t.add(a, b), gtTeardown: (t) => t.trace.stopRecording(), py: null, tf: null },
  // Operator families (issue 4): the shared GEMM, a convolution, an elementwise op and a reduction
  { name: "mm 256x256 float32", gtSetup: (t) => [t.rand(256, 256), t.rand(256, 256)], gt: (t, _d, [a, b]) => t.mm(a, b),
    pySetup: "a = torch.rand(256, 256); b = torch.rand(256, 256)", py: "torch.mm(a, b)", tfSetup: (tf) => [tf.randomUniform([256, 256]), tf.randomUniform([256, 256])], tf: (tf, _d, [a, b]) => tf.matMul(a, b) },
  { name: "conv2d 4x8x32x32, 16 3x3 filters", gtSetup: (t) => [t.rand(4, 8, 32, 32), t.rand(16, 8, 3, 3)], gt: (t, _d, [x, w]) => t.nn.functional.conv2d(x, w),
    pySetup: "x = torch.rand(4, 8, 32, 32); w = torch.rand(16, 8, 3, 3)", py: "torch.nn.functional.conv2d(x, w)",
    tfSetup: (tf) => [tf.randomUniform([4, 32, 32, 8]), tf.randomUniform([3, 3, 8, 16])], tf: (tf, _d, [x, w]) => tf.conv2d(x, w, 1, "valid") },
  { name: "exp 1e6 float32", gtSetup: (t) => t.rand(1_000_000), gt: (t, _d, x) => t.exp(x), pySetup: "x = torch.rand(1_000_000)", py: "torch.exp(x)",
    tfSetup: (tf) => tf.randomUniform([1_000_000]), tf: (tf, _d, x) => tf.exp(x) },
  { name: "sum dim=1 of 1000x1000 float32", gtSetup: (t) => t.rand(1000, 1000), gt: (t, _d, x) => t.sum(x, 1), pySetup: "x = torch.rand(1000, 1000)", py: "torch.sum(x, 1)",
    tfSetup: (tf) => tf.randomUniform([1000, 1000]), tf: (tf, _d, x) => tf.sum(x, 1) },
  { name: "softmax dim=-1 of 1000x1000 float32", gtSetup: (t) => t.rand(1000, 1000), gt: (t, _d, x) => t.softmax(x, -1), pySetup: "x = torch.rand(1000, 1000)", py: "torch.softmax(x, -1)",
    tfSetup: (tf) => tf.randomUniform([1000, 1000]), tf: (tf, _d, x) => tf.softmax(x) },
  { name: "repr of 1000x1000 (summarized)", setup: null, gtSetup: (t) => t.rand(1000, 1000), gt: (t, _d, x) => String(x), py: "repr(x)", pySetup: "x = torch.rand(1000, 1000)", tf: null },
];
