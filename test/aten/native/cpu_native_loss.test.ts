// The native pointwise loss kernels (native/cpu/loss_kernels.inc via NativeLoss.ts): smooth_l1, huber
// and binary_cross_entropy forward, the backward kernels of mse, smooth_l1, huber and
// binary_cross_entropy, log_sigmoid forward and backward, prelu forward and backward, against the
// TypeScript kernels (LossKernel.ts, ActivationKernel.ts, LogSigmoid.ts, PReLU.ts; loss.test.ts and
// activation.test.ts check those against PyTorch's fixtures). float32 and float64, the TS kernels' bits
// where the arithmetic is +, -, *, / in the same order, each rounded to the dtype; where a log or exp
// enters (binary_cross_entropy) float32 is the correctly rounded float as the TS kernel's (the double
// polynomials, exact on every input here; log_sigmoid forward computes in float: within 4 ulps), float64 glibc's against V8's last bit. Contiguous, transposed, strided and broadcast operands,
// the reductions (a reduced loss's grad_output is a broadcast 0-d tensor), NaN, infinities, -0 and the
// values on the beta / delta boundaries.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { bestIsa, kernelsRan, nativeIt, runnableIsas, underTs } from "../../support/native_paths.js";
import { asText } from "../../support/exact_text.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();
const F = torch.nn.functional;
const aten = (torch as any).ops.aten;

afterEach(() => {
  if (ISAS.length > 0) _set_native_isa(bestIsa as any);
});

/** Equal bits, or (float64 through glibc's log / exp) within 2^-50 of the TS kernel's value. */
function expectClose(got: torch.Tensor, want: torch.Tensor, what: string, rel: number, abs = 0): void {
  const g = got.to(torch.float64).contiguous().view(-1).tolist() as number[], w = want.to(torch.float64).contiguous().view(-1).tolist() as number[];
  expect(g.length, what).toBe(w.length);
  const bad = g.findIndex((v, i) => !(Object.is(v, w[i]) || (Number.isNaN(v) && Number.isNaN(w[i])) || Math.abs(v - w[i]) <= rel * Math.abs(w[i]) + abs));
  expect(bad === -1 ? null : { at: bad, got: g[bad], want: w[bad] }, what).toBeNull();
}


/** [a, b] of shape [60, 50]: normals, the specials, and differences of exactly +-1, +-0.5 and +-2 (beta / delta). */
function pair(dtype: torch.dtype): [torch.Tensor, torch.Tensor] {
  torch.manual_seed(11);
  const a = torch.randn(60, 50, { dtype: torch.float64 }).mul(2), b = torch.randn(60, 50, { dtype: torch.float64 });
  const fa = a.view(-1), fb = b.view(-1);
  const specials: [number, number][] = [[NaN, 0], [0, NaN], [Infinity, 1], [-Infinity, 1], [Infinity, Infinity], [-0, 0], [0, -0], [-0, -0],
    [1, 0], [0, 1], [-1, 0], [1.5, 1], [0.5, 1], [2, 0], [-2, 0], [0.25, 0.75], [1e-30, 0], [-1e-30, 0]];
  specials.forEach(([x, y], i) => {
    fa.get(i * 13 + 2).fill_(x);
    fb.get(i * 13 + 2).fill_(y);
  });
  return [a.to(dtype), b.to(dtype)];
}

function layouts(a: torch.Tensor, b: torch.Tensor): [string, torch.Tensor, torch.Tensor][] {
  return [
    ["contiguous", a, b],
    ["transposed", a.t(), b.t()],
    ["strided", a.get("::2", "::3"), b.get("1::2", "::3")],
    ["broadcast target", a, b.get(0)],
  ];
}

const reduce = (t: torch.Tensor, r: string) => (r === "mean" ? t.mean() : t.sum());
const REDUCTION: Record<string, number> = { none: 0, mean: 1, sum: 2 };

