// The activation family (relu ... threshold, softmax/log_softmax, dropout forms) against PyTorch 1.13
// (fixtures/activation.json, written by fixtures/gen_activation.py): sizes, strides, dtypes, values,
// in-place and out= results, meta results, error texts, and dropout masks under torch.manual_seed.
// Tolerances: each case's `ulps` (0 = exact); see gen_activation.py for why some ops have one.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { itMatchesPyTorchTrees } from "../../support/call_tree.js";
import { describeNNCases } from "../../support/nn_cases.js";

const F = loadFixture("activation.json");

/**
 * Known differences on meta only. PyTorch 1.13 runs these ops on meta tensors through Python meta
 * registrations (torch/_refs, torch/_decomp) rather than the C++ kernels: their hardtanh/hardswish
 * decompositions take no out=, relu's accepts bool, and hardtanh checks uint8 bounds before
 * truncating them (-2.7 fails there, passes in C++), and log_sigmoid keeps a strided input's layout
 * (the C++ kernel returns contiguous tensors). Glasstorch's meta kernels are its CPU kernels without
 * the data loop, so they behave as the CPU results recorded here.
 */
const KNOWN_META = new Set([
  "hardtanh_out", "hardtanh_bounds_out", "hardswish_out", "err_relu_bool", "hardtanh_int_bounds", "err_hardtanh_uint8_negative",
  "log_sigmoid_noncontig", "log_sigmoid_out",
]);

describeNNCases("activation ops match PyTorch", F.cases, { skipMeta: KNOWN_META });

describe("decompositions run PyTorch's aten ops (the profiler's tree)", () => {
  const x = () => torch.ones(3, 5);
  const calls: Record<string, () => () => unknown> = {
    relu: () => { const a = x(); return () => torch.relu(a); },
    selu: () => { const a = x(); return () => torch.selu(a); },
    celu: () => { const a = x(); return () => torch.celu(a); },
    softmax_dtype: () => { const a = x(); return () => torch.softmax(a, 1, { dtype: torch.float64 }); },
    log_softmax: () => { const a = x(); return () => torch.log_softmax(a, 1); },
  };
  itMatchesPyTorchTrees(F.trees, calls);
});
