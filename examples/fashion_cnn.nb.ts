// %% [markdown]
// # A small CNN on Fashion-MNIST
//
// Two convolution blocks (Conv2d → BatchNorm2d → ReLU → MaxPool2d) and a linear classifier, trained with
// Adam for one epoch on a 4,000-image subset of Fashion-MNIST, then scored on 1,000 test images.
// **Expected: ≥ 78 % test accuracy** (see examples/README.md for the measured figure and run time; the
// convolutions run on the TypeScript kernels, so this is the slowest of the three examples — a few minutes).
//
// The data comes from `/usr/share/datasets/fashion-mnist` (Debian's `dataset-fashion-mnist`), or, without
// it, from `SyntheticFashionMNIST` (generated stand-in images, NOT the real data).
// `GLASSTORCH_EXAMPLE_STEPS=n` stops training after n steps (the tests use it).

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

const transform = new transforms.Compose([new transforms.ToTensor(), new transforms.Normalize([0.286], [0.353])]);
const real = existsSync(ROOT);
const train_full = real ? new datasets.FashionMNIST(ROOT, { train: true, transform }) : new datasets.SyntheticFashionMNIST(4000, 0, { transform });
const test_full = real ? new datasets.FashionMNIST(ROOT, { train: false, transform }) : new datasets.SyntheticFashionMNIST(1000, 1, { transform });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const train_set = new Subset(train_full, range(4000));
const test_set = new Subset(test_full, range(QUICK ? 128 : 1000));
console.log(real ? "Fashion-MNIST from " + ROOT : "SyntheticFashionMNIST (no dataset files found)", train_set.__len__(), test_set.__len__());

// %% [markdown]
// A subclass of `nn.Module`: assigning layers in the constructor registers them, as `__setattr__` does in
// Python, and calling the module runs `forward` (with hooks). The convolutions have no bias: the
// BatchNorm after them would cancel it.

// %%
class SmallCNN extends nn.Module {
  constructor() {
    super();
    this.features = new nn.Sequential(
      new nn.Conv2d(1, 8, 3, { padding: 1, bias: false }), new nn.BatchNorm2d(8), new nn.ReLU(), new nn.MaxPool2d(2),
      new nn.Conv2d(8, 16, 3, { padding: 1, bias: false }), new nn.BatchNorm2d(16), new nn.ReLU(), new nn.MaxPool2d(2),
    );
    this.classifier = new nn.Linear(16 * 7 * 7, 10);
  }
  forward(x: any) {
    return this.classifier(torch.flatten(this.features(x), 1));
  }
}
const model: any = new SmallCNN();
const optimizer = new torch.optim.Adam(model.parameters(), { lr: 2e-3 });
const loss_fn = new nn.CrossEntropyLoss();
const train_loader = new DataLoader(train_set, { batch_size: 32, shuffle: true });
model

// %% training: one epoch (or GLASSTORCH_EXAMPLE_STEPS steps)
const losses: number[] = [];
const t0 = Date.now();
model.train();
for (const [x, y] of torch.utils.tqdm(train_loader, { desc: "epoch 1", total: train_loader.__len__(), disable: QUICK })) {
  const loss = loss_fn(model(x), y);
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
  losses.push(loss.item());
  if (losses.length >= MAX_STEPS) break;
}
console.log(`${losses.length} steps in ${((Date.now() - t0) / 1000).toFixed(1)} s; mean loss of the last 20: ${(losses.slice(-20).reduce((a, b) => a + b, 0) / Math.min(20, losses.length)).toFixed(4)}`);
torch.tensor(losses)

// %% test accuracy (eval mode: BatchNorm uses its running statistics)
model.eval();
let correct = 0;
torch.no_grad(() => {
  for (const [x, y] of new DataLoader(test_set, { batch_size: 200 })) correct += model(x).argmax(1).eq(y).sum().item();
});
const test_accuracy = correct / test_set.__len__();
console.log(`test accuracy: ${(100 * test_accuracy).toFixed(1)} % on ${test_set.__len__()} images`);
test_accuracy
