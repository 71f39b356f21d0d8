// topk over one row, exactly as PyTorch's CPU kernel orders it — ties included.
// Mirrors aten/src/ATen/native/TopKImpl.h (topk_impl_loop, PyTorch 1.13): a queue of
// (value, index) pairs is reordered with std::partial_sort when k * 64 <= n, otherwise with
// std::nth_element followed by std::sort of the first k - 1 entries. Equal values come out in
// whatever order those algorithms leave them, so they are reimplemented below step by step
// as GNU libstdc++ (bits/stl_algo.h, bits/stl_heap.h) performs them.

export interface Elem {
  value: number;
  index: number;
}

type Comp = (a: Elem, b: Elem) => boolean;

/** NaN counts as the largest value (numpy's convention), then plain `>`. */
const greater: Comp = (x, y) => (Number.isNaN(x.value) && !Number.isNaN(y.value)) || x.value > y.value;
const less: Comp = (x, y) => (!Number.isNaN(x.value) && Number.isNaN(y.value)) || x.value < y.value;

/**
 * topk of one row: the k (value, index) pairs PyTorch returns, in its order. `sorted` only
 * matters on the nth_element path (partial_sort always sorts).
 */
export function topk_row(values: ArrayLike<number>, k: number, largest = true, sorted = true): Elem[] {
  const n = values.length;
  const queue: Elem[] = new Array(n);
  for (let j = 0; j < n; j++) queue[j] = { value: values[j], index: j };
  const comp = largest ? greater : less;
  if (k * 64 <= n) {
    partial_sort(queue, 0, k, n, comp);
  } else {
    nth_element(queue, 0, k - 1, n, comp);
    if (sorted) sort(queue, 0, k - 1, comp);
  }
  return queue.slice(0, k);
}

// ---------------------------------------------------------------------------------------------
// libstdc++'s algorithms on a[first, last), with comp as the "less than" of the ordering.

