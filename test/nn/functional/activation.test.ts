// torch.nn.functional's activations, softmax family and dropout functions against PyTorch 1.13
// (fixtures/activation.json "functional", written by fixtures/gen_activation.py): results, in-place
// behaviour, implicit softmax dims and their warnings, dropout masks under torch.manual_seed, errors.
import { loadFixture } from "../../support/fixtures.js";
import { describeNNCases } from "../../support/nn_cases.js";

const F = loadFixture("activation.json");

describeNNCases("torch.nn.functional activations match PyTorch", F.functional);
