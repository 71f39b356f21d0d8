// %% [markdown]
// # An MLP on Fashion-MNIST
//
// A two-layer perceptron (784 → 128 → 10) trained with SGD + momentum on a 10,000-image subset of
// Fashion-MNIST for two epochs, then scored on 2,000 test images. **Expected: ≥ 80 % test accuracy**
// (about 82 %, in roughly a minute on the TypeScript kernels).
//
// The data is read by `torch.torchvision.datasets.FashionMNIST` from the IDX files Debian's
// `dataset-fashion-mnist` package installs in `/usr/share/datasets/fashion-mnist`. Without them the
// notebook falls back to `SyntheticFashionMNIST` — generated stand-in images (NOT the real data), where
// the same model reaches ~100 %.
//
// `GLASSTORCH_EXAMPLE_STEPS=n` (an environment variable) stops training after n steps; the tests use it.

// %%
import * as torch from "glasstorch";
import { existsSync } from "node:fs";

const nn = torch.nn;
const { DataLoader, Subset } = torch.utils.data;
const { datasets, transforms } = torch.torchvision;

const MAX_STEPS = Number(process.env.GLASSTORCH_EXAMPLE_STEPS ?? Infinity);
const QUICK = Number.isFinite(MAX_STEPS);
const ROOT = "/usr/share/datasets/fashion-mnist";
torch.manual_seed(0);

// ToTensor scales the uint8 pixels to [0, 1]; Normalize uses Fashion-MNIST's mean and std.
const transform = new transforms.Compose([new transforms.ToTensor(), new transforms.Normalize([0.286], [0.353])]);
const real = existsSync(ROOT);
const train_full = real ? new datasets.FashionMNIST(ROOT, { train: true, transform }) : new datasets.SyntheticFashionMNIST(10000, 0, { transform });
const test_full = real ? new datasets.FashionMNIST(ROOT, { train: false, transform }) : new datasets.SyntheticFashionMNIST(2000, 1, { transform });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const train_set = new Subset(train_full, range(10000));
const test_set = new Subset(test_full, range(QUICK ? 256 : 2000));
console.log(real ? "Fashion-MNIST from " + ROOT : "SyntheticFashionMNIST (no dataset files found)", train_set.__len__(), test_set.__len__());

// %% [markdown]
// The model and the optimizer, as in PyTorch: `nn.Sequential`, `torch.optim.SGD`, `nn.CrossEntropyLoss`.

// %%
const model = new nn.Sequential(new nn.Flatten(), new nn.Linear(784, 128), new nn.ReLU(), new nn.Linear(128, 10));
const optimizer = new torch.optim.SGD(model.parameters(), { lr: 0.05, momentum: 0.9 });
const loss_fn = new nn.CrossEntropyLoss();
const train_loader = new DataLoader(train_set, { batch_size: 64, shuffle: true });
model

// %% training: two epochs (or GLASSTORCH_EXAMPLE_STEPS steps)
const losses: number[] = [];
const t0 = Date.now();
model.train();
train: for (let epoch = 0; epoch < 2; epoch++) {
  for (const [x, y] of torch.utils.tqdm(train_loader, { desc: `epoch ${epoch + 1}`, total: train_loader.__len__(), disable: QUICK })) {
    const loss = loss_fn(model(x), y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    losses.push(loss.item());
    if (losses.length >= MAX_STEPS) break train;
  }
  const last = losses.slice(-50);
  console.log(`epoch ${epoch + 1}: mean loss of the last ${last.length} steps ${(last.reduce((a, b) => a + b, 0) / last.length).toFixed(4)}`);
}
console.log(`${losses.length} steps in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
torch.tensor(losses)

// %% test accuracy
function accuracy(net: any, dataset: any): number {
  net.eval();
  let correct = 0;
  let seen = 0;
  torch.no_grad(() => {
    for (const [x, y] of new DataLoader(dataset, { batch_size: 256 })) {
      correct += net(x).argmax(1).eq(y).sum().item();
      seen += y.numel();
    }
  });
  return correct / seen;
}
const test_accuracy = accuracy(model, test_set);
console.log(`test accuracy: ${(100 * test_accuracy).toFixed(1)} % on ${test_set.__len__()} images`);
test_accuracy
