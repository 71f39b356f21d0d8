// Kernels of the packed family (engine/ops/native_functions/packed.yaml), re-exported into at::native
// (../index.ts) under the names the yaml's `dispatch:` entries use.

export { _pack_padded_sequence, _pack_padded_sequence_backward, _pad_packed_sequence, pad_sequence } from "./PackedSequence.js";
export { transpose_ } from "./TransposeInplace.js";
