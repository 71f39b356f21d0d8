// aten::xlogy (binary.yaml) and torch.special.xlogy against PyTorch 1.13 (fixtures/xlogy.json, written by
// fixtures/gen_xlogy.py): xlogy.Tensor / .Scalar_Self / .Scalar_Other, xlogy_ (.Tensor, .Scalar_Other), the out=
// overloads and special_xlogy's forms: values (0 where x == 0, NaN where y is NaN), sizes, strides, dtype on five
// dtypes (int64 and bool compute in the default float dtype), broadcasting, transposed operands, 0-d and empty
// tensors, error texts, and the meta results.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";
import { DispatchLog } from "../../support/dispatch_log.js";

// float64: V8's Math.log and glibc's log may differ in the last bit (relative tolerance 1e-15); float32, bfloat16 and
// float16 round log(y) to float and x * log(y) once to the dtype, as PyTorch's kernel does: exact.
describeOpCases("xlogy matches PyTorch (values, dtypes, out=, in-place, errors, meta)", loadFixture("xlogy.json"), {
  tolerance: (_name, dtype) => (dtype === "float64" || dtype === "int64" || dtype === "bool" ? 1e-15 : 0),
});

describe("xlogy's Scalar overloads and special_xlogy call xlogy.Tensor as PyTorch's do", () => {
  it("the dispatch log of each form", () => {
    const x = torch.tensor([0.0, 1.5, -2.0]), y = torch.tensor([2.0, 0.5, 3.0]);
    const log = new DispatchLog();
    {
      using _m = log.enter();
      torch.special.xlogy(x, y);
      torch.special.xlogy(2.0, y);
      torch.special.xlogy(x, 2.0);
      x.clone().xlogy_(2.0);
    }
    // PyTorch 1.13's TorchDispatchMode log of the same calls
    expect(log.calls.map((c) => c.op)).toEqual([
      "aten::xlogy.Tensor", "aten::xlogy.Scalar_Self", "aten::xlogy.Scalar_Other", "aten::clone", "aten::xlogy_.Scalar_Other",
    ]);
  });
});
