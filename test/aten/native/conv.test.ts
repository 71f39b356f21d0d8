// The conv family (conv1d/conv2d with int or 'same'/'valid' padding, conv_transpose1d/2d, convolution,
// thnn_conv2d, slow_conv_dilated2d, slow_conv_transpose2d, constant_pad_nd) against PyTorch 1.13 with
// MKLDNN disabled (fixtures/conv.json, written by fixtures/gen_conv.py): sizes, strides, dtype, values,
// meta results, error texts, and the aten ops each call runs (profiler tree vs dispatch trace).
// Values: float64 within 1e-12, float32 within 2e-5 relative (PyTorch sums in float32 BLAS order);
// integer-valued inputs and int64 exact; bfloat16 exact, as the kernel repeats 1.13's bfloat16 GEMM rounding.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { itMatchesPyTorchTrees } from "../../support/call_tree.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeNnCases, expectClose, replayOnCpu } from "../../support/nn_layer_cases.js";
import { nativeIt, underTs } from "../../support/native_paths.js";
import { nativeAddon } from "../../../engine/aten/native/cpu_native/NativeBackend.js";

const F = loadFixture("conv.json");
const nnf = torch.nn.functional as any;

// PyTorch's "Could not run ... on Meta" text lists PyTorch's own registrations after its first
// sentences; that part is checked on its own below
describeNnCases("conv ops match PyTorch (values, sizes, strides, dtype, meta, errors)", F, {
  skipMeta: new Set(["err_thnn_conv2d_meta"]),
  tolerance: { bfloat16: { rtol: 0, atol: 0 } },
});

// (the native backend takes Winograd F(2x2, 3x3) for big 3x3 layers only; forced here, on a fixture small enough to keep)
nativeIt("conv2d_winograd_size on the native Winograd path matches PyTorch", () => {
  const c = F.cases.find((k: any) => k.name === "conv2d_winograd_size");
  nativeAddon!.set_conv_path("winograd");
  try {
    for (const r of c.results) expectClose(replayOnCpu(c, r), r.cpu.result);
  } finally {
    nativeAddon!.set_conv_path("auto");
  }
});

it("thnn_conv2d on meta fails as in PyTorch: _slow_conv2d_forward has no Meta kernel", () => {
  const want = F.cases.find((c: any) => c.name === "err_thnn_conv2d_meta").results[0].meta;
  const x = torch.empty(1, 3, 5, 5, { device: "meta" }), w = torch.empty(2, 3, 3, 3, { device: "meta" });
  expect(() => (torch as any)._C._nn.thnn_conv2d(x, w, [3, 3])).toThrow(want.message.split(" 'aten::_slow_conv2d_forward' is only available")[0]);
});

describe("convolutions run the aten ops PyTorch's do (profiler tree vs dispatch trace)", () => {
  const a = () => torch.ones(2, 3, 6, 6);
  const calls: Record<string, () => () => unknown> = {
    conv2d: () => { const x = a(), w = torch.ones(4, 3, 3, 3), b = torch.ones(4); return () => nnf.conv2d(x, w, b); },
    conv2d_dilated: () => { const x = a(), w = torch.ones(2, 3, 2, 2); return () => nnf.conv2d(x, w, null, { dilation: 2 }); },
    conv2d_unbatched: () => { const x = torch.ones(3, 6, 6), w = torch.ones(4, 3, 3, 3); return () => nnf.conv2d(x, w); },
    // the group loop is conv2d_grouped_stub's TypeScript implementation (the native one takes every group in one call)
    conv2d_groups: () => { const x = torch.ones(1, 4, 5, 5), w = torch.ones(2, 2, 3, 3); return () => underTs(() => nnf.conv2d(x, w, null, { groups: 2 })); },
    conv2d_same_even: () => { const x = a(), w = torch.ones(4, 3, 2, 2); return () => nnf.conv2d(x, w, null, 1, "same"); },
    conv2d_empty: () => { const x = torch.ones(0, 3, 6, 6), w = torch.ones(4, 3, 3, 3), b = torch.ones(4); return () => nnf.conv2d(x, w, b); },
    conv1d: () => { const x = torch.ones(2, 3, 8), w = torch.ones(4, 3, 3); return () => nnf.conv1d(x, w); },
    conv_transpose2d: () => { const x = a(), w = torch.ones(3, 2, 3, 3); return () => nnf.conv_transpose2d(x, w); },
    conv_transpose1d: () => { const x = torch.ones(2, 3, 8), w = torch.ones(3, 2, 3); return () => nnf.conv_transpose1d(x, w); },
  };
  // the backend kernels' own internals (empty/resize_/copy_ in _slow_conv2d_forward, select/fill_ in the
  // naive kernels) are loops here, so the trees are compared down to the backend op
  const backends = new Set(["aten::_slow_conv2d_forward", "aten::slow_conv_dilated2d", "aten::slow_conv_transpose2d"]);
  const prune = (nodes: any[]): any[] => nodes.map((n) => ({ op: n.op, children: backends.has(n.op) ? [] : prune(n.children) }));
  itMatchesPyTorchTrees(F.trees, calls, prune);
});
