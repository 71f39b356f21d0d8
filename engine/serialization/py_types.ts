// How Python's pickled values look in JavaScript, both ways (torch.load returns them, torch.save takes them):
//   dict / OrderedDict -> a plain object when every key is a str and a plain object keeps their order, else a
//   Map (int keys, as in an optimizer's state_dict()["state"]; or str keys like "", "0", "1" that JavaScript
//   would reorder, integer-like keys first); objects that came from an OrderedDict carry a hidden mark so they save as one again.
//   list and tuple -> arrays; tuples carry a hidden mark (tuple() makes one) so they save as tuples again.
//   set -> Set, bytes -> Uint8Array, None -> null, int -> number (bigint beyond 2**53), float -> number.

/** Marks plain objects and Maps that stand for collections.OrderedDict. */
const orderedDicts = new WeakSet<object>();
/** Marks arrays that stand for Python tuples. */
const tuples = new WeakSet<readonly unknown[]>();

/** Makes `obj` save as collections.OrderedDict (state_dict()s are OrderedDicts in PyTorch). Returns obj. */
export function OrderedDict<T extends object>(obj: T): T {
  orderedDicts.add(obj);
  return obj;
}

export function isOrderedDict(obj: object): boolean {
  return orderedDicts.has(obj);
}

/** A Python tuple: an array that torch.save writes as a tuple rather than a list. */
export function tuple<T>(...items: T[]): T[] {
  tuples.add(items);
  return items;
}

export function markTuple<T extends readonly unknown[]>(items: T): T {
  tuples.add(items);
  return items;
}

export function isTuple(obj: readonly unknown[]): boolean {
  return tuples.has(obj);
}

/** Sets a key on a plain object as data, never through a setter ("__proto__" stays an ordinary key). */
export function defineKey(obj: object, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The `_metadata` PyTorch's Module.state_dict() attaches to its OrderedDict (per-module versions, read by
 * load_state_dict). Kept as a non-enumerable property so iterating a state dict gives only the tensors.
 */
export function setMetadata(obj: object, metadata: unknown): void {
  Object.defineProperty(obj, "_metadata", { value: metadata, enumerable: false, writable: true, configurable: true });
}
