// The Mersenne Twister PyTorch's CPU generator runs on, word for word.
// Mirrors aten/src/ATen/core/MT19937RNGEngine.h (PyTorch 1.13): Cokus/Bellew's variant of
// mt19937ar, seeded through `init_genrand` with the low 32 bits of a 64-bit seed.
//
// State is 624 uint32 words. `left_` counts down the words still unused in the current block;
// it starts at 1 so that the very first draw regenerates the whole block (next_state()).

export const MERSENNE_STATE_N = 624;
export const MERSENNE_STATE_M = 397;
const MATRIX_A = 0x9908b0df;
const UMASK = 0x80000000;
const LMASK = 0x7fffffff;

const U64_MASK = (1n << 64n) - 1n;

/** Words of mt19937.stateArray(): the 624 state words, `left_` at MT_LEFT, `next_` at MT_NEXT. */
export const MT_STATE_WORDS = MERSENNE_STATE_N + 2;
export const MT_LEFT = MERSENNE_STATE_N;
export const MT_NEXT = MERSENNE_STATE_N + 1;

/** The engine's plain data, as PyTorch's `mt19937_data_pod` (used by get_state/set_state). */
export interface mt19937_data_pod {
  /** The full 64-bit seed (only its low 32 bits reach the state). */
  seed_: bigint;
  left_: number;
  seeded_: boolean;
  next_: number;
  state_: Uint32Array;
}

export class mt19937 {
  private seed_ = 0n;
  private seeded_ = false;
  /**
   * The 624 state words, then `left_` (word 624) and `next_` (word 625): the whole moving state in
   * one typed array, so the native kernels (native/cpu/Random.cc) advance this very array and their
   * draws interleave with the TypeScript ones. Read it through stateArray() only to hand it to them.
   */
  private readonly st_ = new Uint32Array(MT_STATE_WORDS);
  private readonly state_ = this.st_.subarray(0, MERSENNE_STATE_N);

  private get left_(): number {
    return this.st_[MT_LEFT] | 0;
  }
  private set left_(v: number) {
    this.st_[MT_LEFT] = v;
  }
  private get next_(): number {
    return this.st_[MT_NEXT];
  }
  private set next_(v: number) {
    this.st_[MT_NEXT] = v;
  }

  constructor(seed: bigint | number = 5489n) {
    this.init_with_uint32(BigInt(seed) & U64_MASK);
  }

  /** A copy of the engine's data (PyTorch's `data()`). */
  data(): mt19937_data_pod {
    return { seed_: this.seed_, left_: this.left_, seeded_: this.seeded_, next_: this.next_, state_: this.state_.slice() };
  }

  set_data(data: mt19937_data_pod): void {
    this.seed_ = data.seed_ & U64_MASK;
    this.left_ = data.left_ | 0;
    this.seeded_ = data.seeded_;
    this.next_ = data.next_ >>> 0;
    this.state_.set(data.state_);
  }

  seed(): bigint {
    return this.seed_;
  }

  is_valid(): boolean {
    return this.seeded_ && this.left_ > 0 && this.left_ <= MERSENNE_STATE_N && this.next_ <= MERSENNE_STATE_N;
  }

  /** The next 32-bit output, as an unsigned integer in [0, 2^32). PyTorch's `operator()`. */
  random(): number {
    const st = this.st_;
    const left = (st[MT_LEFT] | 0) - 1;
    if (left === 0) this.next_state();
    else st[MT_LEFT] = left;
    const next = st[MT_NEXT];
    st[MT_NEXT] = next + 1;
    let y = st[next];
    // Tempering.
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /**
   * out[at .. at+n) = the next n outputs of random(), in order: the same stream as n calls, in one
   * tight loop (the bulk kernels draw their words here first, as PyTorch's loops call the engine).
   */
  fill(out: Uint32Array, at: number, n: number): void {
    const st = this.st_;
    let left = st[MT_LEFT] | 0;
    let next = st[MT_NEXT];
    let i = at;
    const end = at + n;
    while (i < end) {
      // random() decrements left_ first and regenerates the block when it reaches 0
      if (left === 1) {
        this.next_state();
        left = MERSENNE_STATE_N + 1;
        next = 0;
      }
      const k = Math.min(left - 1, end - i);
      const stop = i + k;
      while (i < stop) {
        let y = st[next++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        out[i++] = y;
      }
      left -= k;
    }
    st[MT_LEFT] = left;
    st[MT_NEXT] = next;
  }

  /**
   * The live state (MT_STATE_WORDS words: state, left_, next_), for the native kernels to advance
   * in place. Not a copy: writes change this engine.
   */
  stateArray(): Uint32Array {
    return this.st_;
  }

  clone(): mt19937 {
    const e = new mt19937();
    e.set_data(this.data());
    return e;
  }

  // init_genrand from mt19937ar.c: state[j] = 1812433253 * (state[j-1] ^ (state[j-1] >> 30)) + j (mod 2^32).
  private init_with_uint32(seed: bigint): void {
    this.seed_ = seed;
    this.seeded_ = true;
    const s = this.state_;
    s[0] = Number(seed & 0xffffffffn);
    for (let j = 1; j < MERSENNE_STATE_N; j++) {
      const prev = s[j - 1];
      s[j] = Math.imul(1812433253, prev ^ (prev >>> 30)) + j;
    }
    this.left_ = 1;
    this.next_ = 0;
  }

  // Regenerates all 624 words at once (the "twist").
  private next_state(): void {
    const s = this.state_;
    this.left_ = MERSENNE_STATE_N;
    this.next_ = 0;
    const N = MERSENNE_STATE_N;
    const M = MERSENNE_STATE_M;
    let p = 0;
    for (; p < N - M; p++) s[p] = s[p + M] ^ twist(s[p], s[p + 1]);
    for (; p < N - 1; p++) s[p] = s[p + M - N] ^ twist(s[p], s[p + 1]);
    s[p] = s[p + M - N] ^ twist(s[p], s[0]);
  }
}

function twist(u: number, v: number): number {
  const mixBits = (u & UMASK) | (v & LMASK);
  return (mixBits >>> 1) ^ (v & 1 ? MATRIX_A : 0);
}
