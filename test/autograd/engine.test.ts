// The autograd engine against PyTorch 1.13: graphs, gradients, accumulation, hooks and their order, grad
// modes, and the error texts. Expected values and texts were read from PyTorch 1.13 running the same
// programs (the Python is in each test's name or comment).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";

const f32 = (v: number[], requires_grad = true) => torch.tensor(v, { dtype: torch.float32, requires_grad });
const vals = (t: Tensor | null) => t?.tolist();

describe("the graph", () => {
  it("(a * b).sum(): SumBackward0 -> MulBackward0 -> two AccumulateGrads; grads are b and a", () => {
    const a = f32([1, 2, 3]), b = f32([4, 5, 6]);
    const s = a.mul(b).sum();
    expect(s.grad_fn!.name()).toBe("SumBackward0");
    const mul = s.grad_fn!.next_functions[0][0]!;
    expect(mul.name()).toBe("MulBackward0");
    expect(mul.next_functions.map(([n, i]) => [n?.name(), i])).toEqual([["AccumulateGrad", 0], ["AccumulateGrad", 0]]);
    expect((mul.next_functions[0][0] as any).variable).toBe(a);
    s.backward();
    expect([vals(a.grad), vals(b.grad)]).toEqual([[4, 5, 6], [1, 2, 3]]);
    expect(String(s)).toBe("tensor(32., grad_fn=<SumBackward0>)");
  });
  it("an input that needs no gradient has the edge (None, 0), and its grad slot stays None", () => {
    const x = f32([1, 2]);
    const y = x.mul(2);
    expect(y.grad_fn!.next_functions.map(([n, i]) => [n?.name() ?? null, i])).toEqual([["AccumulateGrad", 0], [null, 0]]);
  });
  it("is_leaf, requires_grad and grad_fn follow PyTorch's rules", () => {
    const x = f32([1, 2]);
    const y = x.mul(2);
    expect([x.is_leaf, y.is_leaf, y.requires_grad, x.grad_fn]).toEqual([true, false, true, null]);
    expect(torch.ones(2).mul(2).requires_grad).toBe(false);
  });
});

describe("gradients", () => {
  it("x*2 + x*3 accumulates 5 into x.grad (InputBuffer)", () => {
    const x = f32([1, 2]);
    const c = torch.add(x.mul(2), x.mul(3));
    c.sum().backward();
    expect(vals(x.grad)).toEqual([5, 5]);
  });
  it("two backward passes add into the same .grad tensor", () => {
    const x = f32([1, 2]);
    x.mul(3).sum().backward();
    const g1 = x.grad;
    x.mul(3).sum().backward();
    expect(vals(x.grad)).toEqual([6, 6]);
    expect(x.grad).toBe(g1);
  });
  it("broadcasting is undone by sum_to: x[1,2] * ones(3,2) gives x.grad [[3, 3]]", () => {
    const x = torch.tensor([[1, 2]], { dtype: torch.float32, requires_grad: true });
    x.mul(torch.ones(3, 2)).sum().backward();
    expect(vals(x.grad)).toEqual([[3, 3]]);
  });
  it("a gradient of another dtype is cast to the input's (float64 leaf, float32 partner)", () => {
    const x = torch.tensor([1, 2], { dtype: torch.float64, requires_grad: true });
    x.mul(torch.ones(2)).sum().backward();
    expect(x.grad!.dtype).toBe(torch.float64);
    expect(vals(x.grad)).toEqual([1, 1]);
  });
  it("create_graph: d(x*x*x)/dx at 2 is 12 with grad_fn AddBackward0, and its derivative is 12", () => {
    const x = f32([2]);
    const y = x.mul(x).mul(x);
    const [g] = torch.autograd.grad(y, x, { create_graph: true });
    expect(String(g)).toBe("tensor([12.], grad_fn=<AddBackward0>)");
    const [g2] = torch.autograd.grad(g!, x);
    expect(vals(g2)).toEqual([12]);
  });
  it("autograd.grad leaves .grad alone; allow_unused gives null for an unused input", () => {
    const x = f32([1, 2]), w = f32([3, 4]);
    const [gx, gw] = torch.autograd.grad(x.mul(2).sum(), [x, w], { allow_unused: true });
    expect([vals(gx), gw, x.grad]).toEqual([[2, 2], null, null]);
  });
  it("backward(gradient) computes the vector-Jacobian product", () => {
    const x = f32([1, 2]);
    x.mul(3).backward(f32([1, 10], false));
    expect(vals(x.grad)).toEqual([3, 30]);
  });
  it("backward(inputs=[x]) accumulates only into x", () => {
    const x = f32([1, 2]), w = f32([3, 4]);
    x.mul(w).sum().backward({ inputs: [x] });
    expect([vals(x.grad), w.grad]).toEqual([[3, 4], null]);
  });
});

