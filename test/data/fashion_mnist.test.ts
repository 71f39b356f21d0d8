// FashionMNIST's IDX reader on tiny files written here (raw and gzip, torchvision's root/FashionMNIST/raw
// layout and a flat directory), the real Debian files when installed (values from gen_data.py, which
// parses them with numpy), transforms, and the synthetic stand-in's determinism.
import { describe, it, expect } from "vitest";
import { mkdtempSync, mkdirSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as torch from "../../engine/index.js";
import { FashionMNIST, SyntheticFashionMNIST, read_idx_file } from "../../engine/data/fashion_mnist.js";
import { ToTensor, Normalize, Compose } from "../../engine/data/transforms.js";
import { loadFixture } from "../support/fixtures.js";

const F = loadFixture("data.json");
const REAL = "/usr/share/datasets/fashion-mnist";

function idx(dims: number[], data: number[]): Buffer {
  const head = Buffer.alloc(4 + 4 * dims.length);
  head.writeUInt32BE((0x08 << 8) | dims.length, 0);
  dims.forEach((d, i) => head.writeUInt32BE(d, 4 + 4 * i));
  return Buffer.concat([head, Buffer.from(data)]);
}

describe("FashionMNIST", () => {
  const dir = mkdtempSync(join(tmpdir(), "gt-fmnist-"));
  const raw = join(dir, "FashionMNIST", "raw");
  mkdirSync(raw, { recursive: true });
  const pixels = Array.from({ length: 3 * 28 * 28 }, (_, i) => (i * 7) % 256);
  writeFileSync(join(raw, "train-images-idx3-ubyte"), idx([3, 28, 28], pixels));
  writeFileSync(join(raw, "train-labels-idx1-ubyte.gz"), gzipSync(idx([3], [9, 0, 4])));
  writeFileSync(join(dir, "t10k-images-idx3-ubyte.gz"), gzipSync(idx([1, 28, 28], pixels.slice(0, 784))));
  writeFileSync(join(dir, "t10k-labels-idx1-ubyte"), idx([1], [7]));

  it("reads raw and gzip IDX files: uint8 data [N,28,28], int64 targets, classes", () => {
    const ds = new FashionMNIST(dir);
    expect(ds.data.dtype).toBe(torch.uint8);
    expect([...ds.data.shape]).toEqual([3, 28, 28]);
    expect(ds.targets.dtype).toBe(torch.int64);
    expect(ds.targets.tolist()).toEqual([9, 0, 4]);
    expect(ds.data.flatten().tolist()).toEqual(pixels);
    expect(torch.utils.data.len(ds)).toBe(3);
    const [img, target] = ds.__getitem__(2);
    expect(target).toBe(4);
    expect((img as torch.Tensor).tolist()).toEqual(ds.data.select(0, 2).tolist());
    expect(ds.classes[9]).toBe("Ankle boot");
    const test = new FashionMNIST(dir, { train: false });
    expect(test.targets.tolist()).toEqual([7]);
    expect(() => new FashionMNIST(join(dir, "nowhere"))).toThrow("Dataset not found");
  });

  it("ToTensor scales to float32 [1,28,28] in [0,1]; Normalize; target_transform", () => {
    const ds = new FashionMNIST(dir, { transform: new Compose([new ToTensor(), new Normalize([0.5], [0.25])]), target_transform: (t: unknown) => (t as number) + 100 });
    const [img, target] = ds.__getitem__(0) as [torch.Tensor, number];
    expect(target).toBe(109);
    expect(img.dtype).toBe(torch.float32);
    expect([...img.shape]).toEqual([1, 28, 28]);
    const expected = pixels.slice(0, 784).map((p) => Math.fround((Math.fround(p / 255) - 0.5) / 0.25));
    expect(img.flatten().tolist()).toEqual(expected);
  });

  it("rejects files that are not unsigned-byte IDX", () => {
    const bad = join(dir, "bad");
    writeFileSync(bad, Buffer.from([0, 0, 0x0d, 1, 0, 0, 0, 1, 0, 0, 0, 0]));
    expect(() => read_idx_file(bad)).toThrow("is not an unsigned-byte IDX file");
    rmSync(bad);
  });

  it.skipIf(!existsSync(join(REAL, "t10k-images-idx3-ubyte.gz")))("reads the installed Debian dataset-fashion-mnist files (skipped when absent)", () => {
    const r = F.fashion_mnist_t10k;
    const ds = new FashionMNIST(REAL, { train: false });
    expect([...ds.data.shape]).toEqual(r.shape);
    expect((ds.targets.tolist() as number[]).slice(0, 20)).toEqual(r.targets_head);
    expect(ds.data.select(0, 0).to(torch.int64).sum().item()).toBe(r.img0_sum);
    expect(ds.data.select(0, 9999).to(torch.int64).sum().item()).toBe(r.img9999_sum);
    expect(ds.data.select(0, 0).select(0, 14).tolist()).toEqual(r.img0_row14);
  });

  it("SyntheticFashionMNIST is deterministic from its seed and leaves the default generator alone", () => {
    torch.manual_seed(0);
    const before = torch.get_rng_state();
    const a = new SyntheticFashionMNIST(16, 3);
    const b = new SyntheticFashionMNIST(16, 3);
    const c = new SyntheticFashionMNIST(16, 4);
    expect(torch.equal(torch.get_rng_state(), before)).toBe(true);
    expect(torch.equal(a.data, b.data)).toBe(true);
    expect(a.targets.tolist()).toEqual(b.targets.tolist());
    expect(torch.equal(a.data, c.data)).toBe(false);
    expect(a.data.dtype).toBe(torch.uint8);
    expect(a.targets.dtype).toBe(torch.int64);
    // the class band is bright: rows 2+2k..4+2k of a class-k image average above the noise ceiling
    const k = a.targets.select(0, 0).item() as number;
    const band = a.data.select(0, 0).narrow(0, 2 + 2 * k, 3).to(torch.float32).mean().item() as number;
    expect(band).toBeGreaterThan(150);
  });
});
