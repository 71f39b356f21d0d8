// torch.indexing: the index objects of the C++ API (at::indexing::Slice / None / Ellipsis), for the
// places where a slice string is not wanted: t.get(Slice(1, null, 2), None, Ellipsis).

export { Slice, Ellipsis, EllipsisIndexType } from "./TensorIndexing.js";
export type { IndexItem, SetValue } from "./python_variable_indexing.js";

/** at::indexing::None: a new size-1 dim (Python's None); plain `null` works the same. */
export const None = null;
