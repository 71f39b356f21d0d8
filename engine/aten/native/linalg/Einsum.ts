// einsum and sumproduct_pair (aten/src/ATen/native/Linear.cpp, PyTorch 1.13). The equation is parsed
// into labels per operand (with "..." and an implicit output of the labels seen once); each operand
// takes diagonals for repeated labels, is unsqueezed for missing labels and permuted to the order
// "output dims, then contracted dims". Operands are then contracted left to right in pairs by
// sumproduct_pair, which permutes and reshapes both into a bmm.

import { end_composite } from "../../../c10/Dispose.js";
import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { sum_dim_IntList } from "../../../generated/sum.js";
import { permute_default } from "../../../generated/permute.js";
import { reshape_default } from "../../../generated/reshape.js";
import { view_default } from "../../../generated/view.js";
import { bmm_default } from "../../../generated/bmm.js";
import { diagonal_default } from "../../../generated/diagonal.js";
import { movedim_int } from "../../../generated/movedim.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";

/**
 * left and right have the same number of dims (broadcastable); the product is summed over sum_dims.
 * Dims in both inputs become bmm's batch, dims in one input its rows or columns, summed dims its k.
 */
export function sumproduct_pair(left_: Tensor, right_: Tensor, sumDims: readonly number[], keepdim: boolean): Tensor {
  if (left_.dim() !== right_.dim()) throw new RuntimeError("number of dimensions must match");
  if (sumDims.length === 0) return mul_Tensor.call(left_, right_) as Tensor;
  const made: Tensor[] = []; // the temporaries, which die with the op (end_composite)
  const step = (t: unknown): Tensor => (made.push(t as Tensor), t as Tensor);
  const dim = left_.dim();
  const isSum = new Array<boolean>(dim).fill(false);
  for (const d of sumDims) isSum[maybe_wrap_dim(d, dim)] = true;
  const lro: number[] = [], lo: number[] = [], ro: number[] = [];
  let lroSize = 1, loSize = 1, roSize = 1, sumSize = 1;
  let left = left_, right = right_;
  for (let i = 0; i < dim; i++) {
    const sl = left.size(i) !== 1, sr = right.size(i) !== 1; // size 0 counts as present
    if (isSum[i]) {
      if (sl && sr) {
        if (left.size(i) !== right.size(i)) throw new RuntimeError("non-broadcast dimensions must match");
        sumSize *= left.size(i);
      } else if (sl) left = step(sum_dim_IntList.call(left, [i], true, null)); // in one input only: sum right away
      else if (sr) right = step(sum_dim_IntList.call(right, [i], true, null));
    } else if (sl && sr) {
      if (left.size(i) !== right.size(i)) throw new RuntimeError("non-broadcast dimensions must match");
      lro.push(i);
      lroSize *= left.size(i);
    } else if (sl) {
      lo.push(i);
      loSize *= left.size(i);
    } else {
      ro.push(i);
      roSize *= right.size(i);
    }
  }
  const outSize = [...lro.map((d) => left.size(d)), ...lo.map((d) => left.size(d)), ...sumDims.map(() => 1), ...ro.map((d) => right.size(d))];
  const lpermutation = [...lro, ...lo, ...sumDims, ...ro];
  const rpermutation = [...lro, ...sumDims, ...ro, ...lo];
  const opermutation = new Array<number>(lro.length + lo.length + sumDims.length + ro.length).fill(-1);
  [...lro, ...lo, ...sumDims, ...ro].forEach((d, i) => (opermutation[d] = i));
  left = step(reshape_default.call(step(permute_default.call(left, lpermutation)), [lroSize, loSize, sumSize]));
  right = step(reshape_default.call(step(permute_default.call(right, rpermutation)), [lroSize, sumSize, roSize]));
  let result = step(bmm_default.call(left, right));
  result = permute_default.call(step(view_default.call(result, outSize)), opermutation) as Tensor;
  if (!keepdim) {
    const sizes = [...result._impl.sizes()];
    for (let i = dim - 1; i >= 0; i--) if (isSum[i]) sizes.splice(i, 1);
    result = view_default.call(step(result), sizes) as Tensor;
  }
  end_composite(made, [result], [left_, right_]);
  return result;
}

const NUM_OF_LETTERS = 26;
const TOTAL_LABELS = NUM_OF_LETTERS * 2;
const ELLIPSIS = TOTAL_LABELS;
const isAlpha = (c: string) => /^[A-Za-z]$/.test(c);
const labelToSubscript = (c: string) => (c >= "A" && c <= "Z" ? c.charCodeAt(0) - 65 : NUM_OF_LETTERS + c.charCodeAt(0) - 97);
const subscriptToLabel = (s: number) => String.fromCharCode(s < NUM_OF_LETTERS ? s + 65 : s - NUM_OF_LETTERS + 97);

