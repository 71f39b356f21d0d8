// torch.copy: Python's `copy` module as far as models need it (copy.deepcopy; see copy.ts).
export { deepcopy, type Memo } from "./copy.js";