describe("hooks", () => {
  it("run in PyTorch's order: tensor hook, Node prehook, Node posthook, leaf hook", () => {
    const order: unknown[] = [];
    const x = f32([1, 2]);
    const y = x.mul(2);
    y.register_hook((g) => void order.push(["y", g.tolist()]));
    y.grad_fn!.register_prehook((go) => void order.push(["pre", go.map(vals)]));
    y.grad_fn!.register_hook((gi) => void order.push(["post", gi.map((t) => vals(t) ?? null)]));
    x.register_hook((g) => void order.push(["x", g.tolist()]));
    y.sum().backward();
    expect(order).toEqual([["y", [1, 1]], ["pre", [[1, 1]]], ["post", [[2, 2], null]], ["x", [2, 2]]]);
    expect(vals(x.grad)).toEqual([2, 2]);
  });
  it("a leaf hook's return value replaces the gradient (g * 10 gives 20)", () => {
    const x = f32([1, 2]);
    x.register_hook((g) => g.mul(10));
    x.mul(2).sum().backward();
    expect(vals(x.grad)).toEqual([20, 20]);
  });
  it("retain_grad keeps a non-leaf's gradient", () => {
    const x = f32([1, 2]);
    const y = x.mul(3);
    y.retain_grad();
    y.mul(y).sum().backward();
    expect([vals(y.grad), vals(x.grad)]).toEqual([[6, 12], [18, 36]]);
  });
  it("a hook may not change the gradient's size", () => {
    const x = f32([1, 2]);
    x.register_hook(function (_g) {
      return torch.ones(3);
    });
    expect(() => x.mul(2).sum().backward()).toThrow("hook '<lambda>' has changed the size of value");
  });
  it("removing a hook stops it", () => {
    const x = f32([1, 2]);
    const h = x.register_hook((g) => g.mul(10));
    h.remove();
    x.mul(2).sum().backward();
    expect(vals(x.grad)).toEqual([2, 2]);
  });
});

describe("grad modes", () => {
  it("no_grad: around a function and as a scope guard", () => {
    const x = f32([1, 2]);
    expect(torch.no_grad(() => x.mul(2)).requires_grad).toBe(false);
    {
      using _g = torch.no_grad();
      expect(torch.is_grad_enabled()).toBe(false);
      expect(x.mul(2).grad_fn).toBe(null);
      torch.enable_grad(() => expect(x.mul(2).requires_grad).toBe(true));
    }
    expect(torch.is_grad_enabled()).toBe(true);
  });
  it("in-place on a leaf that requires grad is allowed under no_grad (as optimizers do)", () => {
    const x = f32([1, 2]);
    torch.no_grad(() => x.add_(1));
    expect(vals(x)).toEqual([2, 3]);
  });
});

describe("errors (PyTorch's texts)", () => {
  const cases: [string, () => unknown, string][] = [
    ["backward twice", () => { const a = f32([1, 2]); const s = a.mul(a).sum(); s.backward(); s.backward(); },
      "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward."],
    ["implicit grad of a non-scalar", () => f32([1, 2]).mul(2).backward(), "grad can be implicitly created only for scalar outputs"],
    ["backward of a tensor outside any graph", () => torch.ones(2).sum().backward(), "element 0 of tensors does not require grad and does not have a grad_fn"],
    ["in-place on a leaf", () => f32([1, 2]).add_(1), "a leaf Variable that requires grad is being used in an in-place operation."],
    ["a saved tensor changed in place", () => { const x = f32([1, 2]); const y = x.mul(2); const z = y.mul(y); y.add_(1); z.sum().backward(); },
      "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AddBackward0, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True)."],
    ["an unused input", () => { const x = f32([1, 2]); torch.autograd.grad(x.mul(2).sum(), [x, f32([3, 4])]); },
      "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior."],
    ["an input that does not require grad", () => { const x = f32([1, 2]); torch.autograd.grad(x.mul(2).sum(), torch.ones(2)); }, "One of the differentiated Tensors does not require grad"],
    ["out= with an input that requires grad", () => torch.add(f32([1, 2]), 1, { out: torch.empty(2) }),
      "add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."],
    ["requires_grad_(False) on a non-leaf", () => f32([1, 2]).mul(2).requires_grad_(false),
      "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."],
    ["a hook on a tensor that does not require grad", () => torch.ones(2).register_hook((g) => g), "cannot register a hook on a tensor that doesn't require gradient"],
    ["a gradient of the wrong shape", () => f32([1, 2]).mul(2).backward(torch.ones(3)),
      "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([2])."],
  ];
  for (const [name, fn, text] of cases) it(name, () => expect(fn).toThrow(text));
  it("an op whose derivative is not written yet raises at backward, as PyTorch's NotImplemented Node does", () => {
    // floor_divide has no derivatives.yaml entry in PyTorch 1.13 either
    const x = f32([1, 2]);
    const y = torch.floor_divide(x, 2);
    expect(y.grad_fn!.name()).toBe("NotImplemented");
    expect(() => y.sum().backward()).toThrow("derivative for aten::floor_divide is not implemented");
  });
});

