// torch.autograd.gradcheck (torch/autograd/gradcheck.py, PyTorch 1.13), slow mode on real inputs: the
// Jacobian of every differentiable output with respect to every input that requires grad, once by central
// finite differences (each input element perturbed in place by ±eps) and once from backward (one
// autograd.grad call per output element, with a one-hot grad_output), compared with allclose. Backward is
// run twice and the two Jacobians must be equal (reentrancy), backward of zero grad_outputs must give
// zeros of the inputs' sizes and dtypes, and (check_undefined_grad) backward must accept undefined output
// gradients. Failures raise GradcheckError with PyTorch's texts.
//
// check_forward_ad: the same Jacobians from forward-mode AD too (one dual-level evaluation per input element,
// with a one-hot tangent), compared with the numerical ones; check_backward_ad: false skips the backward checks.
//
// Not implemented (PyTorch's options for them are not accepted): fast_mode, batched gradients (forward or
// backward), complex inputs, sparse/mkldnn inputs.

import type { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError, ValueError } from "../c10/Errors.js";
import { ScalarType } from "../c10/ScalarType.js";
import { allclose_default } from "../generated/allclose.js";
import { typedView, readNumber, toRaw } from "../c10/ElementAccess.js";
import { tensor } from "../aten/tensor_new.js";
import { rand_like } from "../aten/Distributions.js";
import { promote_types } from "../aten/TypeProperties.js";
import { grad as autograd_grad } from "./autograd.js";
import { no_grad } from "./grad_mode.js";
import { gradient_edge, shallow_copy_and_detach } from "./variable.js";
import { set_history } from "./VariableTypeUtils.js";
import { UndefinedGradBackward } from "./functions/basic_ops.js";
import * as fwAD from "./forward_ad.js";
import { zeros_like_default } from "../generated/zeros_like.js";

/** torch.autograd.gradcheck.GradcheckError: a RuntimeError. */
export class GradcheckError extends RuntimeError {
  constructor(message: string) {
    super(message);
    this.name = "GradcheckError";
  }
}

export interface GradcheckOptions {
  eps?: number;
  atol?: number;
  rtol?: number;
  raise_exception?: boolean;
  nondet_tol?: number;
  check_grad_dtypes?: boolean;
  check_undefined_grad?: boolean;
  /** Also check the Jacobians forward-mode AD computes (default false). */
  check_forward_ad?: boolean;
  /** Check the Jacobians backward computes, and backward's other properties (default true). */
  check_backward_ad?: boolean;
}

type Input = Tensor | number | boolean | null | undefined | unknown;

const isTensor = (x: unknown): x is Tensor => typeof x === "object" && x !== null && "_impl" in x;
const asTuple = <T>(x: T | readonly T[]): T[] => (Array.isArray(x) ? [...x] : [x as T]);

const FAILED_NONDET_MSG = `

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with \`nondet_tol=<tol>\` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have \`gradcheck_nondet_tol=<tol>\`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have \`gradcheck_nondet_tol=<tol>\`
`;

/**
 * gradcheck(func, inputs, {eps = 1e-6, atol = 1e-5, rtol = 1e-3, raise_exception = true, nondet_tol = 0,
 * check_grad_dtypes = false}): true, or a GradcheckError (false when raise_exception is false).
 */
export function gradcheck(func: (...args: any[]) => Tensor | readonly Tensor[], inputs: Input | readonly Input[], options: GradcheckOptions = {}): boolean {
  const opts = {
    eps: 1e-6, atol: 1e-5, rtol: 1e-3, raise_exception: true, nondet_tol: 0.0, check_grad_dtypes: false, check_undefined_grad: true,
    check_forward_ad: false, check_backward_ad: true, ...options,
  };
  if (!opts.raise_exception) {
    try {
      return gradcheckHelper(func, inputs, opts);
    } catch (e) {
      if (e instanceof GradcheckError) return false;
      throw e;
    }
  }
  return gradcheckHelper(func, inputs, opts);
}

