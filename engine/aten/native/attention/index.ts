// Scaled dot-product attention (attention.yaml), and mul.Scalar, which its math composite calls.
export { _scaled_dot_product_attention, _scaled_dot_product_attention_math, _scaled_dot_product_attention_forward_math } from "./Attention.js";
export { mul_Scalar } from "./MulScalar.js";
