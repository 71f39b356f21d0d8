// A CPU-heavy map-style dataset for bench/dataloader_workers.mjs (issue #7's evidence). Each item does
// what an image pipeline's per-sample work does, in plain JavaScript on the calling thread: it
// synthesises a 3 x S x S "decoded image" from the index (a deterministic hash, standing in for JPEG
// decoding), blurs it with a separable 7-tap Gaussian (the augmentation), takes a flipped random-ish
// crop, and normalises it per channel; then the result becomes a tensor. A worker thread rebuilds the
// dataset from __worker_spec__ (this module, the class name, its arguments), as DataLoader requires.
import * as torch from "../../dist/engine/index.js";

const KERNEL = [0.0044, 0.054, 0.242, 0.3992, 0.242, 0.054, 0.0044];

export class CpuHeavyDataset extends torch.utils.data.Dataset {
  /** @param {number} n items; @param {number} size S of the synthesised image; @param {number} crop output side; @param {number} passes blur passes */
  constructor(n, size = 64, crop = 56, passes = 2) {
    super();
    Object.assign(this, { n, size, crop, passes });
  }

  __len__() {
    return this.n;
  }

  __getitem__(index) {
    const { size: S, crop: C, passes } = this;
    let img = new Float32Array(3 * S * S);
    let h = (index + 1) * 2654435761;
    for (let i = 0; i < img.length; i++) {
      h = Math.imul(h ^ (h >>> 15), 2246822519) ^ i;
      img[i] = (h >>> 8) / 16777216;
    }
    let tmp = new Float32Array(img.length);
    for (let p = 0; p < passes; p++) {
      for (const [src, dst, horizontal] of [[img, tmp, true], [tmp, img, false]]) {
        for (let c = 0; c < 3; c++) {
          for (let y = 0; y < S; y++) {
            for (let x = 0; x < S; x++) {
              let acc = 0;
              for (let k = -3; k <= 3; k++) {
                const xx = horizontal ? Math.min(S - 1, Math.max(0, x + k)) : x;
                const yy = horizontal ? y : Math.min(S - 1, Math.max(0, y + k));
                acc += KERNEL[k + 3] * src[(c * S + yy) * S + xx];
              }
              dst[(c * S + y) * S + x] = acc;
            }
          }
        }
      }
    }
    const oy = index % (S - C + 1), ox = (index * 7) % (S - C + 1), flip = index % 2 === 1;
    const out = new Float32Array(3 * C * C);
    for (let c = 0; c < 3; c++) {
      let sum = 0, sq = 0;
      for (let y = 0; y < C; y++) {
        for (let x = 0; x < C; x++) {
          const v = img[(c * S + oy + y) * S + ox + (flip ? C - 1 - x : x)];
          out[(c * C + y) * C + x] = v;
          sum += v;
          sq += v * v;
        }
      }
      const mean = sum / (C * C), std = Math.sqrt(Math.max(sq / (C * C) - mean * mean, 1e-12));
      for (let i = c * C * C; i < (c + 1) * C * C; i++) out[i] = (out[i] - mean) / std;
    }
    return [torch.tensor(out).view(3, C, C), index % 10];
  }

  __worker_spec__() {
    return { module: import.meta.url, name: "CpuHeavyDataset", args: [this.n, this.size, this.crop, this.passes] };
  }
}
