// Distances in float32 units in the last place, for tests that bound a kernel's error in ulps.

const i32 = new Int32Array(1), f32 = new Float32Array(i32.buffer);

/** float32 ulps between a and b: the distance of their bit patterns in monotone integer order; NaN/NaN = 0, NaN/number = Infinity. */
export function ulps32(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  const key = (x: number) => {
    f32[0] = x;
    return i32[0] < 0 ? -2147483648 - i32[0] : i32[0];
  };
  return Math.abs(key(a) - key(b));
}
