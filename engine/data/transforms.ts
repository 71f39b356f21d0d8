// The few torchvision.transforms the FashionMNIST examples need: ToTensor (uint8 HxW or HxWxC ->
// float32 CxHxW scaled to [0, 1]), Normalize ((x - mean) / std per channel) and Compose.
// Each can describe itself to a DataLoader worker (__worker_spec__).

import type { Tensor } from "../aten/core/Tensor.js";
import { tensor } from "../aten/tensor_new.js";
import { float32, uint8 } from "../c10/ScalarType.js";
import { TypeError_ } from "../c10/Errors.js";
import type { WorkerSpec } from "./_worker_spec.js";
import { workerSpecOf } from "./_worker_spec.js";

export class ToTensor {
  __call__(pic: Tensor): Tensor {
    if (pic.dim() !== 2 && pic.dim() !== 3) throw new TypeError_(`pic should be 2/3 dimensional. Got ${pic.dim()} dimensions.`);
    let img = pic.dim() === 2 ? pic.unsqueeze(0) : pic.permute([2, 0, 1]).contiguous();
    if (pic.dtype === uint8) img = img.to(float32).div(255);
    return img;
  }

  toString(): string {
    return "ToTensor()";
  }

  __worker_spec__(): WorkerSpec {
    return { module: import.meta.url, name: "ToTensor", args: [] };
  }
}

export class Normalize {
  constructor(readonly mean: number[], readonly std: number[], readonly inplace = false) {}

  __call__(t: Tensor): Tensor {
    const shape = [-1, 1, 1];
    const mean = tensor(this.mean, { dtype: t.dtype }).view(shape);
    const std = tensor(this.std, { dtype: t.dtype }).view(shape);
    if (this.inplace) return t.sub_(mean).div_(std);
    return t.sub(mean).div(std);
  }

  toString(): string {
    return `Normalize(mean=[${this.mean.join(", ")}], std=[${this.std.join(", ")}])`;
  }

  __worker_spec__(): WorkerSpec {
    return { module: import.meta.url, name: "Normalize", args: [this.mean, this.std, this.inplace] };
  }
}

type Transform = { __call__(x: unknown): unknown } | ((x: unknown) => unknown);

export function applyTransform(t: Transform, x: unknown): unknown {
  return typeof t === "function" ? t(x) : t.__call__(x);
}

export class Compose {
  constructor(readonly transforms: Transform[]) {}

  __call__(x: unknown): unknown {
    for (const t of this.transforms) x = applyTransform(t, x);
    return x;
  }

  __worker_spec__(): WorkerSpec {
    return { module: import.meta.url, name: "Compose", args: this.transforms.map(workerSpecOf) };
  }

  static async __from_worker__(args: WorkerSpec[], build: (s: WorkerSpec) => Promise<unknown>): Promise<Compose> {
    return new Compose((await Promise.all(args.map(build))) as Transform[]);
  }
}
