// The native nan_to_num (pointwise_kernels.inc: nan_to_num_loop) against the TypeScript kernel, whose
// replacements it takes (UnaryOpsKernel.ts nanToNumReplacements): float32 and float64, default and given
// replacements (one too large for float32, which becomes inf), contiguous, strided and in place.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { bestIsa, kernelsRan, nativeIt, runnableIsas, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();

afterEach(() => {
  if (ISAS.length > 0) _set_native_isa(bestIsa as any);
});

const asText = (t: torch.Tensor) => JSON.stringify(t.tolist(), (_k, v) => (Number.isNaN(v) ? "NaN" : v === Infinity ? "inf" : v === -Infinity ? "-inf" : Object.is(v, -0) ? "-0" : v));

describe("native nan_to_num", () => {
  nativeIt("the TS kernel's values on every unit, for float32 and float64", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        torch.manual_seed(7);
        const x = torch.randn(30, 41, { dtype });
        const flat = x.view(-1);
        [NaN, Infinity, -Infinity, -0, NaN, 3e38].forEach((v, i) => flat.get(i * 97 + 5).fill_(v));
        const cases: [string, () => torch.Tensor][] = [
          ["defaults", () => torch.nan_to_num(x)],
          ["given", () => torch.nan_to_num(x, 0.5, 1e39, -7)],
          ["strided", () => torch.nan_to_num(x.t().get("::2"), -1)],
          ["in place", () => x.clone().nan_to_num_(2, 3, 4)],
        ];
        for (const [name, f] of cases) {
          const what = `${name} ${dtype} [${isa}]`;
          expect(kernelsRan(f), what).toContain("nan_to_num_stub:native");
          expect(asText(f()), what).toBe(asText(underTs(f)));
        }
      }
    }
  });
});
