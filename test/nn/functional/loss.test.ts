// torch.nn.functional's losses against PyTorch 1.13 (fixtures/loss.json "functional", written by
// fixtures/gen_loss.py): reduction strings and the legacy size_average/reduce arguments, broadcasting
// and its warning, the Python-level size checks and their texts, kl_div's batchmean.
import { loadFixture } from "../../support/fixtures.js";
import { describeNNCases } from "../../support/nn_cases.js";

const F = loadFixture("loss.json");

describeNNCases("torch.nn.functional losses match PyTorch", F.functional);