function gradcheckHelper(func: (...args: any[]) => Tensor | readonly Tensor[], inputs: Input | readonly Input[], opts: Required<GradcheckOptions>): boolean {
  const tupled = asTuple(inputs as Input);
  checkInputs(tupled);
  const funcOut = asTuple(func(...tupled) as Tensor);
  const outputs = funcOut.filter((o) => o.requires_grad);
  // _gradcheck_real_imag: backward first, then forward mode
  if (opts.check_backward_ad) slowGradcheck(func, funcOut, tupled, outputs, opts);
  if (opts.check_forward_ad) slowGradcheckForward(func, funcOut, tupled, outputs, opts);
  // the remaining checks need backward AD
  if (!opts.check_backward_ad) return true;
  testBackwardMulByGradOutput(outputs, tupled);
  if (opts.check_undefined_grad) testUndefinedBackwardMode(func, outputs, tupled);
  return true;
}

/** torch._C._functions.UndefinedGrad()(o): a copy of o whose backward passes undefined gradients on to o. */
function undefinedGrad(o: Tensor): Tensor {
  const copy = shallow_copy_and_detach(no_grad(() => o.clone()));
  const fn = new UndefinedGradBackward([gradient_edge(o)]);
  set_history(copy, fn);
  return copy;
}

const UNDEFINED_NOTE = 'Please look at "Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"';

function warnBcBreaking(): void {
  console.warn(
    "UserWarning: Backwards compatibility: New undefined gradient support checking feature is enabled by default, but it may break existing callers " +
      'of this function. If this is true for you, you can call this function with "check_undefined_grad=False" to disable the feature',
  );
}

/**
 * _test_undefined_backward_mode: backward must accept undefined gradients for all outputs at once (and,
 * with several outputs, for one at a time), giving undefined or zero input gradients.
 */
function testUndefinedBackwardMode(func: (...args: any[]) => Tensor | readonly Tensor[], outputs: Tensor[], inputs: Input[]): void {
  const diffInputs = inputs.filter((x): x is Tensor => isTensor(x) && x.requires_grad);
  if (diffInputs.length === 0) throw new GradcheckError("no Tensors requiring grad found in input");
  const differentiable = () => asTuple(func(...inputs) as Tensor).filter((o) => o.requires_grad);
  const toCheck: Tensor[][] = [differentiable().map(undefinedGrad)];
  if (toCheck[0].length > 1) {
    for (let undef = 0; undef < outputs.length; undef++) toCheck.push(differentiable().map((o, idx) => (idx === undef ? undefinedGrad(o) : o)));
  }
  for (const outs of toCheck) {
    const zeros = outs.map((o) => tensor(new Array<number>(o.numel()).fill(0), { dtype: o.dtype }).reshape([...o.shape]));
    let grads: (Tensor | null)[];
    try {
      grads = autograd_grad(outs, diffInputs, { grad_outputs: zeros, allow_unused: true });
    } catch (e) {
      if (!(e instanceof RuntimeError)) throw e;
      warnBcBreaking();
      throw new GradcheckError(`Expected backward function to handle undefined output grads. ${UNDEFINED_NOTE}`);
    }
    for (const gi of grads) {
      if (gi !== null && !no_grad(() => gi.eq(0).all().item())) {
        warnBcBreaking();
        throw new GradcheckError(`Expected all input grads to be undefined or zero when all output grads are undefined or zero. ${UNDEFINED_NOTE}`);
      }
    }
  }
}

