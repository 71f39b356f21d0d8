// %% [markdown]
// # Hello, Glasstorch
//
// A scratch notebook: this file is plain TypeScript, and each `// %%` line starts a cell.
// Run a cell with Shift+Enter, or everything with **Run All**. Cells share one session, so
// what one cell declares the next can use.

// %%
import * as torch from "glasstorch";

torch.manual_seed(0);
const x = torch.randn(2, 3);
x

// %% [markdown]
// A 2-D tensor prints as PyTorch prints it, and is drawn as a heat map below (hover for values).
// Larger tensors get a histogram.

// %%
const big = torch.randn(10000);
big

// %% autograd
const w = torch.tensor([[1, -2], [0.5, 3]], { dtype: torch.float32, requires_grad: true });
const loss = w.mul(w).sum();
loss.backward();
console.log(String(loss));
w.grad

// %% a loop that reports progress
let total = 0;
for (const i of torch.utils.progress(50, { desc: "steps" })) {
  total += torch.ones(64, 64).sum().item() + i;
  // A pause, so the bar has time to be seen moving.
  await new Promise((resolve) => setTimeout(resolve, 20));
}
total
