// torchvision.datasets.FashionMNIST: reads the four IDX files (gzip or raw) from
// `${root}/FashionMNIST/raw/` as torchvision lays them out, or straight from `root` (Debian's
// dataset-fashion-mnist installs /usr/share/datasets/fashion-mnist/*-ubyte.gz). data is uint8
// [N, 28, 28], targets int64 [N]; __getitem__ gives [img, target] after the transforms (img a uint8
// [28, 28] tensor where torchvision gives a PIL image: compose with ToTensor the same way).
// Nothing is downloaded. SyntheticFashionMNIST is a small deterministic stand-in for tests.

import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import type { Tensor } from "../aten/core/Tensor.js";
import { empty_impl, wrap } from "../aten/core/empty.js";
import { toDevice } from "../c10/Device.js";
import { typedView } from "../c10/ElementAccess.js";
import { int64, uint8, type dtype } from "../c10/ScalarType.js";
import { RuntimeError } from "../c10/Errors.js";
import { Generator } from "../aten/Generator.js";
import { randint } from "../aten/Distributions.js";
import { select } from "../generated/torch_functions.js";
import { Dataset } from "./dataset.js";
import { applyTransform } from "./transforms.js";
import { workerSpecOf, type WorkerSpec } from "./_worker_spec.js";

type Transform = { __call__(x: unknown): unknown } | ((x: unknown) => unknown);

export interface FashionMNISTOptions {
  train?: boolean;
  transform?: Transform | null;
  target_transform?: Transform | null;
  download?: boolean;
}

const IDX_TYPES: Record<number, { dt: dtype; size: number }> = { 0x08: { dt: uint8, size: 1 } };

/** torchvision's read_sn3_pascalvincent_tensor: magic (0, 0, type, ndim), big-endian dims, data. */
export function read_idx_file(path: string): Tensor {
  let buf = readFileSync(path);
  if (path.endsWith(".gz")) buf = gunzipSync(buf);
  const magic = buf.readUInt32BE(0);
  const ty = (magic >> 8) & 0xff;
  const nd = magic & 0xff;
  if (magic >>> 16 !== 0 || !(nd >= 1 && nd <= 3) || IDX_TYPES[ty] === undefined) {
    throw new RuntimeError(`${path} is not an unsigned-byte IDX file (magic ${magic.toString(16)})`);
  }
  const shape: number[] = [];
  for (let i = 0; i < nd; i++) shape.push(buf.readUInt32BE(4 + 4 * i));
  const n = shape.reduce((a, b) => a * b, 1);
  const start = 4 + 4 * nd;
  if (buf.length - start !== n) throw new RuntimeError(`${path}: expected ${n} bytes of data, found ${buf.length - start}`);
  const t = wrap(empty_impl(shape, uint8, toDevice("cpu")));
  (typedView(t._impl.storage, uint8) as Uint8Array).set(buf.subarray(start, start + n));
  return t;
}

function findFile(dirs: string[], base: string): string | null {
  for (const d of dirs) for (const f of [base, `${base}.gz`]) if (existsSync(join(d, f))) return join(d, f);
  return null;
}

abstract class MNISTLike extends Dataset<[unknown, unknown]> {
  abstract readonly data: Tensor;
  abstract readonly targets: Tensor;
  transform: Transform | null = null;
  target_transform: Transform | null = null;

  __getitem__(index: number): [unknown, unknown] {
    let img: unknown = select(this.data, 0, index);
    let target: unknown = select(this.targets, 0, index).item();
    if (this.transform) img = applyTransform(this.transform, img);
    if (this.target_transform) target = applyTransform(this.target_transform, target);
    return [img, target];
  }

  __len__(): number {
    return this.data.size(0);
  }
}

export class FashionMNIST extends MNISTLike {
  static readonly classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"];
  readonly classes = FashionMNIST.classes;
  readonly root: string;
  readonly train: boolean;
  readonly data: Tensor;
  readonly targets: Tensor;

