// torch.autograd.forward_ad's API against PyTorch 1.13: levels, make_dual / unpack_dual and their error texts,
// tangents through views and in-place ops ([Forward Grad View/inplace] in autograd_meta.cpp), the refusals of
// ops without a forward formula and of out= functions, and forward AD composed with backward. Every expected
// value and text was read from PyTorch 1.13 running the same program (written in each test).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const fwAD = torch.autograd.forward_ad;
const f32 = (v: any) => torch.tensor(v, { dtype: torch.float32 });
const f64 = (v: any) => torch.tensor(v, { dtype: torch.float64 });
const NOT_YET =
  " that does not support it because it has not been implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize its implementation.\n" +
  "Note that forward AD support for some operators require PyTorch to be built with TorchScript and for JIT to be enabled. If the environment var PYTORCH_JIT=0 is set or if the library is not built with TorchScript, some operators may no longer be used with forward AD.";

const tangentOf = (t: Tensor) => fwAD.unpack_dual(t).tangent;

describe("levels", () => {
  it("make_dual outside a level raises PyTorch's text", () => {
    expect(() => fwAD.make_dual(f32([1, 2]), f32([1, 1]))).toThrow(
      expect.objectContaining({ name: "RuntimeError", message: "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first." }),
    );
  });

  it("dual_level around a function gets level 0 and returns the function's value; tangents are gone after", () => {
    let out: Tensor | null = null;
    const r = fwAD.dual_level((level) => {
      expect(level).toBe(0);
      out = fwAD.make_dual(f32([1, 2]), f32([3, 4])).mul(2);
      expect(tangentOf(out)!.tolist()).toEqual([6, 8]);
      return "done";
    });
    expect(r).toBe("done");
    // after the level: unpack_dual gives (tensor, None)
    const u = fwAD.unpack_dual(out!);
    expect(u.tangent).toBeNull();
    expect(u.primal).toBe(out);
  });

  it("a `using` guard enters and exits the level", () => {
    let d: Tensor;
    {
      using lvl = fwAD.dual_level();
      expect(lvl.level).toBe(0);
      d = fwAD.make_dual(f64([1]), f64([2]));
      expect(tangentOf(d)!.tolist()).toEqual([2]);
    }
    // the level is gone: entering again gives level 0 again
    expect(fwAD.enter_dual_level()).toBe(0);
    expect(fwAD.unpack_dual(d, { level: 0 }).tangent).toBeNull();
    fwAD.exit_dual_level();
  });

  it("nested levels, exiting the wrong level, exiting with no level: PyTorch's texts", () => {
    fwAD.dual_level(() => {
      expect(() => fwAD.enter_dual_level()).toThrow(expect.objectContaining({ name: "RuntimeError", message: "Nested forward mode AD is not supported at the moment" }));
      expect(() => fwAD.exit_dual_level({ level: 5 })).toThrow(
        expect.objectContaining({ name: "RuntimeError", message: "Trying to exit a forward AD level that was not the last one that was created. This is not supported." }),
      );
    });
    expect(() => fwAD.exit_dual_level()).toThrow(expect.objectContaining({ name: "RuntimeError", message: "Dual level must be a positive number." }));
  });

  it("an exception inside the function still exits the level", () => {
    expect(() => fwAD.dual_level(() => { throw new Error("boom"); })).toThrow("boom");
    expect(fwAD.enter_dual_level()).toBe(0);
    fwAD.exit_dual_level();
  });
});

