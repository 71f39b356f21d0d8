// Kernels of the pad family (engine/ops/native_functions/pad.yaml), re-exported into at::native (../index.ts).

export { constant_pad_nd, _pad_circular, _pad_enum, pad } from "./PadNd.js";
export {
  reflection_pad1d_out_cpu, reflection_pad2d_cpu, reflection_pad2d_out_cpu, reflection_pad3d_out_cpu,
  replication_pad1d_out_cpu, replication_pad2d_out_cpu, replication_pad3d_out_cpu,
} from "./Padding.js";
export {
  reflection_pad1d_backward_out_cpu, reflection_pad2d_backward_cpu, reflection_pad2d_backward_out_cpu, reflection_pad3d_backward_out_cpu,
  replication_pad1d_backward_out_cpu, replication_pad2d_backward_cpu, replication_pad2d_backward_out_cpu,
  replication_pad3d_backward_cpu, replication_pad3d_backward_out_cpu,
} from "./PaddingBackward.js";
