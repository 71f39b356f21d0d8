// Type-checked by test/aten/indexing.test.ts: each line must be a type error.
import * as torch from "../../../dist/engine/index.js";

const x = torch.zeros(3, 4);
x.get({ start: 1 });
x.set(0, "a string value");
export const tuple: torch.Tensor[] = torch.nonzero(x);