describe("make_dual / unpack_dual", () => {
  it("checks sizes and dtypes with PyTorch's texts", () => {
    fwAD.dual_level(() => {
      expect(() => fwAD.make_dual(f32([1, 2, 3]), f32([1, 2]))).toThrow(
        expect.objectContaining({
          name: "RuntimeError",
          message: "Trying to set a forward gradient that has a different size than that of the original Tensor, this is not supported. Tensor is of size [3] while the given forward gradient is of size [2].",
        }),
      );
      expect(() => fwAD.make_dual(torch.tensor([1, 2, 3]), f32([1, 2, 3]))).toThrow(
        expect.objectContaining({ name: "ValueError", message: "Expected primal to be floating point or complex, but got: torch.int64" }),
      );
      expect(() => fwAD.make_dual(f32([1, 2, 3]), torch.tensor([1, 2, 3]))).toThrow(
        expect.objectContaining({ name: "ValueError", message: "Expected tangent to be floating point or complex, but got: torch.int64" }),
      );
      const d = fwAD.make_dual(f32([1, 2, 3]), f32([1, 1, 1]));
      expect(() => fwAD.make_dual(d, f32([1, 1, 1]))).toThrow(
        expect.objectContaining({ name: "RuntimeError", message: "Making a dual Tensor based on a Tensor that already has a forward gradient at the same level 0 is not supported." }),
      );
    });
  });

  it("unpack_dual is a named tuple: the tangent as-is, the primal an alias without it", () => {
    fwAD.dual_level(() => {
      const x = f32([1, 2, 3]);
      const t = f32([4, 5, 6]);
      const d = fwAD.make_dual(x, t);
      const u = fwAD.unpack_dual(d);
      expect(u.tangent).toBe(t); // PyTorch: u.tangent is t -> True
      expect(u[1]).toBe(t);
      expect(u[0]).toBe(u.primal);
      expect(u.primal.tolist()).toEqual([1, 2, 3]);
      expect(fwAD.unpack_dual(u.primal).tangent).toBeNull();
      expect(u.primal._base).toBe(x); // d is a view of x, and the primal a view of x too
      expect(d._base).toBe(x);
      const [p, tg] = fwAD.unpack_dual(d);
      expect(p.tolist()).toEqual([1, 2, 3]);
      expect(tg).toBe(t);
    });
  });

  it("a tangent laid out unlike its primal is copied into the primal's layout", () => {
    // x = arange(6).view(2,3); t = (arange(6).view(3,2).t()*10): u.tangent is t -> False, stride (3, 1)
    fwAD.dual_level(() => {
      const x = torch.arange(6, { dtype: torch.float32 }).view(2, 3);
      const t = torch.arange(6, { dtype: torch.float32 }).view(3, 2).t().mul(10);
      const u = fwAD.unpack_dual(fwAD.make_dual(x, t));
      expect(u.tangent).not.toBe(t);
      expect(u.tangent!.stride()).toEqual([3, 1]);
      expect(u.tangent!.tolist()).toEqual([[0, 20, 40], [10, 30, 50]]);
    });
  });

  it("backward through make_dual and unpack_dual: ViewBackward0 and Identity, as PyTorch names them", () => {
    fwAD.dual_level(() => {
      const x = torch.tensor([1, 2, 3], { dtype: torch.float64, requires_grad: true });
      const d = fwAD.make_dual(x, f64([1, 0, 0]));
      expect(d.grad_fn!.name()).toBe("ViewBackward0");
      const p = fwAD.unpack_dual(d).primal;
      expect(p.grad_fn!.name()).toBe("torch::autograd::Identity");
      const y = d.mul(d).sum();
      expect(tangentOf(y)!.item()).toBe(2); // 2 * x . t
      y.backward();
      expect(x.grad!.tolist()).toEqual([2, 4, 6]);
    });
  });

  it("forward AD runs under no_grad too", () => {
    fwAD.dual_level(() => {
      const d = fwAD.make_dual(f64([0, 1]), f64([1, 1]));
      const y = torch.no_grad(() => d.sin());
      expect(tangentOf(y)!.tolist()).toEqual([Math.cos(0), Math.cos(1)]);
    });
  });
});

