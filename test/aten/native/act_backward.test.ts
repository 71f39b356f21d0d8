// The activation and loss family's backward operators (threshold_backward, leaky_relu_backward,
// hardtanh_backward, hardsigmoid_backward, nll_loss_backward, nll_loss2d_backward) called directly, against
// PyTorch 1.13 (fixtures/act_backward.json, written by fixtures/gen_act_backward.py): values, sizes, strides,
// dtype, out= (grad_input), broadcasting and transposed operands, error texts, and the meta results.
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";

const F = loadFixture("act_backward.json");
// hardtanh_backward.grad_input on meta: PyTorch 1.13 has no Meta kernel for it and its Python decomposition
// takes no grad_input keyword (a TypeError); here the out= call on meta resizes grad_input like the CPU one.
const skipMeta = new Set(F.cases.map((c: any) => c.name).filter((n: string) => n.startsWith("hardtanh_backward") && n.endsWith("out=")));

describeOpCases("activation and loss backward ops match PyTorch (values, out=, errors, meta)", F, { skipMeta });
