// The activation and loss family's backward operators called directly, against PyTorch 1.13
// (fixtures/act_backward.json, written by fixtures/gen_act_backward.py): threshold_backward, leaky_relu_backward,
// hardtanh_backward, hardsigmoid_backward, elu_backward, gelu_backward, silu_backward, mish_backward,
// softplus_backward, hardswish_backward, log_sigmoid_backward, _softmax_backward_data, _log_softmax_backward_data,
// mse_loss_backward, smooth_l1_loss_backward, huber_loss_backward, binary_cross_entropy_backward, nll_loss_backward,
// nll_loss2d_backward: values, sizes, strides, dtype, out= (grad_input), broadcasting and transposed operands,
// error texts, and the meta results.
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";

const F = loadFixture("act_backward.json");
const names: string[] = F.cases.map((c: any) => c.name);
const results = (n: string) => F.cases.find((c: any) => c.name === n).results as any[];

// hardtanh_backward.grad_input on meta: PyTorch 1.13 has no Meta kernel for it and its Python decomposition
// takes no grad_input keyword (a TypeError); here the out= call on meta resizes grad_input like the CPU one.
const skipMeta = new Set(names.filter((n) => n.startsWith("hardtanh_backward") && n.endsWith("out=")));
// "refused dtype" cases: PyTorch 1.13's CPU kernel refuses the dtype ("... not implemented for 'Long'") while its
// meta path (no kernel, or a Python decomposition) returns a tensor or fails for want of a Meta kernel; Glasstorch's
// meta stops before the kernel's dtype dispatch and returns the tensor. Neither PyTorch result is a reference there.
for (const n of names) if (n.endsWith(" refused dtype")) skipMeta.add(n);
// PyTorch 1.13 has no Meta kernel for most of the newer backward ops (elu_backward onwards), or a Python one that
// takes no grad_input=, checks no dtypes, or keeps the input's layout where the CPU kernel allocates contiguous:
// where PyTorch's meta result disagrees with its CPU result, Glasstorch's meta result is held to the CPU result.
const OLD = /^(threshold_backward|leaky_relu_backward|hardtanh_backward|hardsigmoid_backward|nll_loss)/;
const asMeta = (r: any) => (r.error ? { error: r.error, message: r.message } : { sizes: r.sizes, strides: r.strides, dtype: r.dtype });
// (A CPU error raised by the kernel itself, after the meta step, is not one: PyTorch's meta result stands there.)
// The TensorIterator's same-dtype check is part of the meta step in PyTorch's C++ too, so those cases follow the CPU.
const ITERATOR_DTYPE_CHECK = /(of another dtype|mixed dtypes)$/;
const metaLikeCpu = new Set(
  names.filter((n) => !OLD.test(n) && !skipMeta.has(n) && (ITERATOR_DTYPE_CHECK.test(n) && !n.startsWith("_") ||
    results(n).some((r) => (r.meta.error && !r.cpu.error) || (!r.meta.error && !r.cpu.error && JSON.stringify(asMeta(r.meta)) !== JSON.stringify(asMeta(r.cpu)))))),
);

// Tolerances (relative to max(|PyTorch's value|, 1)): the transcendental ops (exp, erf, tanh, log1p) are correctly
// rounded here and SLEEF's vectorized versions in PyTorch's build, a few ulp apart (float64 1e-12, float32 1e-6);
// gelu's float32 erf is Vectorized<float>::erf's polynomial on both sides. bfloat16 softmax/log_softmax backward:
// computed in float here, 1.13's bfloat16 path rounds its intermediate steps otherwise (within 1e-2).
const TRANSCENDENTAL = /^(gelu|silu|mish|softplus|elu|log_sigmoid|_softmax|_log_softmax|binary_cross_entropy)/;
const tolerance = (name: string, dtype: string): number => {
  if (!TRANSCENDENTAL.test(name)) return 0;
  if (dtype === "float64") return 1e-12;
  if (dtype === "float32") return 1e-6;
  if (dtype === "bfloat16" && /^_(log_)?softmax/.test(name)) return 1e-2;
  return 0;
};

describeOpCases("activation and loss backward ops match PyTorch (values, out=, errors, meta)", F, { skipMeta, metaLikeCpu, tolerance });