function swap(a: Elem[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** floor(log2(n)) for n > 0 (std::__lg). */
function lg(n: number): number {
  return 31 - Math.clz32(n);
}

// stl_heap.h: a max-heap with respect to comp, sifted through a "hole".

function push_heap(a: Elem[], first: number, holeIndex: number, topIndex: number, value: Elem, comp: Comp): void {
  let parent = Math.trunc((holeIndex - 1) / 2);
  while (holeIndex > topIndex && comp(a[first + parent], value)) {
    a[first + holeIndex] = a[first + parent];
    holeIndex = parent;
    parent = Math.trunc((holeIndex - 1) / 2);
  }
  a[first + holeIndex] = value;
}

function adjust_heap(a: Elem[], first: number, holeIndex: number, len: number, value: Elem, comp: Comp): void {
  const topIndex = holeIndex;
  let secondChild = holeIndex;
  while (secondChild < Math.trunc((len - 1) / 2)) {
    secondChild = 2 * (secondChild + 1);
    if (comp(a[first + secondChild], a[first + secondChild - 1])) secondChild--;
    a[first + holeIndex] = a[first + secondChild];
    holeIndex = secondChild;
  }
  if ((len & 1) === 0 && secondChild === Math.trunc((len - 2) / 2)) {
    secondChild = 2 * (secondChild + 1);
    a[first + holeIndex] = a[first + secondChild - 1];
    holeIndex = secondChild - 1;
  }
  push_heap(a, first, holeIndex, topIndex, value, comp);
}

function make_heap(a: Elem[], first: number, last: number, comp: Comp): void {
  const len = last - first;
  if (len < 2) return;
  let parent = Math.trunc((len - 2) / 2);
  for (;;) {
    adjust_heap(a, first, parent, len, a[first + parent], comp);
    if (parent === 0) return;
    parent--;
  }
}

/** Moves the heap's top to `result` and re-heaps a[first, last) with a[result]'s old value. */
function pop_heap(a: Elem[], first: number, last: number, result: number, comp: Comp): void {
  const value = a[result];
  a[result] = a[first];
  adjust_heap(a, first, 0, last - first, value, comp);
}

function heap_select(a: Elem[], first: number, middle: number, last: number, comp: Comp): void {
  make_heap(a, first, middle, comp);
  for (let i = middle; i < last; i++) if (comp(a[i], a[first])) pop_heap(a, first, middle, i, comp);
}

function sort_heap(a: Elem[], first: number, last: number, comp: Comp): void {
  while (last - first > 1) {
    --last;
    pop_heap(a, first, last, last, comp);
  }
}

export function partial_sort(a: Elem[], first: number, middle: number, last: number, comp: Comp): void {
  heap_select(a, first, middle, last, comp);
  sort_heap(a, first, middle, comp);
}

// stl_algo.h: quicksort partitioning with a median-of-three pivot moved to `first`.

function move_median_to_first(a: Elem[], result: number, x: number, y: number, z: number, comp: Comp): void {
  if (comp(a[x], a[y])) {
    if (comp(a[y], a[z])) swap(a, result, y);
    else if (comp(a[x], a[z])) swap(a, result, z);
    else swap(a, result, x);
  } else if (comp(a[x], a[z])) swap(a, result, x);
  else if (comp(a[y], a[z])) swap(a, result, z);
  else swap(a, result, y);
}

function unguarded_partition(a: Elem[], first: number, last: number, pivot: number, comp: Comp): number {
  for (;;) {
    while (comp(a[first], a[pivot])) ++first;
    --last;
    while (comp(a[pivot], a[last])) --last;
    if (!(first < last)) return first;
    swap(a, first, last);
    ++first;
  }
}

function unguarded_partition_pivot(a: Elem[], first: number, last: number, comp: Comp): number {
  const mid = first + Math.trunc((last - first) / 2);
  move_median_to_first(a, first, first + 1, mid, last - 1, comp);
  return unguarded_partition(a, first + 1, last, first, comp);
}

function unguarded_linear_insert(a: Elem[], last: number, comp: Comp): void {
  const val = a[last];
  let next = last - 1;
  while (comp(val, a[next])) {
    a[last] = a[next];
    last = next;
    --next;
  }
  a[last] = val;
}

function insertion_sort(a: Elem[], first: number, last: number, comp: Comp): void {
  if (first === last) return;
  for (let i = first + 1; i < last; i++) {
    if (comp(a[i], a[first])) {
      const val = a[i];
      for (let k = i; k > first; k--) a[k] = a[k - 1];
      a[first] = val;
    } else {
      unguarded_linear_insert(a, i, comp);
    }
  }
}

const S_THRESHOLD = 16;

function final_insertion_sort(a: Elem[], first: number, last: number, comp: Comp): void {
  if (last - first > S_THRESHOLD) {
    insertion_sort(a, first, first + S_THRESHOLD, comp);
    for (let i = first + S_THRESHOLD; i < last; i++) unguarded_linear_insert(a, i, comp);
  } else {
    insertion_sort(a, first, last, comp);
  }
}

function introsort_loop(a: Elem[], first: number, last: number, depth_limit: number, comp: Comp): void {
  while (last - first > S_THRESHOLD) {
    if (depth_limit === 0) {
      partial_sort(a, first, last, last, comp); // heapsort
      return;
    }
    --depth_limit;
    const cut = unguarded_partition_pivot(a, first, last, comp);
    introsort_loop(a, cut, last, depth_limit, comp);
    last = cut;
  }
}

/** std::sort (introsort, then one insertion sort pass). */
export function sort(a: Elem[], first: number, last: number, comp: Comp): void {
  if (first === last) return;
  introsort_loop(a, first, last, lg(last - first) * 2, comp);
  final_insertion_sort(a, first, last, comp);
}

/** std::nth_element (introselect). */
export function nth_element(a: Elem[], first: number, nth: number, last: number, comp: Comp): void {
  if (first === last || nth === last) return;
  let depth_limit = lg(last - first) * 2;
  while (last - first > 3) {
    if (depth_limit === 0) {
      heap_select(a, first, nth + 1, last, comp);
      swap(a, first, nth); // the nth element into its final place
      return;
    }
    --depth_limit;
    const cut = unguarded_partition_pivot(a, first, last, comp);
    if (cut <= nth) first = cut;
    else last = cut;
  }
  insertion_sort(a, first, last, comp);
}
