// SavedVariable (torch/csrc/autograd/saved_variable.h/.cpp): a tensor a backward Node keeps from the
// forward pass, with the tensor's version at save time. If an in-place op changes it before backward
// needs it, unpack() refuses with PyTorch's message. An output of the Node that saves it is kept as
// data only (a Node holding its own output would be a reference cycle); unpack rebuilds the tensor
// with that Node as its grad_fn.

import { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { tensorTypeString } from "../aten/native/shape/TensorTypeString.js";
import type { Node } from "./function.js";
import { grad_fn, is_leaf, output_nr, set_gradient_edge, shallow_copy_and_detach, materialize_autograd_meta } from "./variable.js";
import { Edge } from "./edge.js";
import { AnomalyMode } from "./anomaly_mode.js";
import { current_saved_tensors_hooks } from "./graph.js";
import type { Storage } from "../c10/Storage.js";
import { borrow, drop_storage, hold_storage, is_disposed } from "../c10/Dispose.js";

export const ERR_BACKWARD_TWICE =
  "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). " +
  "Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). " +
  "Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.";

const RELEASED = Symbol("released");

export class SavedVariable {
  private data: Tensor | null = null;
  private readonly defined: boolean;
  private readonly savedVersion: number = 0;
  private readonly outputNr: number = 0;
  private readonly requiresGrad: boolean = false;
  private readonly isLeaf: boolean = true;
  /** The tensor itself was kept (an input, or a leaf), not just its data. */
  private readonly savedOriginal: boolean = true;

  constructor(t: Tensor | null, readonly is_output: boolean) {
    this.defined = t !== null;
    if (t === null) return;
    if (t._impl.is_inference()) {
      throw new RuntimeError("Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal tensor and use it in autograd.");
    }
    this.savedVersion = t._impl.version_counter.version;
    this.outputNr = output_nr(t);
    this.requiresGrad = t.requires_grad;
    this.isLeaf = is_leaf(t);
    this.savedOriginal = !is_output || this.isLeaf;
    const hooks = current_saved_tensors_hooks();
    if (hooks) {
      // saved_tensors_hooks: only what pack returns is kept; unpack gives the tensor back when needed
      this.packed = { value: hooks[0](t), unpack: hooks[1] };
      return;
    }
    this.data = this.savedOriginal ? t : shallow_copy_and_detach(t);
    // Tensor.dispose (c10/Dispose.ts): the kept handle is the user's too, so this SavedVariable holds a share
    // of its storage until reset_data; an output's private copy holds the share its impl was made with
    this.held = this.data._impl.storage;
    if (this.savedOriginal) {
      this.impl = t._impl;
      hold_storage(this.held);
    }
  }

  /** The saved handle's impl at save time: still intact if the user disposes that handle before backward. */
  private impl: Tensor["_impl"] | null = null;
  private held: Storage | null = null;
  /** A live handle over impl, made once if the user disposed the saved one (it keeps a share for good). */
  private alias: Tensor | null = null;

  private packed: { value: unknown; unpack: (packed: any) => Tensor } | null = null;

  /**
   * The saved tensor, checked against in-place changes; saved_for is the Node asking (for outputs, their grad_fn).
   * `borrowed`: the caller is a backward formula run by the engine (not user code), so an output's fresh
   * copy counts under this SavedVariable's share of the storage instead of pinning it (c10/Dispose.ts).
   */
  unpack(saved_for: Node | null = null, borrowed = false): Tensor | null {
    if (!this.defined) return null;
    if (this.packed) {
      if (this.packed.value === RELEASED) throw new RuntimeError(ERR_BACKWARD_TWICE);
      return this.packed.unpack(this.packed.value);
    }
    const data = this.data;
    if (data === null) throw new RuntimeError(ERR_BACKWARD_TWICE);
    const fn = this.savedOriginal ? grad_fn(data) : null;
    const owner = fn ?? (this.isLeaf ? null : saved_for);
    const current = data._impl.version_counter.version;
    if (current !== this.savedVersion) {
      const sizes = `[${data._impl.sizes().join(", ")}]`;
      const which = owner ? `, which is output ${this.outputNr} of ${owner.name()},` : "";
      const hint = AnomalyMode.is_enabled()
        ? "Hint: the backtrace further above shows the operation that failed to compute its gradient. The variable in question was changed in there or anywhere later. Good luck!"
        : "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).";
      throw new RuntimeError(
        `one of the variables needed for gradient computation has been modified by an inplace operation: [${tensorTypeString(data)} ${sizes}]${which} ` +
          `is at version ${current}; expected version ${this.savedVersion} instead. ${hint}`,
      );
    }
    if (this.savedOriginal) {
      if (!is_disposed(data._impl)) return data;
      // the user disposed the saved handle: backward still reads the same impl (and history) through a new one
      if (this.alias === null) {
        this.alias = new Tensor(this.impl!);
        hold_storage(this.impl!.storage);
      }
      return this.alias;
    }
    // an output: a fresh tensor over the saved data whose history is the Node that saved it
    const t = shallow_copy_and_detach(data);
    if (borrowed) borrow(t._impl);
    if (this.requiresGrad && owner) set_gradient_edge(t, new Edge(owner, this.outputNr));
    else if (this.requiresGrad) materialize_autograd_meta(t).set_requires_grad(true);
    return t;
  }

  /** Frees the saved tensor after backward (release_variables). */
  reset_data(): void {
    if (this.held !== null) drop_storage(this.held);
    this.held = null;
    this.impl = null;
    this.data = null;
    if (this.packed) this.packed.value = RELEASED;
  }

  was_released(): boolean {
    if (this.packed) return this.packed.value === RELEASED;
    return this.defined && this.data === null;
  }
}
