// Python-level helpers torch.optim leans on: Python's repr of numbers (error texts, Optimizer.__repr__),
// torch.typename, warnings.warn, KeyError, and copy.deepcopy of a state dict.

import { Tensor } from "../aten/core/Tensor.js";
import { tensorTypeString } from "../aten/native/shape/TensorTypeString.js";

/** warnings.warn(message): a UserWarning. */
export function warn(message: string): void {
  process.emitWarning(message, "UserWarning");
}

/** Python's KeyError (its text is the key's message; Python prints it quoted). */
export class KeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyError";
  }
}

/**
 * repr() of a Python number: an integral JavaScript number counts as an int (JavaScript cannot tell 1.0
 * from 1), any other as a float, in Python's notation (shortest round-trip digits, scientific with a
 * two-digit exponent below 1e-4: 1e-08).
 */
export function pyRepr(x: unknown): string {
  if (x === null || x === undefined) return "None";
  if (typeof x === "boolean") return x ? "True" : "False";
  if (typeof x === "string") return x;
  if (Array.isArray(x)) return x.length === 1 ? `(${pyRepr(x[0])},)` : `(${x.map(pyRepr).join(", ")})`;
  if (typeof x !== "number") return String(x);
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (Number.isInteger(x)) return Object.is(x, -0) ? "-0.0" : String(x);
  if (Math.abs(x) >= 1e-4) return String(x);
  const [mant, exp] = x.toExponential().split("e");
  const e = Number(exp);
  return `${mant}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/** torch.typename(obj): "torch.FloatTensor" for a tensor, else the Python type name of the value. */
export function typename(obj: unknown): string {
  if (obj instanceof Tensor) return tensorTypeString(obj);
  if (obj === null || obj === undefined) return "NoneType";
  if (typeof obj === "number") return Number.isInteger(obj) ? "int" : "float";
  if (typeof obj === "boolean") return "bool";
  if (typeof obj === "string") return "str";
  if (Array.isArray(obj)) return "list";
  if (typeof obj === "function") return "function";
  const ctor = (obj as object).constructor;
  return ctor === Object || !ctor ? "dict" : ctor.name;
}

/** A plain object (a Python dict), not a tensor, array or class instance. */
export function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Tensor) && Object.getPrototypeOf(v) === Object.prototype;
}

/** copy.deepcopy: tensors cloned (detached, keeping requires_grad as deepcopy of a leaf does), containers copied. */
export function deepcopy<T>(v: T): T {
  if (v instanceof Tensor) {
    const c = (v as any).detach().clone();
    if (v.requires_grad) c.requires_grad_(true);
    return c;
  }
  if (Array.isArray(v)) return v.map(deepcopy) as unknown as T;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, deepcopy(x)])) as unknown as T;
  if (isDict(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepcopy(x)])) as T;
  return v;
}

// ---- Python's float ** int ----

/** Dekker's exact product: a * b = p + e. */
function twoProd(a: number, b: number): [number, number] {
  const p = a * b;
  const SPLIT = 134217729; // 2^27 + 1
  const ca = SPLIT * a, ah = ca - (ca - a), al = a - ah;
  const cb = SPLIT * b, bh = cb - (cb - b), bl = b - bh;
  return [p, ((ah * bh - p) + ah * bl + al * bh) + al * bl];
}

/** (ah + al) * (bh + bl) in double-double. */
function ddMul(ah: number, al: number, bh: number, bl: number): [number, number] {
  const [p, e] = twoProd(ah, bh);
  const err = e + (ah * bl + al * bh);
  const s = p + err;
  return [s, err - (s - p)];
}

/**
 * x ** y as Python computes it for floats (C's pow, which glibc rounds correctly): V8's `**` can be an
 * ulp off for integral exponents (0.9 ** 4), which shows in Adam's bias corrections and the schedulers'
 * gamma ** epoch. An integral exponent is raised by squaring in double-double and rounded once.
 */
export function pyPow(x: number, y: number): number {
  if (!Number.isInteger(y) || Math.abs(y) > 2 ** 31 || !Number.isFinite(x) || x === 0 || y === 0) return x ** y;
  let n = Math.abs(y);
  let rh = 1, rl = 0, bh = x, bl = 0;
  while (n > 0) {
    if (n & 1) [rh, rl] = ddMul(rh, rl, bh, bl);
    n = Math.floor(n / 2);
    if (n > 0) [bh, bl] = ddMul(bh, bl, bh, bl);
  }
  if (!Number.isFinite(rh) || rh === 0) return x ** y; // over/underflow: leave it to Math.pow
  if (y > 0) return rh + rl;
  // 1 / (rh + rl): one Newton step on the double quotient
  const q = 1 / rh;
  const [p, e] = twoProd(q, rh);
  const r = (1 - p - e - q * rl) / rh;
  return q + r;
}

// ---- Python's math.cos ----

function twoSum(a: number, b: number): [number, number] {
  const s = a + b, bb = s - a;
  return [s, (a - (s - bb)) + (b - bb)];
}

function ddAdd(ah: number, al: number, bh: number, bl: number): [number, number] {
  const [s, e] = twoSum(ah, bh);
  const [t, f] = twoSum(al, bl);
  let [h, l] = twoSum(s, e + t);
  [h, l] = twoSum(h, l + f);
  return [h, l];
}

/** (ah + al) / d for a small integer d. */
function ddDivInt(ah: number, al: number, d: number): [number, number] {
  const q1 = ah / d;
  const [p, e] = twoProd(q1, d);
  const q2 = (ah - p - e + al) / d;
  return twoSum(q1, q2);
}

// pi/2 as a sum of three doubles
const PIO2 = [1.5707963267948966, 6.123233995736766e-17, -1.4973849048591698e-33];

/**
 * cos(x) as glibc computes it (correctly rounded in practice), for the schedulers' cosines: V8's
 * Math.cos can be an ulp off (cos(pi*3/10)), which the recursive CosineAnnealingLR would carry along.
 * The argument is reduced by pi/2 in double-double and the series summed in double-double.
 */
export function pyCos(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) > 1e6) return Math.cos(x);
  const k = Math.round(x / PIO2[0]);
  // r = x - k * pi/2, in double-double
  let [rh, rl] = twoProd(-k, PIO2[0]);
  [rh, rl] = ddAdd(x, 0, rh, rl);
  const [p2h, p2l] = twoProd(-k, PIO2[1]);
  [rh, rl] = ddAdd(rh, rl, p2h, p2l);
  [rh, rl] = ddAdd(rh, rl, -k * PIO2[2], 0);
  const [r2h, r2l] = ddMul(rh, rl, rh, rl);
  const q = ((k % 4) + 4) % 4;
  // cos r = sum (-1)^n r^2n / (2n)!, sin r = sum (-1)^n r^(2n+1) / (2n+1)!
  const odd = q === 1 || q === 3;
  let th = odd ? rh : 1, tl = odd ? rl : 0;
  let sh = th, sl = tl;
  for (let n = 1; n < 30; n++) {
    [th, tl] = ddMul(th, tl, r2h, r2l);
    const a = odd ? 2 * n : 2 * n - 1, b = odd ? 2 * n + 1 : 2 * n;
    [th, tl] = ddDivInt(th, tl, a * b);
    th = -th;
    tl = -tl;
    [sh, sl] = ddAdd(sh, sl, th, tl);
    if (Math.abs(th) < 1e-40) break;
  }
  const v = sh + sl;
  return q === 0 || q === 3 ? v : -v; // cos(r + k pi/2): cos r, -sin r, -cos r, sin r
}
