// Type-checked by test/aten/indexing.test.ts against the published declarations (dist/engine/*.d.ts):
// the indexing API as a TypeScript user writes it. Not run.
import * as torch from "../../../dist/engine/index.js";

const x = torch.zeros(3, 4);
const mask = torch.tensor([true, false, true]);
export const rows: torch.Tensor = x.get(0, "1:3");
export const mixed: torch.Tensor = x.get(null, "...", [0, 1], torch.tensor([1]), true, torch.indexing.Slice(1, null, 2), torch.indexing.Ellipsis);
export const dunder: torch.Tensor = x.__getitem__(mask);
x.set(0, "1:3", 5);
x.set(mask, torch.ones(4));
x.__setitem__(1, 2, true);
export const coords: torch.Tensor[] = torch.nonzero(x, { as_tuple: true });
export const rows2: torch.Tensor = x.nonzero();
export const emb: torch.Tensor = torch.nn.functional.embedding(torch.tensor([1]), x, { padding_idx: 0, max_norm: 1 });
export const oh: torch.Tensor = torch.nn.functional.one_hot(torch.tensor([1, 2]), 3);
