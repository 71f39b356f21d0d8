// The layer ops' backward operators (convolution_backward and _slow_conv2d_backward, native_batch_norm_backward,
// native_layer_norm_backward, native_group_norm_backward, embedding_backward / embedding_dense_backward,
// upsample_nearest1d/2d_backward and upsample_bilinear2d_backward with their .vec and grad_input= overloads,
// reflection_pad1d/2d/3d_backward and replication_pad1d/2d/3d_backward) called directly, against PyTorch 1.13
// (fixtures/layers_backward.json, written by fixtures/gen_layers_backward.py): values, sizes, strides, dtype,
// undefined outputs (output_mask), non-contiguous operands, error texts, and the meta results.
// Tolerances: convolutions and norms sum many products (PyTorch: float32 gemm / vectorized lanes; here double,
// rounded once), bilinear weights multiply in a different contraction: relative 2e-5 for float32, 1e-12 for
// float64, one bfloat16 ulp for bfloat16. Nearest upsampling, padding and embedding add in PyTorch's order: exact.
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";

const F = loadFixture("layers_backward.json");
const summed = /^(conv|_slow_conv2d|batch_norm|layer_norm|group_norm|upsample_bilinear2d|embedding_backward|embedding_dense_backward scale)/;

describeOpCases("layer backward ops match PyTorch (values, output_mask, out=, errors, meta)", F, {
  tolerance: (name, dtype) => (dtype === "bfloat16" ? 1 / 128 : summed.test(name) ? (dtype === "float32" ? 2e-5 : 1e-12) : 0),
  // PyTorch 1.13 runs these on meta through Python decompositions that check no dtype (int64 passes), no
  // normalized_shape, no mean dtype, no indices dtype, keep a transposed input's strides (CPU: contiguous), and
  // fail on zero rows ("Boolean value of Tensor with more than one value is ambiguous"): there Glasstorch's
  // meta result is held to the CPU result
  metaLikeCpu: new Set(["layer_norm_backward empty rows", "batch_norm_backward train", "batch_norm_backward input only, transposed", "layer_norm_backward",
    "err layer_norm_backward shape", "group_norm_backward", "err group_norm_backward mean dtype"]),
  // on meta the indices' legacy type name is MetaFloatType (checkScalarTypes), PyTorch's decomposition checks nothing
  skipMeta: new Set(["err embedding_dense_backward float indices"]),
});
