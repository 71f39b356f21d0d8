// torch.autograd.backward and torch.autograd.grad (torch/autograd/__init__.py, and
// THPEngine_run_backward in torch/csrc/autograd/python_engine.cpp): make the starting gradients
// (ones for a scalar output), find each output's gradient edge, and run the engine.

import { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { preserve_format } from "../c10/MemoryFormat.js";
import { ones_like_default } from "../generated/ones_like.js";
import type { Edge } from "./edge.js";
import { execute } from "./engine.js";
import { gradient_edge } from "./variable.js";

type Tensors = Tensor | readonly Tensor[];
type Grads = Tensor | null | readonly (Tensor | null)[];

const asList = <T>(v: T | readonly T[]): T[] => (Array.isArray(v) ? [...v] : [v as T]);
const sizeText = (t: Tensor) => `torch.Size([${t._impl.sizes().join(", ")}])`;

/** _make_grads: check the given gradients against the outputs; make ones for scalar outputs that have none. */
function _make_grads(outputs: Tensor[], grads: (Tensor | null)[]): (Tensor | null)[] {
  return outputs.map((out, i) => {
    const grad = grads[i] ?? null;
    if (grad instanceof Tensor) {
      const a = grad._impl.sizes(), b = out._impl.sizes();
      if (a.length !== b.length || a.some((s, k) => s !== b[k])) {
        throw new RuntimeError(`Mismatch in shape: grad_output[${i}] has a shape of ${sizeText(grad)} and output[${i}] has a shape of ${sizeText(out)}.`);
      }
      if (out.dtype.is_complex !== grad.dtype.is_complex) {
        throw new RuntimeError(
          `For complex Tensors, both grad_output and output are required to have the same dtype. Mismatch in dtype: grad_output[${i}] has a dtype of ${grad.dtype} and output[${i}] has a dtype of ${out.dtype}.`,
        );
      }
      return grad;
    }
    if (!out.requires_grad) return null;
    if (out.numel() !== 1) throw new RuntimeError("grad can be implicitly created only for scalar outputs");
    return ones_like_default.call(out, null, null, null, null, preserve_format) as Tensor;
  });
}

/** run_backward's root edges: every output must have a grad_fn or require grad. */
function rootEdges(outputs: Tensor[]): Edge[] {
  return outputs.map((t, i) => {
    const e = gradient_edge(t);
    if (!e.is_valid()) throw new RuntimeError(`element ${i} of tensors does not require grad and does not have a grad_fn`);
    return e;
  });
}

function inputEdges(inputs: Tensor[]): Edge[] {
  return inputs.map((t) => {
    if (!t.requires_grad) throw new RuntimeError("One of the differentiated Tensors does not require grad");
    return gradient_edge(t);
  });
}

export interface BackwardOptions {
  grad_tensors?: Grads;
  retain_graph?: boolean | null;
  create_graph?: boolean;
  inputs?: Tensors | null;
}

/** torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None). */
export function backward(tensors: Tensors, opts: BackwardOptions = {}): void {
  const outputs = asList(tensors);
  const create_graph = opts.create_graph ?? false;
  const retain_graph = opts.retain_graph ?? create_graph;
  const inputs = opts.inputs == null ? [] : asList(opts.inputs);
  if (opts.inputs != null && inputs.length === 0) throw new RuntimeError("'inputs' argument to backward() cannot be empty.");
  const grads = _make_grads(outputs, opts.grad_tensors == null ? [] : asList(opts.grad_tensors as Tensor | null));
  execute(rootEdges(outputs), grads, {
    keep_graph: retain_graph,
    create_graph,
    accumulate_grad: true,
    outputs: inputs.length ? inputEdges(inputs) : null,
  });
}

export interface GradOptions {
  grad_outputs?: Grads;
  retain_graph?: boolean | null;
  create_graph?: boolean;
  allow_unused?: boolean;
}

/** torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=False). */
export function grad(outputs: Tensors, inputs: Tensors, opts: GradOptions = {}): (Tensor | null)[] {
  const outs = asList(outputs);
  const ins = asList(inputs);
  const create_graph = opts.create_graph ?? false;
  const retain_graph = opts.retain_graph ?? create_graph;
  const grads = _make_grads(outs, opts.grad_outputs == null ? [] : asList(opts.grad_outputs as Tensor | null));
  const result = execute(rootEdges(outs), grads, {
    keep_graph: retain_graph,
    create_graph,
    accumulate_grad: false,
    outputs: inputEdges(ins),
  });
  if (!opts.allow_unused && result.some((g) => g === null)) {
    throw new RuntimeError("One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.");
  }
  return result;
}
