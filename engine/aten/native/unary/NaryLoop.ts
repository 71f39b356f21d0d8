// cpu_kernel for any number of inputs computed in a chosen dtype (aten/src/ATen/native/cpu/Loops.h).
// clamp needs it: clamp(int, 0.5) computes in float although its input is int (self.to(result_type)
// in PyTorch), and clamp.Tensor has three inputs. Loops.ts covers one and two inputs computed in
// the iterator's common dtype.

import { ScalarType } from "../../../c10/ScalarType.js";
import { toCommon } from "../Loops.js";
import { typedView, toRaw, readNumber, type TypedView } from "../../../c10/ElementAccess.js";
import type { TensorIterator } from "../TensorIterator.js";

export interface NaryScalarOp {
  /** The op on values already converted to the compute dtype. */
  number(...xs: number[]): number;
  /** The op on int64 values (used when computing in int64). */
  bigint(...xs: bigint[]): bigint;
}


function readBig(view: TypedView, t: ScalarType, i: number): bigint {
  return t === ScalarType.Long ? (view[i] as bigint) : BigInt(Math.trunc(readNumber(view, t, i)));
}

/** out[i] = op(in0[i], in1[i], ...) with every input converted to `compute`, the result cast to out's dtype. */
export function cpu_kernel_nary(iter: TensorIterator, compute: ScalarType, op: NaryScalarOp): void {
  const out = iter.output._impl;
  if (!out.storage.hasData()) return;
  const ins = iter.inputs.map((t) => t._impl);
  const views = ins.map((t) => typedView(t.storage, t.dtype));
  const types = ins.map((t) => t.dtype.scalarType);
  const outView = typedView(out.storage, out.dtype) as unknown as (number | bigint)[];
  const ot = out.dtype.scalarType;
  const k = ins.length;
  if (compute === ScalarType.Long) {
    const xs = new Array<bigint>(k);
    iter.forEachOffsets((o) => {
      for (let j = 0; j < k; j++) xs[j] = readBig(views[j], types[j], o[j + 1]);
      const r = BigInt.asIntN(64, op.bigint(...xs));
      outView[o[0]] = ot === ScalarType.Long ? r : toRaw(ot, Number(r));
    });
    return;
  }
  if ((compute === ScalarType.Float || compute === ScalarType.Double) && ot === compute && types.every((t) => t === compute)) {
    // float32/float64 all through: reads convert nothing and the store rounds, so index the arrays directly
    const o = outView as unknown as Float64Array, v = views as Float64Array[];
    const flat = iter.flatOffsets();
    if (flat !== null && k >= 1 && k <= 3) {
      const n = iter.numel(), oo = flat[0];
      const x = v[0], xo = flat[1], y = v[1] ?? x, yo = flat[2] ?? 0, z = v[2] ?? x, zo = flat[3] ?? 0;
      if (k === 1) for (let i = 0; i < n; i++) o[oo + i] = op.number(x[xo + i]);
      else if (k === 2) for (let i = 0; i < n; i++) o[oo + i] = op.number(x[xo + i], y[yo + i]);
      else for (let i = 0; i < n; i++) o[oo + i] = op.number(x[xo + i], y[yo + i], z[zo + i]);
      return;
    }
    const xs = new Array<number>(k);
    iter.forEachOffsets((offs) => {
      for (let j = 0; j < k; j++) xs[j] = v[j][offs[j + 1]];
      o[offs[0]] = op.number(...xs);
    });
    return;
  }
  const xs = new Array<number>(k);
  iter.forEachOffsets((o) => {
    for (let j = 0; j < k; j++) xs[j] = toCommon(compute, readNumber(views[j], types[j], o[j + 1]));
    outView[o[0]] = toRaw(ot, toCommon(compute, op.number(...xs)));
  });
}
