// String(tensor) end to end: real tensors built by torch.tensor / torch.empty print as PyTorch 1.13 printed them.
// (tensor_str.test.ts checks the printer alone; this checks the Tensor -> printer adapter, storage and dtype reads.)
import { afterEach, describe, expect, it } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { decodeValue } from "./fixture_values.js";

const fixture = loadFixture("repr.json");

function nest(flat: unknown[], sizes: number[]): unknown {
  if (sizes.length === 0) return flat[0];
  const [n, ...rest] = sizes;
  const inner = rest.reduce((a, b) => a * b, 1);
  return Array.from({ length: n }, (_, i) => nest(flat.slice(i * inner, (i + 1) * inner), rest));
}

afterEach(() => {
  torch.set_printoptions({ profile: "default" });
  torch.set_default_dtype(torch.float32);
});

describe("String(tensor) matches PyTorch 1.13 for real tensors", () => {
  // grad_fn needs autograd, Parameter needs nn, bigint int64 values need bigint data: those stay in tensor_str.test.ts
  const cases = fixture.cases.filter((c: any) => !c.grad_fn && !c.is_parameter && !c.values.some((v: unknown) => typeof v === "string" && c.dtype.startsWith("int")));
  it("covers most of the corpus", () => expect(cases.length).toBeGreaterThanOrEqual(100));
  for (const c of cases) {
    it(`${c.name}: ${c.expr}`, () => {
      torch.set_default_dtype((torch as any)[c.default_dtype]);
      torch.set_printoptions(c.print_options);
      const dtype = (torch as any)[c.dtype] as torch.dtype;
      const t = c.is_meta
        ? torch.empty(c.sizes, { dtype, device: "meta", requires_grad: c.requires_grad })
        : c.sizes.includes(0)
          ? torch.empty(c.sizes, { dtype, requires_grad: c.requires_grad })
          : torch.tensor(nest(c.values.map((v: any) => { const x = decodeValue(v, c.dtype); return typeof x === "bigint" ? Number(x) : x; }), c.sizes) as any, { dtype, requires_grad: c.requires_grad });
      expect(String(t)).toBe(c.repr);
    });
  }
});