describe("views, in-place changes and detach (PyTorch 1.13's behaviour)", () => {
  it("an in-place change to a view reaches the base's history through CopySlices", () => {
    const x = torch.ones(3, { requires_grad: true });
    const a = x.mul(2);
    const v = a.slice(0, 0, 2);
    expect([v._is_view(), v._base === a]).toEqual([true, true]);
    v.mul_(3);
    expect(a.grad_fn!.name()).toBe("CopySlices");
    expect(v.grad_fn!.name()).toBe("AsStridedBackward0");
    expect(v.grad_fn!.next_functions[0][0]).toBe(a.grad_fn);
    a.sum().backward();
    expect(vals(x.grad)).toEqual([6, 6, 2]);
  });
  it("a view of a view has the first base as _base", () => {
    const s = f32([1, 2, 3]).mul(2);
    expect(s.view(3).view(3)._base).toBe(s);
  });
  it("detach shares data and version counter but no history; .data has its own version counter", () => {
    const x = torch.ones(3, { requires_grad: true });
    const d = x.detach();
    expect([d._is_view(), d._base, d.requires_grad, d.is_leaf]).toEqual([false, null, false, true]);
    d.add_(1);
    expect([x._version, vals(x)]).toEqual([1, [2, 2, 2]]);
    const p = x.data;
    p.add_(1);
    expect([x._version, p.requires_grad]).toEqual([1, false]);
  });
  const errors: [string, () => unknown, string][] = [
    ["in-place on one of several views from one op", () => f32([1, 2, 3]).mul(1).unbind(0)[0].mul_(2),
      "is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one."],
    ["in-place with grad on a view made under no_grad", () => { const b = f32([1, 2, 3]).mul(1); torch.no_grad(() => b.slice(0, 0, 1)).mul_(2); },
      "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."],
    ["in-place on a view of a leaf", () => f32([1, 2, 3]).slice(0, 0, 1).mul_(2), "a view of a leaf Variable that requires grad is being used in an in-place operation."],
    ["detach_ on a view", () => f32([1, 2, 3]).mul(2).slice(0, 0, 2).detach_(),
      "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."],
  ];
  for (const [name, fn, text] of errors) it(name, () => expect(fn).toThrow(text));
});

describe("inference mode (PyTorch 1.13's behaviour)", () => {
  it("tensors made inside are inference tensors; views of normal tensors stay normal and versioned", () => {
    const x = torch.ones(2);
    let i!: Tensor;
    torch.inference_mode(() => {
      i = torch.ones(2);
      const v = x.view(2);
      expect([i.is_inference(), v.is_inference(), v._is_view(), torch.is_inference_mode_enabled(), torch.is_grad_enabled()]).toEqual([true, false, true, true, false]);
      x.add_(1);
      expect(x._version).toBe(1);
      i.add_(1);
      expect(i.view(2).is_inference()).toBe(true);
    });
    expect([torch.is_inference_mode_enabled(), torch.is_grad_enabled()]).toEqual([false, true]);
    expect(String(i._dispatch_keys())).toBe("DispatchKeySet(CPU, AutocastCPU)");
    expect(torch.add(i, 1).is_inference()).toBe(false);
  });
  it("a tensor requiring grad made inside does not record history there", () => {
    torch.inference_mode(() => {
      const j = torch.ones(2, { requires_grad: true });
      expect([j.requires_grad, j.mul(2).requires_grad]).toEqual([true, false]);
    });
  });
  const i = torch.inference_mode(() => torch.ones(2));
  const errors: [string, () => unknown, string][] = [
    ["in-place outside inference mode", () => i.add_(1),
      "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."],
    ["reading the version", () => i._version, "Inference tensors do not track version counter."],
    ["requires_grad outside inference mode", () => i.requires_grad_(), "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."],
    ["saving one for backward", () => torch.ones(2, { requires_grad: true }).mul(i),
      "Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal tensor and use it in autograd."],
  ];
  for (const [name, fn, text] of errors) it(name, () => expect(fn).toThrow(text));
});

describe("torch.autograd.graph.saved_tensors_hooks", () => {
  it("packs each saved tensor at forward and unpacks it at backward, in PyTorch's order", () => {
    // with saved_tensors_hooks(pack, unpack): y = a * b; y.sum().backward()
    // PyTorch: pack [1, 2], pack [3, 4], unpack [10, 20], unpack [30, 40]; a.grad [3, 4], b.grad [1, 2]
    const a = f32([1, 2]), b = f32([3, 4]);
    const log: unknown[] = [];
    const y = torch.autograd.graph.saved_tensors_hooks(
      (x: Tensor) => (log.push(["pack", x.tolist()]), torch.no_grad(() => x.mul(10))),
      (x: Tensor) => (log.push(["unpack", x.tolist()]), torch.no_grad(() => x.div(10))),
      () => a.mul(b),
    );
    y.sum().backward();
    expect(log).toEqual([["pack", [1, 2]], ["pack", [3, 4]], ["unpack", [10, 20]], ["unpack", [30, 40]]]);
    expect([vals(a.grad), vals(b.grad)]).toEqual([[3, 4], [1, 2]]);
  });
});
