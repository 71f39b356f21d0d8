// libstdc++'s std::sort, std::nth_element, std::partial_sort and std::priority_queue's push/pop
// (bits/stl_algo.h, bits/stl_heap.h), step for step: PyTorch's CPU topk, mode and multinomial kernels and
// the autograd engine's ready queue use them with comparators under which equal elements are unordered, so
// the order of ties (topk's unsorted output, the order equal-priority Nodes run) is whatever these
// algorithms leave — reproduced here exactly, the heap fallbacks of introsort/introselect included.

export type Less<T> = (a: T, b: T) => boolean;

const lg = (n: number): number => 31 - Math.clz32(n);

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

function moveMedianToFirst<T>(a: T[], result: number, x: number, y: number, z: number, comp: Less<T>): void {
  if (comp(a[x], a[y])) {
    if (comp(a[y], a[z])) swap(a, result, y);
    else if (comp(a[x], a[z])) swap(a, result, z);
    else swap(a, result, x);
  } else if (comp(a[x], a[z])) swap(a, result, x);
  else if (comp(a[y], a[z])) swap(a, result, z);
  else swap(a, result, y);
}

function unguardedPartition<T>(a: T[], first: number, last: number, pivot: number, comp: Less<T>): number {
  for (;;) {
    while (comp(a[first], a[pivot])) first++;
    last--;
    while (comp(a[pivot], a[last])) last--;
    if (!(first < last)) return first;
    swap(a, first, last);
    first++;
  }
}

function unguardedPartitionPivot<T>(a: T[], first: number, last: number, comp: Less<T>): number {
  const mid = first + Math.floor((last - first) / 2);
  moveMedianToFirst(a, first, first + 1, mid, last - 1, comp);
  return unguardedPartition(a, first + 1, last, first, comp);
}

function unguardedLinearInsert<T>(a: T[], last: number, comp: Less<T>): void {
  const val = a[last];
  let next = last - 1;
  while (comp(val, a[next])) {
    a[last] = a[next];
    last = next;
    next--;
  }
  a[last] = val;
}

function insertionSort<T>(a: T[], first: number, last: number, comp: Less<T>): void {
  if (first === last) return;
  for (let i = first + 1; i < last; i++) {
    if (comp(a[i], a[first])) {
      const val = a[i];
      for (let j = i; j > first; j--) a[j] = a[j - 1];
      a[first] = val;
    } else unguardedLinearInsert(a, i, comp);
  }
}

// ---- heaps (bits/stl_heap.h) ----

function pushHeap<T>(a: T[], first: number, hole: number, top: number, value: T, comp: Less<T>): void {
  let parent = Math.trunc((hole - 1) / 2);
  while (hole > top && comp(a[first + parent], value)) {
    a[first + hole] = a[first + parent];
    hole = parent;
    parent = Math.trunc((hole - 1) / 2);
  }
  a[first + hole] = value;
}

function adjustHeap<T>(a: T[], first: number, hole: number, len: number, value: T, comp: Less<T>): void {
  const top = hole;
  let child = hole;
  while (child < Math.trunc((len - 1) / 2)) {
    child = 2 * (child + 1);
    if (comp(a[first + child], a[first + child - 1])) child--;
    a[first + hole] = a[first + child];
    hole = child;
  }
  if ((len & 1) === 0 && child === Math.trunc((len - 2) / 2)) {
    child = 2 * (child + 1);
    a[first + hole] = a[first + child - 1];
    hole = child - 1;
  }
  pushHeap(a, first, hole, top, value, comp);
}

function makeHeap<T>(a: T[], first: number, last: number, comp: Less<T>): void {
  const len = last - first;
  if (len < 2) return;
  for (let parent = Math.trunc((len - 2) / 2); ; parent--) {
    adjustHeap(a, first, parent, len, a[first + parent], comp);
    if (parent === 0) return;
  }
}

function popHeap<T>(a: T[], first: number, last: number, result: number, comp: Less<T>): void {
  const value = a[result];
  a[result] = a[first];
  adjustHeap(a, first, 0, last - first, value, comp);
}

function heapSelect<T>(a: T[], first: number, middle: number, last: number, comp: Less<T>): void {
  makeHeap(a, first, middle, comp);
  for (let i = middle; i < last; i++) if (comp(a[i], a[first])) popHeap(a, first, middle, i, comp);
}

function sortHeap<T>(a: T[], first: number, last: number, comp: Less<T>): void {
  while (last - first > 1) {
    last--;
    popHeap(a, first, last, last, comp);
  }
}

/** std::priority_queue::push: append, then std::push_heap. */
export function stdHeapPush<T>(a: T[], value: T, comp: Less<T>): void {
  a.push(value);
  pushHeap(a, 0, a.length - 1, 0, value, comp);
}

/** std::priority_queue::pop (std::pop_heap, then pop_back): the top element, removed. */
export function stdHeapPop<T>(a: T[], comp: Less<T>): T | undefined {
  if (a.length === 0) return undefined;
  const top = a[0];
  if (a.length > 1) popHeap(a, 0, a.length - 1, a.length - 1, comp);
  a.pop();
  return top;
}

/** std::partial_sort(a.begin() + first, a.begin() + middle, a.begin() + last, comp). */
export function stdPartialSort<T>(a: T[], first: number, middle: number, last: number, comp: Less<T>): void {
  heapSelect(a, first, middle, last, comp);
  sortHeap(a, first, middle, comp);
}

function introsortLoop<T>(a: T[], first: number, last: number, depth: number, comp: Less<T>): void {
  while (last - first > 16) {
    if (depth === 0) {
      stdPartialSort(a, first, last, last, comp); // heapsort
      return;
    }
    depth--;
    const cut = unguardedPartitionPivot(a, first, last, comp);
    introsortLoop(a, cut, last, depth, comp);
    last = cut;
  }
}

/** std::sort(a.begin() + first, a.begin() + last, comp). */
export function stdSort<T>(a: T[], first: number, last: number, comp: Less<T>): void {
  if (last - first < 2) return;
  introsortLoop(a, first, last, lg(last - first) * 2, comp);
  if (last - first > 16) {
    insertionSort(a, first, first + 16, comp);
    for (let i = first + 16; i < last; i++) unguardedLinearInsert(a, i, comp);
  } else insertionSort(a, first, last, comp);
}

/** std::nth_element(a.begin() + first, a.begin() + nth, a.begin() + last, comp). */
export function stdNthElement<T>(a: T[], first: number, nth: number, last: number, comp: Less<T>): void {
  if (first === last || nth === last) return;
  let depth = lg(last - first) * 2;
  while (last - first > 3) {
    if (depth === 0) {
      heapSelect(a, first, nth + 1, last, comp);
      swap(a, first, nth);
      return;
    }
    depth--;
    const cut = unguardedPartitionPivot(a, first, last, comp);
    if (cut <= nth) first = cut;
    else last = cut;
  }
  insertionSort(a, first, last, comp);
}