// [name, loss(input, target, reduction), forward stub (null: already native elsewhere), backward stub]
const LOSSES: [string, (x: torch.Tensor, y: torch.Tensor, r: string) => torch.Tensor, string | null, string][] = [
  ["smooth_l1", (x, y, r) => F.smooth_l1_loss(x, y, { reduction: r } as any), "smooth_l1_stub", "smooth_l1_backward_stub"],
  ["smooth_l1 beta 0.5", (x, y, r) => F.smooth_l1_loss(x, y, { reduction: r, beta: 0.5 } as any), "smooth_l1_stub", "smooth_l1_backward_stub"],
  // (F.smooth_l1_loss with beta 0 is l1_loss; the aten op runs the kernels, whose backward gives -norm * grad at x == 0)
  ["smooth_l1 beta 0", (x, y, r) => aten.smooth_l1_loss.default.call(x, y, REDUCTION[r], 0), "smooth_l1_stub", "smooth_l1_backward_stub"],
  ["huber", (x, y, r) => F.huber_loss(x, y, { reduction: r } as any), "huber_stub", "huber_backward_stub"],
  ["huber delta 2", (x, y, r) => F.huber_loss(x, y, { reduction: r, delta: 2 } as any), "huber_stub", "huber_backward_stub"],
  ["huber delta 0.3", (x, y, r) => F.huber_loss(x, y, { reduction: r, delta: 0.3 } as any), "huber_stub", "huber_backward_stub"],
  ["mse", (x, y, r) => F.mse_loss(x, y, { reduction: r } as any), null, "mse_backward_stub"],
];

