// linalg.multi_dot (LinearAlgebra.cpp, PyTorch 1.13): the product of a chain of matrices in the
// cheapest order. A 1-D first (last) tensor is a row (column) vector; two or three factors choose the
// order directly, longer chains by the classic matrix-chain dynamic programme. The result is viewed
// without the vector dims.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { mm_default } from "../../../generated/mm.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { view_default } from "../../../generated/view.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import { list } from "./common.js";

const mm = (a: Tensor, b: Tensor): Tensor => mm_default.call(a, b) as Tensor;

/** matrix_chain_order: s[i][j] = where to split i..j. */
function matrixChainOrder(tensors: readonly Tensor[]): number[][] {
  const n = tensors.length;
  const p = [...tensors.map((t) => t.size(0)), tensors[n - 1].size(1)];
  const m = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const s = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let l = 1; l < n; l++) {
    for (let i = 0; i < n - l; i++) {
      const j = i + l;
      m[i][j] = Infinity;
      for (let k = i; k < j; k++) {
        const q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
        if (q < m[i][j]) {
          m[i][j] = q;
          s[i][j] = k;
        }
      }
    }
  }
  return s;
}

function chain(tensors: readonly Tensor[], order: number[][], i: number, j: number): Tensor {
  if (i === j) return tensors[i];
  // gcc evaluates the arguments of at::mm right to left: the right factor is computed first
  const right = chain(tensors, order, order[i][j] + 1, j);
  const left = chain(tensors, order, i, order[i][j]);
  return mm(left, right);
}

export function linalg_multi_dot(input: readonly Tensor[]): Tensor {
  const n = input.length;
  if (n < 2) throw new RuntimeError(`multi_dot(): expected at least 2 tensors but got ${n}`);
  const outShape: number[] = [];
  const tensors = [...input];
  if (input[0].dim() === 1) tensors[0] = unsqueeze_default.call(input[0], 0) as Tensor;
  else if (input[0].dim() === 2) outShape.push(input[0].size(0));
  else throw new RuntimeError(`multi_dot(): the first tensor must be 1D or 2D but got ${input[0].dim()}D`);
  if (input[n - 1].dim() === 1) tensors[n - 1] = unsqueeze_default.call(input[n - 1], -1) as Tensor;
  else if (input[n - 1].dim() === 2) outShape.push(input[n - 1].size(1));
  else throw new RuntimeError(`multi_dot(): the last tensor must be 1D or 2D but got ${input[n - 1].dim()}D`);
  for (let i = 1; i < n - 1; i++) {
    if (input[i].dim() !== 2) throw new RuntimeError(`multi_dot(): tensor ${i} must be 2D but got ${input[i].dim()}D`);
  }
  for (let i = 1; i < n; i++) {
    if (tensors[i].dtype !== tensors[0].dtype) {
      throw new RuntimeError(
        `multi_dot(): all tensors must have be the same dtype but tensor 0 is ${typeMetaName(tensors[0].dtype.scalarType)} and tensor ${i} ${typeMetaName(tensors[i].dtype.scalarType)}`,
      );
    }
    if (tensors[i - 1].size(-1) !== tensors[i].size(0)) {
      throw new RuntimeError(`multi_dot(): tensors ${i - 1} and ${i} with shapes ${list(input[i - 1]._impl.sizes())} and ${list(input[i]._impl.sizes())} cannot be multiplied`);
    }
  }
  let result: Tensor;
  if (n === 2) result = mm(tensors[0], tensors[1]);
  else if (n === 3) {
    // (a x b) (b x c) (c x d): cost (a c)(b + d) multiplying the first two first, (b d)(a + c) otherwise
    const a = tensors[0].size(0), b = tensors[1].size(0), c = tensors[2].size(0), d = tensors[2].size(1);
    result = a * c * (b + d) < b * d * (a + c) ? mm(mm(tensors[0], tensors[1]), tensors[2]) : mm(tensors[0], mm(tensors[1], tensors[2]));
  } else result = chain(tensors, matrixChainOrder(tensors), 0, n - 1);
  return view_default.call(result, outShape) as Tensor;
}