  constructor(root: string, options: FashionMNISTOptions = {}) {
    super();
    this.root = root;
    this.train = options.train ?? true;
    this.transform = options.transform ?? null;
    this.target_transform = options.target_transform ?? null;
    if (options.download) throw new RuntimeError("Glasstorch does not download datasets: put the IDX files under root");
    const prefix = this.train ? "train" : "t10k";
    const dirs = [join(root, "FashionMNIST", "raw"), root];
    const imgs = findFile(dirs, `${prefix}-images-idx3-ubyte`);
    const labels = findFile(dirs, `${prefix}-labels-idx1-ubyte`);
    if (imgs === null || labels === null) throw new RuntimeError("Dataset not found. You can use download=True to download it");
    this.data = read_idx_file(imgs);
    const lab = read_idx_file(labels);
    this.targets = lab.to(int64);
  }

  get class_to_idx(): Record<string, number> {
    return Object.fromEntries(this.classes.map((c, i) => [c, i]));
  }

  override __worker_spec__(): WorkerSpec {
    return {
      module: import.meta.url, name: "FashionMNIST",
      args: [this.root, this.train, this.transform ? workerSpecOf(this.transform) : null, this.target_transform ? workerSpecOf(this.target_transform) : null],
    };
  }

  static async __from_worker__(args: [string, boolean, WorkerSpec | null, WorkerSpec | null], build: (s: WorkerSpec) => Promise<unknown>): Promise<FashionMNIST> {
    const [root, train, t, tt] = args;
    return new FashionMNIST(root, {
      train, transform: t ? ((await build(t)) as Transform) : null, target_transform: tt ? ((await build(tt)) as Transform) : null,
    });
  }
}

/**
 * A FashionMNIST-shaped synthetic dataset for tests and offline examples (NOT real data): `size`
 * uint8 [28, 28] images whose class k draws a bright k-th horizontal band over uniform noise, so a
 * model can learn it. Deterministic from `seed` (its own Generator; the default one is untouched).
 */
export class SyntheticFashionMNIST extends MNISTLike {
  readonly classes = FashionMNIST.classes;
  readonly data: Tensor;
  readonly targets: Tensor;

  constructor(readonly size = 256, readonly seed = 0, options: { transform?: Transform | null; target_transform?: Transform | null } = {}) {
    super();
    this.transform = options.transform ?? null;
    this.target_transform = options.target_transform ?? null;
    const g = new Generator().manual_seed(seed);
    this.targets = randint(10, [size], { generator: g });
    const noise = randint(0, 96, [size, 28, 28], { generator: g, dtype: uint8 });
    const px = typedView(noise._impl.storage, uint8) as Uint8Array;
    const labels = this.targets.tolist() as number[];
    for (let n = 0; n < size; n++) {
      const r0 = 2 + labels[n] * 2;
      for (let r = r0; r < r0 + 3; r++) for (let c = 4; c < 24; c++) px[n * 784 + r * 28 + c] = 200 + (px[n * 784 + r * 28 + c] % 56);
    }
    this.data = noise;
  }

  override __worker_spec__(): WorkerSpec {
    return {
      module: import.meta.url, name: "SyntheticFashionMNIST",
      args: [this.size, this.seed, this.transform ? workerSpecOf(this.transform) : null, this.target_transform ? workerSpecOf(this.target_transform) : null],
    };
  }

  static async __from_worker__(args: [number, number, WorkerSpec | null, WorkerSpec | null], build: (s: WorkerSpec) => Promise<unknown>): Promise<SyntheticFashionMNIST> {
    const [size, seed, t, tt] = args;
    return new SyntheticFashionMNIST(size, seed, {
      transform: t ? ((await build(t)) as Transform) : null, target_transform: tt ? ((await build(tt)) as Transform) : null,
    });
  }
}