export function einsum(equation: string, operands: readonly Tensor[], path: readonly number[] | null = null): Tensor {
  if (operands.length === 0) throw new RuntimeError("einsum(): must provide at least one operand");
  const numOps = operands.length;
  const arrowPos = equation.indexOf("->");
  const lhs = arrowPos < 0 ? equation : equation.slice(0, arrowPos);

  // ---- parse the operands' labels ----
  const opLabels: number[][] = operands.map(() => []);
  let ellInInput = false;
  let currOp = 0;
  for (let i = 0; i < lhs.length; i++) {
    const label = lhs[i];
    if (label === " ") continue;
    if (label === ".") {
      if (ellInInput) throw new RuntimeError(`einsum(): found '.' for operand ${currOp} for which an ellipsis was already found`);
      if (!(i + 2 < lhs.length && lhs[++i] === "." && lhs[++i] === ".")) {
        throw new RuntimeError(`einsum(): found '.' for operand ${currOp} that is not part of any ellipsis`);
      }
      opLabels[currOp].push(ELLIPSIS);
      ellInInput = true;
    } else if (label === ",") {
      currOp++;
      if (currOp >= numOps) throw new RuntimeError("einsum(): fewer operands were provided than specified in the equation");
      ellInInput = false;
    } else {
      if (!isAlpha(label)) throw new RuntimeError(`einsum(): invalid subscript given at index ${i} in the equation string, subscripts must be in [a-zA-Z]`);
      opLabels[currOp].push(labelToSubscript(label));
    }
  }
  if (currOp !== numOps - 1) throw new RuntimeError("einsum(): more operands were provided than specified in the equation");

  // ---- label counts and the dims covered by "..." ----
  const labelCount = new Array<number>(TOTAL_LABELS).fill(0);
  let ellNumDim = 0;
  operands.forEach((op, i) => {
    const ndims = op.dim();
    let nlabels = opLabels[i].length;
    let hasEllipsis = false;
    for (const l of opLabels[i]) {
      if (l === ELLIPSIS) {
        nlabels--;
        hasEllipsis = true;
        ellNumDim = Math.max(ellNumDim, ndims - nlabels);
      } else labelCount[l]++;
    }
    if (hasEllipsis ? nlabels > ndims : nlabels !== ndims) {
      throw new RuntimeError(
        `einsum(): the number of subscripts in the equation (${nlabels}) does not match the number of dimensions (${ndims}) for operand ${i}${hasEllipsis ? "" : " and no ellipsis was given"}`,
      );
    }
  });

  // ---- where each label goes in the permuted shape: output dims first, then contracted ones ----
  const labelPermIndex = new Array<number>(TOTAL_LABELS).fill(-1);
  let permIndex = 0, ellIndex = 0, ellInOutput = false;
  if (arrowPos < 0) {
    // implicit output: "..." then the labels seen exactly once, in alphabetical order
    permIndex = ellNumDim;
    ellInOutput = true;
    for (let l = 0; l < TOTAL_LABELS; l++) if (labelCount[l] === 1) labelPermIndex[l] = permIndex++;
  } else {
    const rhs = equation.slice(arrowPos + 2);
    for (let i = 0; i < rhs.length; i++) {
      const label = rhs[i];
      if (label === " ") continue;
      if (label === ".") {
        if (ellInOutput) throw new RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found");
        if (!(i + 2 < rhs.length && rhs[++i] === "." && rhs[++i] === ".")) {
          throw new RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)");
        }
        ellIndex = permIndex;
        permIndex += ellNumDim;
        ellInOutput = true;
      } else {
        if (!isAlpha(label)) {
          throw new RuntimeError(`einsum(): invalid subscript given at index ${lhs.length + 2 + i} in the equation string, subscripts must be in [a-zA-Z]`);
        }
        const index = labelToSubscript(label);
        if (!(labelCount[index] > 0 && labelPermIndex[index] === -1)) {
          throw new RuntimeError(
            `einsum(): output subscript ${label}${labelPermIndex[index] > -1 ? " appears more than once in the output" : " does not appear in the equation for any input operand"}`,
          );
        }
        labelPermIndex[index] = permIndex++;
      }
    }
  }
  const outSize = permIndex;
  if (!ellInOutput) {
    ellIndex = permIndex;
    permIndex += ellNumDim;
  }
  for (let l = 0; l < TOTAL_LABELS; l++) if (labelCount[l] > 0 && labelPermIndex[l] === -1) labelPermIndex[l] = permIndex++;

  // ---- check sizes, take diagonals, unsqueeze missing dims, permute every operand alike ----
  const labelSize = new Array<number>(TOTAL_LABELS).fill(1);
  const ellSizes = new Array<number>(ellNumDim).fill(1);
  const dimCounts = new Array<number>(permIndex).fill(0);
  const ops: Tensor[] = [];
  const made: Tensor[] = []; // the temporaries, which die with the op (end_composite)
  const step = (t: unknown): Tensor => (made.push(t as Tensor), t as Tensor);
  operands.forEach((operand, i) => {
    let op = operand;
    const permutation = new Array<number>(permIndex).fill(-1);
    let dim = 0;
    for (const s of opLabels[i]) {
      if (s === ELLIPSIS) {
        const ndim = operand.dim() - (opLabels[i].length - 1);
        for (let j = ellNumDim - ndim; j < ellNumDim; j++) {
          if (op.size(dim) !== 1) {
            if (!(ellSizes[j] === 1 || ellSizes[j] === op.size(dim))) {
              throw new RuntimeError(
                `einsum(): dimension ${dim} covered by ellipsis in operand ${i}has size ${op.size(dim)} which does not broadcast with previously seen ellipsis with size ${ellSizes[j]} for the respective dimension`,
              );
            }
            ellSizes[j] = op.size(dim);
            dimCounts[ellIndex + j]++;
          }
          permutation[ellIndex + j] = dim++;
        }
      } else if (permutation[labelPermIndex[s]] === -1) {
        if (op.size(dim) !== 1) {
          if (!(labelSize[s] === 1 || labelSize[s] === op.size(dim))) {
            throw new RuntimeError(
              `einsum(): subscript ${subscriptToLabel(s)} has size ${op.size(dim)} for operand ${i} which does not broadcast with previously seen size ${labelSize[s]}`,
            );
          }
          labelSize[s] = op.size(dim);
          dimCounts[labelPermIndex[s]]++;
        }
        permutation[labelPermIndex[s]] = dim++;
      } else {
        // repeated label: take the diagonal
        const prevDim = permutation[labelPermIndex[s]];
        if (op.size(dim) !== op.size(prevDim)) {
          throw new RuntimeError(
            `einsum(): subscript ${subscriptToLabel(s)} is repeated for operand ${i} but the sizes don't match, ${op.size(dim)} != ${op.size(prevDim)}`,
          );
        }
        op = step(movedim_int.call(step(diagonal_default.call(op, 0, prevDim, dim)), -1, prevDim));
      }
    }
    for (let p = 0; p < permutation.length; p++) {
      if (permutation[p] === -1) {
        op = step(unsqueeze_default.call(op, dim));
        permutation[p] = dim++;
      }
    }
    ops.push(step(permute_default.call(op, permutation)));
  });

  // ---- contract pairs ----
  let pathPos = 0;
  while (ops.length > 1) {
    let i = 0, j = 1;
    if (path !== null) {
      i = path[pathPos++];
      j = path[pathPos++];
      if (j < i) [i, j] = [j, i];
      if (!(i !== j && i >= 0 && j < ops.length)) {
        throw new RuntimeError(`einsum(): invalid contraction (${i}, ${j}${i === j ? ") cannot contract an operand with itself" : ") operand index is out of bounds"}`);
      }
    }
    let a = ops[i], b = ops[j];
    ops.splice(j, 1);
    ops.splice(i, 1);
    const sumDims: number[] = [], aDimsToSum: number[] = [], bDimsToSum: number[] = [];
    for (let d = outSize; d < permIndex; d++) {
      if (a.size(d) !== 1 && b.size(d) !== 1) {
        if (--dimCounts[d] === 1) {
          sumDims.push(d);
          dimCounts[d] = 0;
        }
      } else if (dimCounts[d] === 1) {
        if (a.size(d) !== 1) {
          aDimsToSum.push(d);
          dimCounts[d] = 0;
        } else if (b.size(d) !== 1) {
          bDimsToSum.push(d);
          dimCounts[d] = 0;
        }
      }
    }
    if (aDimsToSum.length) a = step(sum_dim_IntList.call(a, aDimsToSum, true, null));
    if (bDimsToSum.length) b = step(sum_dim_IntList.call(b, bDimsToSum, true, null));
    if (path !== null) ops.push(step(sumproduct_pair(a, b, sumDims, true)));
    else ops.unshift(step(sumproduct_pair(a, b, sumDims, true)));
  }
  const done = (result: Tensor): Tensor => (end_composite(made, [result], operands), result);

  // ---- sum out the contracted dims ----
  if (permIndex - outSize > 0) {
    if (numOps > 1) {
      // every contracted dim is 1 by now: a view drops them
      const sizes = [...ops[0]._impl.sizes()];
      sizes.splice(outSize, permIndex - outSize);
      return done(view_default.call(ops[0], sizes) as Tensor);
    }
    const dims = Array.from({ length: permIndex - outSize }, (_, k) => outSize + k);
    return done(sum_dim_IntList.call(ops[0], dims, false, null) as Tensor);
  }
  return done(ops[0]);
}