/** _check_inputs: something requires grad; no input has a stride-0 dimension; non-double inputs warn. */
function checkInputs(inputs: Input[]): void {
  let any = false;
  inputs.forEach((inp, idx) => {
    if (!isTensor(inp) || !inp.requires_grad) return;
    if (inp.dtype.scalarType !== ScalarType.Double) {
      console.warn(
        `UserWarning: Input #${idx} requires gradient and is not a double precision floating point or complex. ` +
          "This check will likely fail if all the inputs are not of double precision floating point or complex. ",
      );
    }
    const sizes = inp.shape, strides = inp.stride() as number[];
    if (!sizes.every((sz, i) => strides[i] > 0 || sz <= 1)) {
      throw new RuntimeError(
        `The ${idx}th input has a dimension with stride 0. gradcheck only supports inputs that are non-overlapping to be able to ` +
          "compute the numerical gradients correctly. You should call .contiguous on the input before passing it to gradcheck.",
      );
    }
    any = true;
    inp.retain_grad();
  });
  if (!any) throw new ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them have requires_grad=True.");
}

/** Row-major multi-indices of `sizes`, as itertools.product(*map(range, sizes)). */
function* multiIndices(sizes: readonly number[]): Generator<number[]> {
  const n = sizes.reduce((a, b) => a * b, 1);
  const idx = new Array<number>(sizes.length).fill(0);
  for (let k = 0; k < n; k++) {
    yield [...idx];
    for (let d = sizes.length - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}

/** The rows of a Jacobian (one per input element) as a (numel_in, numel_out) tensor of `dtype`. */
function fromRows(rows: number[][], numelIn: number, numelOut: number, dt: Tensor["dtype"]): Tensor {
  const flat: number[] = [];
  for (let i = 0; i < numelIn; i++) for (let j = 0; j < numelOut; j++) flat.push(rows[i]?.[j] ?? 0);
  return tensor(flat, { dtype: dt }).reshape([numelIn, numelOut]);
}

/**
 * _get_numerical_jacobian: for each input that requires grad, one Jacobian per float output, each row
 * (b - a) / (2 eps) with a, b the outputs at x[idx] - eps and x[idx] + eps. The element is written in
 * the input's storage directly (x.data in PyTorch), so its version counter does not move.
 */
function numericalJacobian(func: (...args: any[]) => Tensor | readonly Tensor[], inputs: Input[], outputs: Tensor[], eps: number): Tensor[][] {
  const result: Tensor[][] = [];
  for (const inp of inputs) {
    if (!isTensor(inp) || !inp.requires_grad) continue;
    const impl = inp._impl;
    const view = typedView(impl.storage, inp.dtype);
    const st = inp.dtype.scalarType;
    const strides = inp.stride() as number[];
    const numel = inp.numel();
    const floatOuts = outputs.filter((o) => o.dtype.is_floating_point);
    const rows: number[][][] = floatOuts.map(() => []);
    let dIdx = 0;
    for (const idx of multiIndices(inp.shape)) {
      const pos = impl.storage_offset() + idx.reduce((acc, i, d) => acc + i * strides[d], 0);
      const orig = readNumber(view, st, pos);
      const run = (value: number) => {
        view[pos] = toRaw(st, value) as never;
        return asTuple(func(...inputs) as Tensor).map((o) => o.clone());
      };
      const outa = run(orig - eps);
      const outb = run(orig + eps);
      view[pos] = toRaw(st, orig) as never;
      let k = 0;
      outa.forEach((a, i) => {
        const b = outb[i];
        if (String(a.shape) !== String(b.shape)) {
          throw new RuntimeError(
            `Expected \`func\` to return outputs with the same shape when inputs are perturbed on index (${idx.join(", ")}${idx.length === 1 ? "," : ""}) by ${eps}, but got: shapes torch.Size([${a.shape.join(", ")}]) and torch.Size([${b.shape.join(", ")}]).`,
          );
        }
        if (!a.dtype.is_floating_point) return;
        rows[k++][dIdx] = no_grad(() => b.sub(a).div(2 * eps).reshape([-1]).tolist() as number[]);
      });
      dIdx++;
    }
    result.push(floatOuts.map((o, i) => fromRows(rows[i], numel, o.numel(), o.dtype)));
  }
  return result;
}

/** _compute_analytical_jacobian_rows + _stack_and_check_tensors: backward of each one-hot grad_output. */
function analyticalJacobian(output: Tensor, diffInputs: Tensor[]): { jac: Tensor[]; sizesOk: boolean; typesOk: boolean } {
  const n = output.numel();
  const cols: (number[] | null)[][] = diffInputs.map(() => []);
  let sizesOk = true, typesOk = true;
  for (let j = 0; j < n; j++) {
    const onehot = new Array<number>(n).fill(0);
    onehot[j] = 1;
    const gradOut = tensor(onehot, { dtype: output.dtype }).reshape([...output.shape]);
    const grads = autograd_grad(output, diffInputs, { grad_outputs: gradOut, retain_graph: true, allow_unused: true });
    grads.forEach((g, i) => {
      const inp = diffInputs[i];
      if (g !== null && String(g.shape) !== String(inp.shape)) sizesOk = false;
      else if (g !== null && g.dtype !== inp.dtype) typesOk = false;
      cols[i][j] = g === null ? null : (g.reshape([-1]).tolist() as number[]);
    });
  }
  const jac = diffInputs.map((inp, i) => {
    const rows: number[][] = Array.from({ length: inp.numel() }, () => new Array<number>(n).fill(0));
    cols[i].forEach((col, j) => col?.forEach((v, r) => (rows[r][j] = v)));
    return fromRows(rows, inp.numel(), n, inp.dtype);
  });
  return { jac, sizesOk, typesOk };
}

function slowGradcheck(func: (...args: any[]) => Tensor | readonly Tensor[], funcOut: Tensor[], inputs: Input[], outputs: Tensor[], opts: Required<GradcheckOptions>): void {
  if (outputs.length === 0) {
    // _check_no_differentiable_outputs: the numerical gradient must be zero
    for (const perInput of numericalJacobian(func, inputs, funcOut, opts.eps)) {
      for (const j of perInput) {
        if ((j.ne(0).sum().item() as number) > 0) throw new GradcheckError("Numerical gradient for function expected to be zero");
      }
    }
    return;
  }
  // numerical[input][output] transposed to [output][input], keeping the outputs that require grad
  const byInput = numericalJacobian(func, inputs, funcOut, opts.eps);
  const floatOuts = funcOut.filter((o) => o.dtype.is_floating_point);
  const numerical = floatOuts.map((_, o) => byInput.map((perInput) => perInput[o])).filter((_, o) => floatOuts[o].requires_grad);
  const diffInputs = inputs.filter((x): x is Tensor => isTensor(x) && x.requires_grad);
  outputs.forEach((o, i) => {
    const first = analyticalJacobian(o.clone(), diffInputs);
    const second = analyticalJacobian(o.clone(), diffInputs);
    // PyTorch unpacks (jacobians, sizes_ok, types_ok) as (jacobians, types_ok, sizes_ok): keep its behavior
    const types_ok = first.sizesOk, sizes_ok = first.typesOk;
    const reentrant = first.jac.every((a, k) => a.numel() === 0 || no_grad(() => (a.sub(second.jac[k]).abs().max().item() as number) <= opts.nondet_tol));
    if (!types_ok && opts.check_grad_dtypes) throw new GradcheckError("Gradient has dtype mismatch");
    if (!sizes_ok) throw new GradcheckError("Analytical gradient has incorrect size");
    if (!reentrant) {
      throw new GradcheckError(
        "Backward is not reentrant, i.e., running backward with same input and grad_output multiple times gives different values, " +
          `although analytical gradient matches numerical gradient.The tolerance for nondeterminism was ${pyFloat(opts.nondet_tol)}.` +
          FAILED_NONDET_MSG,
      );
    }
    first.jac.forEach((a, j) => {
      const n = numerical[i][j];
      if (!allcloseWithTypePromotion(a, n, opts.rtol, opts.atol)) {
        throw new GradcheckError(`Jacobian mismatch for output ${i} with respect to input ${j},\nnumerical:${String(n)}\nanalytical:${String(a)}\n`);
      }
    });
  });
}

/**
 * _get_analytical_jacobian_forward_ad: each input that requires grad becomes a dual (its detached value, a zero
 * tangent); per element of each, the tangent is set to one there, the function evaluated, and every float
 * output's tangent (zeros when it has none) is that element's row of the Jacobian.
 */
function forwardJacobian(func: (...args: any[]) => Tensor | readonly Tensor[], inputs: Input[], outputs: Tensor[], check_grad_dtypes: boolean): Tensor[][] {
  const tensorInputs = inputs.filter((x): x is Tensor => isTensor(x) && x.requires_grad);
  const floatOuts = outputs.filter((o) => o.dtype.is_floating_point);
  return fwAD.dual_level(() => {
    const fwGrads: Tensor[] = [];
    const dualInputs = inputs.map((inp) => {
      if (!isTensor(inp) || !inp.requires_grad) return inp;
      const d = fwAD.make_dual(inp.detach(), zeros_like_default.call(inp, null, null, null, null, null) as Tensor);
      // a differentiable view's tangent may not be the one given: read it back
      fwGrads.push(fwAD.unpack_dual(d).tangent!);
      return d;
    });
    return tensorInputs.map((inp, i) => {
      const fw = fwGrads[i];
      const impl = fw._impl;
      const view = typedView(impl.storage, fw.dtype);
      const st = fw.dtype.scalarType;
      const strides = fw.stride() as number[];
      const rows: number[][][] = floatOuts.map(() => []);
      let lin = 0;
      for (const idx of multiIndices(fw.shape)) {
        const pos = impl.storage_offset() + idx.reduce((acc, k, d) => acc + k * strides[d], 0);
        view[pos] = toRaw(st, 1) as never;
        const dualOuts = asTuple(func(...dualInputs) as Tensor).filter((o) => isTensor(o) && o.dtype.is_floating_point);
        dualOuts.forEach((o, k) => {
          const { primal, tangent } = fwAD.unpack_dual(o);
          if (check_grad_dtypes && tangent !== null && primal.dtype !== tangent.dtype) throw new GradcheckError("Forward AD gradient has dtype mismatch.");
          rows[k][lin] = tangent === null ? new Array<number>(o.numel()).fill(0) : (no_grad(() => tangent.reshape([-1]).tolist()) as number[]);
        });
        view[pos] = toRaw(st, 0) as never;
        lin++;
      }
      return floatOuts.map((o, k) => fromRows(rows[k], inp.numel(), o.numel(), o.dtype));
    });
  });
}

/** _slow_gradcheck(use_forward_ad=True): forward-mode Jacobians against the numerical ones. */
function slowGradcheckForward(func: (...args: any[]) => Tensor | readonly Tensor[], funcOut: Tensor[], inputs: Input[], outputs: Tensor[], opts: Required<GradcheckOptions>): void {
  if (outputs.length === 0) {
    for (const perInput of numericalJacobian(func, inputs, funcOut, opts.eps)) {
      for (const j of perInput) {
        if ((j.ne(0).sum().item() as number) > 0) throw new GradcheckError("Numerical gradient for function expected to be zero");
      }
    }
    return;
  }
  const byInput = numericalJacobian(func, inputs, funcOut, opts.eps);
  const floatOuts = funcOut.filter((o) => o.dtype.is_floating_point);
  const numerical = floatOuts.map((_, o) => byInput.map((perInput) => perInput[o])).filter((_, o) => floatOuts[o].requires_grad);
  const analytical = forwardJacobian(func, inputs, funcOut, opts.check_grad_dtypes);
  numerical.forEach((perOut, i) => {
    perOut.forEach((n, j) => {
      const a = analytical[j][i];
      if (!allcloseWithTypePromotion(a, n, opts.rtol, opts.atol)) {
        throw new GradcheckError(`Jacobian computed with forward mode mismatch for output ${i} with respect to input ${j},\nnumerical:${String(n)}\nanalytical:${String(a)}\n`);
      }
    });
  });
}

/** Python's str(float): 0.0, 1e-05. */
function pyFloat(x: number): string {
  if (Number.isInteger(x)) return x.toFixed(1);
  const s = String(x);
  return s.replace(/e([+-])(\d)$/, "e$10$2");
}

function allcloseWithTypePromotion(a: Tensor, b: Tensor, rtol: number, atol: number): boolean {
  const promoted = promote_types(a.dtype, b.dtype);
  return no_grad(() => {
    const x = a.to(promoted), y = b.to(promoted);
    return Boolean(allclose_default.call(x, y, rtol, atol, false));
  });
}

/** _test_backward_mul_by_grad_output: zero grad_outputs must give zero gradients of the right type and size. */
function testBackwardMulByGradOutput(outputs: Tensor[], inputs: Input[]): void {
  const diffInputs = inputs.filter((x): x is Tensor => isTensor(x) && x.requires_grad);
  if (diffInputs.length === 0) throw new GradcheckError("no Tensors requiring grad found in input");
  if (outputs.length === 0) return;
  const zeros = outputs.map((o) => tensor(new Array<number>(o.numel()).fill(0), { dtype: o.dtype }).reshape([...o.shape]));
  const grads = autograd_grad(outputs, diffInputs, { grad_outputs: zeros, allow_unused: true });
  grads.forEach((gi, i) => {
    const di = diffInputs[i];
    if (gi === null) return;
    if (gi.dtype !== di.dtype || String(gi.device) !== String(di.device)) throw new GradcheckError("grad is incorrect type");
    if (String(gi.shape) !== String(di.shape)) throw new GradcheckError("grad is incorrect size");
    if (!no_grad(() => gi.eq(0).all().item())) throw new GradcheckError("backward not multiplied by grad_output");
  });
}


export interface GradgradcheckOptions extends GradcheckOptions {
  /** The upstream gradients to differentiate through; random in [-1, 1) (float64, requiring grad) when absent. */
  grad_outputs?: readonly Tensor[] | null;
}

/**
 * torch.autograd.gradgradcheck (torch/autograd/gradcheck.py): second derivatives by finite differences.
 * The function checked is (inputs..., grad_outputs...) -> autograd.grad(func(inputs), inputs, grad_outputs,
 * create_graph=True), so gradcheck compares the backward's own backward with numbers.
 */
export function gradgradcheck(func: (...args: any[]) => Tensor | readonly Tensor[], inputs: Input | readonly Input[], options: GradgradcheckOptions = {}): boolean {
  const { grad_outputs, ...opts } = options;
  const tupled = (Array.isArray(inputs) ? inputs : [inputs]) as Input[];
  const isTensor = (x: unknown): x is Tensor => typeof x === "object" && x !== null && "_impl" in x;
  const asList = (r: Tensor | readonly Tensor[]) => (Array.isArray(r) ? [...r] : [r as Tensor]);
  const outputs = no_grad(() => asList(func(...tupled)));
  // random upstream gradients, as torch.testing.make_tensor(low=-1, high=1, requires_grad=True) gives
  const gouts = grad_outputs ? [...grad_outputs] : outputs.map((o) => rand_like_pm1(o));
  const nIn = tupled.length;
  const newFunc = (...args: unknown[]) => {
    const ins = args.slice(0, nIn);
    const gs = args.slice(nIn) as Tensor[];
    const outs = asList(func(...ins));
    const diffIns = ins.filter((x): x is Tensor => isTensor(x) && x.requires_grad);
    const diffOuts = outs.filter((o) => o.requires_grad);
    const grads = autograd_grad(diffOuts, diffIns, { grad_outputs: gs.slice(0, diffOuts.length), create_graph: true, allow_unused: true });
    return grads.filter((g): g is Tensor => g !== null);
  };
  return gradcheck(newFunc, [...tupled, ...gouts], opts);
}

/** Uniform in [-1, 1) from torch's generator, o's shape and dtype, requiring grad. */
function rand_like_pm1(o: Tensor): Tensor {
  const r = no_grad(() => rand_like(o).mul(2).sub(1));
  return r.requires_grad_(true);
}