describe("views and in-place ops", () => {
  it("a view of a dual has a view of its tangent", () => {
    // v = d.t(): unpack_dual(v).tangent._base is unpack_dual(d).tangent -> True
    fwAD.dual_level(() => {
      const d = fwAD.make_dual(torch.arange(6, { dtype: torch.float32 }).view(2, 3), torch.arange(6, { dtype: torch.float32 }).view(2, 3).mul(10));
      const tv = tangentOf(d.t())!;
      expect(tv._base).toBe(tangentOf(d));
      expect(tv.tolist()).toEqual([[0, 30], [10, 40], [20, 50]]);
    });
  });

  it("an in-place op updates the tangent in place", () => {
    // b = dual(ones(3), ones(3)); tb = tangent; b.mul_(dual(full(2), full(3))): tangent is tb, [5, 5, 5]
    fwAD.dual_level(() => {
      const b = fwAD.make_dual(torch.ones(3), torch.ones(3));
      const tb = tangentOf(b)!;
      b.mul_(fwAD.make_dual(f32([2, 2, 2]), f32([3, 3, 3])));
      expect(tangentOf(b)).toBe(tb);
      expect(tb.tolist()).toEqual([5, 5, 5]);
      // a.mul_(plain): the tangent is scaled too -> [2, 2, 2]
      const a = fwAD.make_dual(torch.ones(3), torch.ones(3));
      a.mul_(f32([2, 2, 2]));
      expect(tangentOf(a)!.tolist()).toEqual([2, 2, 2]);
    });
  });

  it("copy_ of a dual into a view of a plain tensor gives the base a tangent (case 4)", () => {
    // y = zeros(4); w = y[1:3]; w.copy_(dual(ones(2), ones(2)*5)): unpack_dual(y) -> tangent [0, 5, 5, 0]
    fwAD.dual_level(() => {
      const y = torch.zeros(4);
      const w = y.narrow(0, 1, 2);
      w.copy_(fwAD.make_dual(torch.ones(2), f32([5, 5])));
      expect(y.tolist()).toEqual([0, 1, 1, 0]);
      expect(tangentOf(y)!.tolist()).toEqual([0, 5, 5, 0]);
      expect(tangentOf(w)!.tolist()).toEqual([5, 5]);
    });
  });

  it("copy_ of a dual into a base reaches its views made before (case 5)", () => {
    // z = zeros(4); zz = z[1:3]; z.copy_(dual(ones(4), arange(4))): unpack_dual(zz).tangent -> [1, 2]
    fwAD.dual_level(() => {
      const z = torch.zeros(4);
      const zz = z.narrow(0, 1, 2);
      z.copy_(fwAD.make_dual(torch.ones(4), torch.arange(4, { dtype: torch.float32 })));
      expect(tangentOf(zz)!.tolist()).toEqual([1, 2]);
    });
  });

  it("index_put_ of a dual into a plain tensor (_index_put_impl_) gives it a tangent", () => {
    // y = zeros(4); y.index_put_((tensor([1, 3]),), dual([1., 2.], [5., 6.])): tangent [0, 5, 0, 6]
    fwAD.dual_level(() => {
      const y = torch.zeros(4);
      y.index_put_([torch.tensor([1, 3])], fwAD.make_dual(f32([1, 2]), f32([5, 6])));
      expect(y.tolist()).toEqual([0, 1, 0, 2]);
      expect(tangentOf(y)!.tolist()).toEqual([0, 5, 0, 6]);
    });
  });

  it("an in-place view op (squeeze_) keeps the tangent's shape in step (matmul of a vector and a matrix)", () => {
    fwAD.dual_level(() => {
      const v = fwAD.make_dual(f64([1, 2]), f64([1, 0]));
      const m = f64([[1, 2], [3, 4]]);
      const r = torch.matmul(v, m);
      expect(r.tolist()).toEqual([7, 10]);
      expect(tangentOf(r)!.tolist()).toEqual([1, 2]);
    });
  });
});

describe("refusals", () => {
  it("an op without a forward formula raises PyTorch's NotImplementedError text", () => {
    // torch.logcumsumexp(d, 0): 1.13 has no forward formula for logcumsumexp
    fwAD.dual_level(() => {
      const d = fwAD.make_dual(f32([1, 2, 3]), f32([1, 1, 1]));
      expect(() => torch.logcumsumexp(d, 0)).toThrow(expect.objectContaining({ name: "NotImplementedError", message: "Trying to use forward AD with logcumsumexp" + NOT_YET }));
    });
  });

  it("out= functions refuse tangents on any tensor, the out tensor included", () => {
    fwAD.dual_level(() => {
      const d = fwAD.make_dual(f32([1, 2, 3]), f32([1, 1, 1]));
      const text = "Trying to use forward AD with sin_out that does not support it because it is an out= function";
      expect(() => torch.sin(d, { out: torch.empty(3) })).toThrow(expect.objectContaining({ name: "NotImplementedError", message: text }));
      expect(() => torch.sin(f32([1, 2, 3]), { out: d })).toThrow(expect.objectContaining({ name: "NotImplementedError", message: text }));
    });
  });

  it("ops whose outputs are not differentiable (eq, argmax, nonzero) take duals without complaint", () => {
    fwAD.dual_level(() => {
      const d = fwAD.make_dual(f32([1, 0, 3]), f32([1, 1, 1]));
      expect(torch.eq(d, d).tolist()).toEqual([true, true, true]);
      expect(torch.argmax(d).item()).toBe(2);
      expect(torch.nonzero(d).tolist()).toEqual([[0], [2]]);
      expect(tangentOf(torch.eq(d, d))).toBeNull();
    });
  });

  it("a 0-d dual passed where a Scalar or a Tensor fits stays a Tensor (its tangent is used)", () => {
    fwAD.dual_level(() => {
      const s = fwAD.make_dual(torch.zeros([2, 2]), torch.ones([2, 2]));
      const v = fwAD.make_dual(f32(2.5), f32(-7));
      const r = s.index_fill(0, torch.tensor([1]), v);
      expect(tangentOf(r)!.tolist()).toEqual([[1, 1], [-7, -7]]);
    });
  });
});
