// The nll_loss loops (aten/src/ATen/native/LossNLL.cpp nll_loss_out_frame, LossNLL2d.cpp
// nll_loss2d_forward_out_frame): per-sample -input[target] * weight[target], or a reduction whose
// sums are cascaded over 8 levels (the partial sum of level j is pushed into level j + 1 every
// 2^(j * level_power) samples), in scalar_t arithmetic. Reproducing that order makes float32 exact.

import { IndexError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { roundToScalarType } from "../../cpu/ScalarArithmetic.js";
import { Reduction } from "./Reduction.js";

export const stepOf = (t: ScalarType) =>
  t === ScalarType.Double ? (x: number) => x : t === ScalarType.Float ? Math.fround : (x: number) => roundToScalarType(t, x);

/** utils::CeilLog2 (aten/src/ATen/native/cpu/utils.h): 1 for x <= 2. */
function ceilLog2(x: number): number {
  if (x <= 2) return 1;
  return Math.floor(Math.log2(x - 1)) + 1;
}

export function outOfBounds(target: number): IndexError {
  return new IndexError(`Target ${target} is out of bounds.`);
}

/**
 * The reduced loss and total weight over `count` samples: pick(i) gives sample i's target and the
 * input value at that target.
 */
export function cascadeSum(
  count: number, nClasses: number, ignoreIndex: number, weight: Float64Array | null, t: ScalarType, reduction: number,
  pick: (i: number) => { target: number; value: () => number },
): { output: number; totalWeight: number } {
  const r = stepOf(t);
  const LEVELS = 8;
  const levelPower = Math.max(4, Math.floor(ceilLog2(count) / LEVELS));
  const levelMask = 2 ** levelPower - 1;
  const weightSums = new Array<number>(LEVELS).fill(0), lossSums = new Array<number>(LEVELS).fill(0);
  let ignored = 0;
  for (let b = 0; b < count; b++) {
    const { target, value } = pick(b);
    if (target === ignoreIndex) {
      ignored++;
      continue;
    }
    if (!(target >= 0 && target < nClasses)) throw outOfBounds(target);
    const data = value();
    if (weight) {
      const w = weight[target];
      lossSums[0] = r(lossSums[0] - r(data * w));
      weightSums[0] = r(weightSums[0] + w);
    } else {
      lossSums[0] = r(lossSums[0] - data);
    }
    for (let j = 0; j + 1 < LEVELS; j++) {
      // (b & (level_mask << (j * level_power))) != 0, on 64-bit integers
      const shifted = Math.floor(b / 2 ** (j * levelPower)) & levelMask;
      if (shifted !== 0) break;
      weightSums[j + 1] = r(weightSums[j + 1] + weightSums[j]);
      lossSums[j + 1] = r(lossSums[j + 1] + lossSums[j]);
      weightSums[j] = 0;
      lossSums[j] = 0;
    }
  }
  const totalWeight = weight ? weightSums.reduce((a, v) => r(a + v), 0) : r(count - ignored);
  let output = lossSums.reduce((a, v) => r(a + v), 0);
  if (reduction === Reduction.Mean) output = r(output / totalWeight);
  return { output, totalWeight };
}
