// The iteration order of libstdc++'s std::unordered_set (bits/hashtable.h, hashtable_policy.h,
// hashtable-aux.cc, hash_bytes.cc), which PyTorch 1.13's CPU unique fills one element at a time:
// torch.unique(sorted=False) returns the set in this order, and sorted=True std::sorts it (which places
// NaNs by the same order). Modelled: std::hash (identity for integers and bool, the bits for bfloat16,
// murmur-style _Hash_bytes for float and double with 0.0 and -0.0 hashed to 0), the prime rehash policy
// (max load factor 1, growth factor 2, 11 buckets at the first insertion), insertion at the front of a
// bucket (or of the whole list for an empty bucket), and rehashing that walks the list in order.
// Equality is ==, so every NaN is its own element.

import { ScalarType } from "../../../c10/ScalarType.js";
import { toRaw } from "../../../c10/ElementAccess.js";
import { isNaNValue, type Value } from "./common.js";

const M64 = (1n << 64n) - 1n;
const MUL = (0xc6a4a793n << 32n) + 0x5bd1e995n;
const mul64 = (a: bigint, b: bigint): bigint => (a * b) & M64;
const shiftMix = (v: bigint): bigint => v ^ (v >> 47n);

/** std::_Hash_bytes(ptr, len, seed) for len 4 or 8 bytes given as a little-endian integer. */
function hashBytes(bytes: bigint, len: number, seed = 0xc70f6907n): bigint {
  let hash = seed ^ mul64(BigInt(len), MUL);
  if (len === 8) {
    hash ^= mul64(shiftMix(mul64(bytes, MUL)), MUL);
    hash = mul64(hash, MUL);
  } else {
    hash ^= bytes;
    hash = mul64(hash, MUL);
  }
  hash = mul64(shiftMix(hash), MUL);
  return shiftMix(hash);
}

const f32 = new Float32Array(1), f64 = new Float64Array(1);
const u32 = new Uint32Array(f32.buffer), u64 = new BigUint64Array(f64.buffer);

/** std::hash<scalar_t>()(v) as size_t. */
export function stdHash(v: Value, st: ScalarType): bigint {
  switch (st) {
    case ScalarType.Float:
      if (v === 0) return 0n;
      f32[0] = v as number;
      return hashBytes(BigInt(u32[0]), 4);
    case ScalarType.Double:
      if (v === 0) return 0n;
      f64[0] = v as number;
      return hashBytes(u64[0], 8);
    case ScalarType.BFloat16:
    case ScalarType.Half:
      return BigInt(toRaw(st, v as number)); // c10: std::hash<uint16_t> of the bits
    default:
      return BigInt.asUintN(64, typeof v === "bigint" ? v : BigInt(v)); // integers, bool: the value
  }
}

// hashtable-aux.cc __prime_list (the part a CPU tensor can need) and _Prime_rehash_policy's small table
const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127,
  137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409, 439, 467, 503, 541, 577, 619,
  661, 709, 761, 823, 887, 953, 1031, 1109, 1193, 1289, 1381, 1493, 1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209,
  3469, 3739, 4027, 4349, 4703, 5087, 5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011, 12983, 14033, 15173,
  16411, 17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873, 42043, 45481, 49201, 53201, 57557, 62233,
  67307, 72817, 78779, 85229, 92203, 99733, 107897, 116731, 126271, 136607, 147793, 159871, 172933, 187091, 202409, 218971,
  236897, 256279, 277261, 299951, 324503, 351061, 379787, 410857, 444487, 480881, 520241, 562841, 608903, 658753, 712697, 771049,
  834181, 902483, 976369, 1056323, 1142821, 1236397, 1337629, 1447153, 1565659, 1693859, 1832561, 1982627, 2144977, 2320627,
  2510653, 2716249, 2938679, 3179303, 3439651, 3721303];
const FAST_BKT = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];

/** _Prime_rehash_policy (max load factor 1). */
class RehashPolicy {
  nextResize = 0;

  nextBkt(n: number): number {
    if (n < FAST_BKT.length) {
      if (n === 0) return 1;
      this.nextResize = FAST_BKT[n];
      return FAST_BKT[n];
    }
    const p = PRIMES.slice(6).find((q) => q >= n) ?? n;
    this.nextResize = p;
    return p;
  }

  /** _M_need_rehash(n_bkt, n_elt, n_ins): the new bucket count, or 0. */
  needRehash(nBkt: number, nElt: number, nIns: number): number {
    if (nElt + nIns <= this.nextResize) return 0;
    const minBkts = Math.max(nElt + nIns, this.nextResize ? 0 : 11);
    if (minBkts >= nBkt) return this.nextBkt(Math.max(Math.floor(minBkts) + 1, nBkt * 2));
    this.nextResize = nBkt;
    return 0;
  }
}

type Node = { v: Value; h: bigint; next: Node | null };

/** The elements of `values` in the iteration order of std::unordered_set built by inserting them in turn. */
export function unorderedSetOrder(values: readonly Value[], st: ScalarType): Value[] {
  const policy = new RehashPolicy();
  const beforeBegin: Node = { v: 0, h: 0n, next: null };
  let nBkt = 1;
  // buckets[b]: the node before bucket b's first node (_M_buckets holds the same)
  let buckets: (Node | null)[] = [null];
  const bucketOf = (h: bigint) => Number(h % BigInt(nBkt));
  /** _M_insert_bucket_begin: into a non-empty bucket after its before-node, else at the front of the list. */
  const insertBucketBegin = (b: number, node: Node) => {
    const before = buckets[b];
    if (before) {
      node.next = before.next;
      before.next = node;
    } else {
      node.next = beforeBegin.next;
      beforeBegin.next = node;
      if (node.next) buckets[bucketOf(node.next.h)] = node;
      buckets[b] = beforeBegin;
    }
  };
  const seen = new Set<string>();
  let size = 0; // the set's element count (every NaN is one: the keys of two NaNs are one string in `seen`)
  for (const v of values) {
    const h = stdHash(v, st);
    const key = `${h}:${v === 0 ? 0 : v}`; // found when the hash and the value (==) match; NaN never does
    if (!isNaNValue(v) && seen.has(key)) continue;
    seen.add(key);
    const grow = policy.needRehash(nBkt, size++, 1);
    if (grow) {
      // _M_rehash_aux: walk the list, each node to the front of its new bucket (or of the list)
      let p = beforeBegin.next;
      beforeBegin.next = null;
      nBkt = grow;
      buckets = new Array<Node | null>(nBkt).fill(null);
      let bbeginBkt = 0;
      while (p) {
        const next = p.next;
        const b = bucketOf(p.h);
        if (!buckets[b]) {
          p.next = beforeBegin.next;
          beforeBegin.next = p;
          buckets[b] = beforeBegin;
          if (p.next) buckets[bbeginBkt] = p;
          bbeginBkt = b;
        } else {
          p.next = buckets[b]!.next;
          buckets[b]!.next = p;
        }
        p = next;
      }
    }
    insertBucketBegin(bucketOf(h), { v, h, next: null });
  }
  const out: Value[] = [];
  for (let p = beforeBegin.next; p; p = p.next) out.push(p.v);
  return out;
}
