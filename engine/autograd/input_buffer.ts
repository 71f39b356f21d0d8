// InputBuffer (torch/csrc/autograd/input_buffer.h/.cpp): the gradients collected for one Node before
// it runs, one slot per backward input. The first gradient for a slot is kept; later ones are added
// (out of place: the engine cannot prove no one else sees the first, where PyTorch checks use_count).

import type { Tensor } from "../aten/core/Tensor.js";
import { add_Tensor } from "../generated/add.js";
import type { Grad } from "./function.js";

export class InputBuffer {
  readonly buffer: Grad[];

  constructor(size: number) {
    this.buffer = new Array<Grad>(size).fill(null);
  }

  add(pos: number, grad: Grad): void {
    if (grad === null) return;
    const old = this.buffer[pos];
    this.buffer[pos] = old === null ? grad : (add_Tensor.call(old, grad, 1) as Tensor);
  }
}