describe("native loss kernels", () => {
  nativeIt("forward and backward: the TS kernels' bits for every reduction and layout, on every unit", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        const [a0, b0] = pair(dtype);
        for (const [layout, a, b] of layouts(a0, b0)) {
          for (const [name, loss, fwdStub, bwdStub] of LOSSES) {
            for (const reduction of ["none", "mean", "sum"]) {
              const what = `${name} ${reduction} ${dtype} ${layout} [${isa}]`;
              const f = () => loss(a, b, reduction);
              if (fwdStub !== null) expect(kernelsRan(f), what).toContain(`${fwdStub}:native`);
              // (a reduced loss: the TS kernel's unreduced loss through the same mean / sum, whose float64
              // order differs between the native and TS reductions)
              const want = reduction === "none" ? underTs(f) : reduce(underTs(() => loss(a, b, "none")), reduction);
              expect(asText(f()), what).toBe(asText(want));
              const x1 = a.detach().clone().requires_grad_(), x2 = a.detach().clone().requires_grad_();
              const g = reduction === "none" ? torch.randn(x1.shape, { dtype }) : torch.tensor(1.7, { dtype });
              expect(kernelsRan(() => loss(x1, b, reduction).backward(g)), `${what} backward`).toContain(`${bwdStub}:native`);
              underTs(() => loss(x2, b, reduction).backward(g));
              expect(asText(x1.grad!), `${what} backward`).toBe(asText(x2.grad!));
            }
          }
        }
      }
    }
  }, 120_000);

  nativeIt("binary_cross_entropy's backward: inputs in [0, 1] with 0 and 1 (EPSILON), NaN, a weight, every reduction", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        torch.manual_seed(3);
        const input = torch.rand(40, 30, { dtype }), target = torch.rand(40, 30, { dtype });
        const fi = input.view(-1);
        [0, 1, NaN, 1e-7, 1 - 1e-7, 0.5].forEach((v, i) => fi.get(i * 17 + 1).fill_(v));
        const grad = torch.randn(40, 30, { dtype }), weight = torch.rand(30, { dtype });
        const cases: [string, () => torch.Tensor][] = [
          ["none", () => aten.binary_cross_entropy_backward.default.call(grad, input, target, null, 0)],
          ["mean, 0-d grad", () => aten.binary_cross_entropy_backward.default.call(torch.tensor(0.3, { dtype }), input, target, null, 1)],
          ["sum, weight", () => aten.binary_cross_entropy_backward.default.call(torch.tensor(2, { dtype }), input, target, weight, 2)],
          ["transposed", () => aten.binary_cross_entropy_backward.default.call(grad.t(), input.t(), target.t(), null, 0)],
          ["strided", () => aten.binary_cross_entropy_backward.default.call(grad.get("::2"), input.get("::2"), target.get("1::2"), null, 1)],
        ];
        for (const [name, f] of cases) {
          const what = `bce backward ${name} ${dtype} [${isa}]`;
          expect(kernelsRan(f), what).toContain("binary_cross_entropy_backward_stub:native");
          expect(asText(f()), what).toBe(asText(underTs(f)));
        }
        // through autograd (the forward checks the range, so without the NaN)
        const ok = input.clone().nan_to_num_(0.5);
        const x1 = ok.clone().requires_grad_(), x2 = ok.clone().requires_grad_();
        F.binary_cross_entropy(x1, target).backward();
        underTs(() => F.binary_cross_entropy(x2, target).backward());
        expect(asText(x1.grad!), `bce autograd ${dtype} [${isa}]`).toBe(asText(x2.grad!));
      }
    }
  });

  nativeIt("log_sigmoid's backward: the TS kernel's bits, contiguous, transposed, strided, NaN and infinities", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        torch.manual_seed(9);
        const x = torch.randn(50, 40, { dtype }).mul(8);
        [NaN, Infinity, -Infinity, -0, 0, 40, -40, -100].forEach((v, i) => x.view(-1).get(i * 11 + 4).fill_(v));
        for (const [layout, v] of [["contiguous", x], ["transposed", x.t()], ["strided", x.get("::3", "1::2")]] as const) {
          const what = `log_sigmoid backward ${dtype} ${layout} [${isa}]`;
          const g = torch.randn(v.shape, { dtype });
          // (one buffer for both: float64's forward exp is glibc's natively, V8's in TypeScript)
          const buffer = (aten.log_sigmoid_forward.default.call(v) as torch.Tensor[])[1];
          const f = () => aten.log_sigmoid_backward.default.call(g, v, buffer) as torch.Tensor;
          expect(kernelsRan(f), what).toContain("log_sigmoid_backward_stub:native");
          expect(asText(f()), what).toBe(asText(underTs(f)));
          const x1 = v.detach().clone().requires_grad_();
          expect(kernelsRan(() => F.logsigmoid(x1).backward(g)), `${what} autograd`).toContain("log_sigmoid_backward_stub:native");
          expect(asText(x1.grad!), `${what} autograd`).toBe(asText(f()));
        }
      }
    }
  });

  nativeIt("declines what it does not cover: mixed dtypes, float16, integer mse_loss_backward", () => {
    const [a, b] = pair(torch.float32);
    const mixed = () => F.huber_loss(a, b.to(torch.float64));
    expect(kernelsRan(mixed)).toContain("huber_stub:ts");
    expect(asText(mixed())).toBe(asText(underTs(mixed)));
    const half = () => F.smooth_l1_loss(a.to(torch.float16), b.to(torch.float16), { reduction: "none" } as any);
    expect(kernelsRan(half)).toContain("smooth_l1_stub:ts");
    const ints = () => aten.mse_loss_backward.default.call(torch.ones(5, { dtype: torch.int64 }), torch.arange(5), torch.zeros(5, { dtype: torch.int64 }), 2);
    expect(kernelsRan(ints)).toContain("mse_backward_stub:ts");
    expect(asText(ints())).toBe("[0,2,4,6,8]");
  });

  nativeIt("binary_cross_entropy forward: the TS kernel's values, and its error for an input outside [0, 1]", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        torch.manual_seed(4);
        const input = torch.rand(64, 48, { dtype }), target = torch.rand(64, 48, { dtype });
        [0, 1, 1e-30, 1e-7, 1 - 1e-7, 0.5, 1e-45, 3e-44].forEach((v, i) => input.view(-1).get(i * 19 + 2).fill_(v));
        [0, 1, 0, 1].forEach((v, i) => target.view(-1).get(i * 19 + 2).fill_(v));
        const weight = torch.rand(48, { dtype });
        const cases: [string, () => torch.Tensor][] = [
          ["none", () => F.binary_cross_entropy(input, target, { reduction: "none" } as any)],
          ["transposed", () => F.binary_cross_entropy(input.t(), target.t(), { reduction: "none" } as any)],
          ["strided", () => F.binary_cross_entropy(input.get("::2", "1::3"), target.get("1::2", "::3"), { reduction: "none" } as any)],
          ["weight", () => F.binary_cross_entropy(input, target, { weight, reduction: "none" } as any)],
          ["mean", () => F.binary_cross_entropy(input, target)],
        ];
        for (const [name, f] of cases) {
          const what = `bce ${name} ${dtype} [${isa}]`;
          expect(kernelsRan(f), what).toContain("binary_cross_entropy_stub:native");
          const want = name === "mean" ? underTs(() => F.binary_cross_entropy(input, target, { reduction: "none" } as any)).mean() : underTs(f);
          expectClose(f(), want, what, dtype === torch.float64 ? 2 ** -50 : 0);
        }
        for (const v of [1.5, -0.25, NaN]) {
          const bad = input.clone();
          bad.view(-1).get(777).fill_(v);
          expect(() => F.binary_cross_entropy(bad, target), `bce ${v} ${dtype} [${isa}]`).toThrow("all elements of input should be between 0 and 1");
        }
      }
    }
  });

  nativeIt("log_sigmoid forward: output and buffer, contiguous, transposed, strided, NaN, infinities, +-0", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        torch.manual_seed(8);
        const x = torch.randn(70, 50, { dtype }).mul(10);
        [NaN, Infinity, -Infinity, -0, 0, 88, -88, 104, -104, 1e-30, -1e-30, 20, -20].forEach((v, i) => x.view(-1).get(i * 23 + 5).fill_(v));
        for (const [layout, v] of [["contiguous", x], ["transposed", x.t()], ["strided", x.get("1::3", "::2")]] as const) {
          const what = `log_sigmoid ${dtype} ${layout} [${isa}]`;
          const f = () => aten.log_sigmoid_forward.default.call(v) as [torch.Tensor, torch.Tensor];
          expect(kernelsRan(f), what).toContain("log_sigmoid_cpu_stub:native");
          const [out, buf] = f(), [wantOut, wantBuf] = underTs(f);
          // float32 computes in float (exp and log1p within 1 ulp each): within 4 ulps of the TS kernel's
          // correctly rounded values, and one subnormal step for a buffer e^-|x| below 2^-126
          const rel = dtype === torch.float64 ? 2 ** -50 : 2 ** -22;
          const abs = dtype === torch.float64 ? 0 : 2 ** -149;
          expectClose(out, wantOut, what, rel, abs);
          expectClose(buf, wantBuf, `${what} buffer`, rel, abs);
          expectClose(F.logsigmoid(v), wantOut, `${what} F.logsigmoid`, rel, abs);
          // log_sigmoid_forward.output into a transposed result (written through its strides)
          const into = torch.empty([v.shape[1], v.shape[0]], { dtype }).t(), intoBuf = torch.empty(v.shape, { dtype });
          expect(kernelsRan(() => aten.log_sigmoid_forward.output.call(v, { output: into, buffer: intoBuf })), `${what} out=`).toContain("log_sigmoid_cpu_stub:native");
          expectClose(into, wantOut, `${what} out=`, rel, abs);
          expectClose(intoBuf, wantBuf, `${what} out= buffer`, rel, abs);
        }
      }
    }
  });

  nativeIt("prelu forward and backward: per-channel and shared weights, contiguous, permuted, strided, a strided weight", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        torch.manual_seed(6);
        const img = torch.randn(4, 6, 5, 7, { dtype });
        [NaN, -0, 0, Infinity, -Infinity].forEach((v, i) => img.view(-1).get(i * 31 + 3).fill_(v));
        const w = torch.randn(6, { dtype }), wStrided = torch.randn(12, { dtype }).get("::2"), shared = torch.tensor([0.3], { dtype });
        const cases: [string, torch.Tensor, torch.Tensor][] = [
          ["per-channel", img, w],
          ["permuted", img.permute(0, 1, 3, 2), w],
          ["strided", img.get(":", ":", "::2"), w],
          ["strided weight", img, wStrided],
          ["shared", img, shared],
          ["2-d", img.view(-1, 6 * 35).get(":", ":6"), w],
          ["1-d shared", img.view(-1), shared],
        ];
        for (const [name, x, weight] of cases) {
          const what = `prelu ${name} ${dtype} [${isa}]`;
          const f = () => F.prelu(x, weight);
          expect(kernelsRan(f), what).toContain("prelu_cpu_stub:native");
          expect(asText(f()), what).toBe(asText(underTs(f)));
          const g = torch.randn(x.shape, { dtype });
          const x1 = x.detach().clone().requires_grad_(), w1 = weight.detach().clone().requires_grad_();
          const x2 = x.detach().clone().requires_grad_(), w2 = weight.detach().clone().requires_grad_();
          expect(kernelsRan(() => F.prelu(x1, w1).backward(g)), `${what} backward`).toContain("prelu_backward_cpu_stub:native");
          underTs(() => F.prelu(x2, w2).backward(g));
          expect(asText(x1.grad!), `${what} grad_input`).toBe(asText(x2.grad!));
          // (the weight's gradient is the collector's sum, whose native and TS reductions add in different orders)
          expectClose(w1.grad!, w2.grad!, `${what} grad_weight`, dtype === torch.float64 ? 1e-12 : 1e-5);
          // a broadcast grad_output (prelu(x).sum()'s backward)
          const x3 = x.detach().clone().requires_grad_(), x4 = x.detach().clone().requires_grad_();
          expect(kernelsRan(() => F.prelu(x3, weight).sum().backward()), `${what} sum backward`).toContain("prelu_backward_cpu_stub:native");
          underTs(() => F.prelu(x4, weight).sum().backward());
          expect(asText(x3.grad!), `${what} sum backward`).toBe(asText(x4.grad!));
        }
        expect(() => F.prelu(img, w.to(dtype === torch.float32 ? torch.float64 : torch.float32))).toThrow("Found dtype");
      }
    }
  });

  nativeIt("binary_cross_entropy_with_logits: the composite's values step for step, every reduction and layout, a weight", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        torch.manual_seed(12);
        const x = torch.randn(64, 48, { dtype }).mul(12), t = torch.rand(64, 48, { dtype });
        [NaN, Infinity, -Infinity, -0, 0, 90, -90, 110, -110, 1e-30].forEach((v, i) => x.view(-1).get(i * 29 + 1).fill_(v));
        const weight = torch.rand(48, { dtype });
        /** Loss.ts's composite, op by op on the TS kernels (its pos_weight-free branch). */
        const composite = (a: torch.Tensor, b: torch.Tensor) => underTs(() => {
          const maxVal = a.neg().clamp_min(0);
          const logTerm = maxVal.neg().exp().add(a.neg().sub(maxVal).exp()).log();
          return torch.ones_like(b).sub(b).mul(a).add(maxVal).add(logTerm);
        });
        const cases: [string, torch.Tensor, torch.Tensor][] = [["contiguous", x, t], ["transposed", x.t(), t.t()], ["strided", x.get("::2", "1::3"), t.get("1::2", "::3")]];
        for (const [layout, a, b] of cases) {
          const what = `bce_with_logits ${layout} ${dtype} [${isa}]`;
          const f = () => F.binary_cross_entropy_with_logits(a, b, { reduction: "none" } as any);
          expect(kernelsRan(f), what).toContain("binary_cross_entropy_with_logits_stub:native");
          // float64 within the last bits; float32's contiguous rows take exp and log in float (1 ulp each):
          // within a few ulps of the composite's correctly rounded steps, its other layouts the same bits
          const rel = dtype === torch.float64 ? 2 ** -50 : layout === "contiguous" ? 2 ** -21 : 0;
          expectClose(f(), composite(a, b), what, rel);
          expectClose(underTs(f), composite(a, b), `${what} (TS kernel)`, 0);
          expectClose(F.binary_cross_entropy_with_logits(a, b), composite(a, b).mean(), `${what} mean`, rel);
          if (layout === "contiguous") {
            expectClose(F.binary_cross_entropy_with_logits(a, b, { weight, reduction: "sum" } as any), composite(a, b).mul(weight).sum(), `${what} weight`, rel);
          }
        }
      }
    }
  });
});
