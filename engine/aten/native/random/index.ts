// The random family's kernels (random.yaml).
export { bernoulli, bernoulli_p, bernoulli_out, bernoulli__Tensor, bernoulli__float } from "./Bernoulli.js";
