// The activation family (relu ... threshold, softmax/log_softmax, dropout forms) against PyTorch 1.13
// (fixtures/activation.json, written by fixtures/gen_activation.py): sizes, strides, dtypes, values,
// in-place and out= results, meta results, error texts, and dropout masks under torch.manual_seed.
// Tolerances: each case's `ulps` (0 = exact); see gen_activation.py for why some ops have one.
import { loadFixture } from "../../support/fixtures.js";
import { describeNNCases } from "../../support/nn_cases.js";

const F = loadFixture("activation.json");

/**
 * Known differences on meta only. PyTorch 1.13 runs these ops on meta tensors through Python meta
 * registrations (torch/_refs, torch/_decomp) rather than the C++ kernels: their hardtanh/hardswish
 * decompositions take no out=, relu's accepts bool, and hardtanh checks uint8 bounds before
 * truncating them (-2.7 fails there, passes in C++). Glasstorch's meta kernels are its CPU kernels
 * without the data loop, so they behave as the CPU results recorded here.
 */
const KNOWN_META = new Set(["hardtanh_out", "hardtanh_bounds_out", "hardswish_out", "err_relu_bool", "hardtanh_int_bounds", "err_hardtanh_uint8_negative"]);

describeNNCases("activation ops match PyTorch", F.cases, { skipMeta: KNOWN_META });
