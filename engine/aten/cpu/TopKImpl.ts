// topk over one row, exactly as PyTorch's CPU kernel orders it — ties included.
// Mirrors aten/src/ATen/native/TopKImpl.h (topk_impl_loop, PyTorch 1.13): a queue of
// (value, index) pairs is reordered with std::partial_sort when k * 64 <= n, otherwise with
// std::nth_element followed by std::sort of the first k - 1 entries. Equal values come out in
// whatever order those algorithms leave them: c10/util/StdAlgorithms.ts performs them step by step
// as GNU libstdc++ does.

import { stdNthElement, stdPartialSort, stdSort } from "../../c10/util/StdAlgorithms.js";

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
    stdPartialSort(queue, 0, k, n, comp);
  } else {
    stdNthElement(queue, 0, k - 1, n, comp);
    if (sorted) stdSort(queue, 0, k - 1, comp);
  }
  return queue.slice(0, k);
}
