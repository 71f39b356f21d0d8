// torch.utils.data samplers, random_split, datasets and DataLoader(shuffle) index orders against PyTorch 1.13
// (test/fixtures/data.json from gen_data.py): same orders for the same seeds, and the default generator left
// in the same state afterwards ("after" draws), so the RNG calls match PyTorch's one for one.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";

const F = loadFixture("data.json");
const D = torch.utils.data;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function errOf(fn: () => unknown): { type: string; msg: string } {
  try {
    fn();
  } catch (e) {
    const name = (e as Error).name === "TypeError_" ? "TypeError" : (e as Error).name;
    return { type: name, msg: (e as Error).message };
  }
  throw new Error("no error thrown");
}

describe("RandomSampler", () => {
  for (const c of F.random_sampler) {
    it(`seed ${c.seed}, n=${c.n}, replacement=${c.replacement}, num_samples=${c.num_samples}`, () => {
      torch.manual_seed(c.seed);
      const s = new D.RandomSampler(range(c.n), { replacement: c.replacement, num_samples: c.num_samples });
      expect([...s]).toEqual(c.epochs[0]);
      expect([...s]).toEqual(c.epochs[1]);
      expect(torch.rand(2).tolist()).toEqual(c.after);
      expect(D.len(s)).toBe(c.num_samples ?? c.n);
    });
  }
  for (const c of F.random_sampler_generator) {
    it(`generator seeded ${c.seed}, n=${c.n}, replacement=${c.replacement}`, () => {
      const g = new torch.Generator().manual_seed(c.seed);
      const s = new D.RandomSampler(range(c.n), { replacement: c.replacement, num_samples: c.num_samples, generator: g });
      expect([[...s], [...s]]).toEqual(c.epochs);
    });
  }
  it("randperm matches PyTorch's single Fisher-Yates at every size tried (up to 70000)", () => {
    for (const c of F.randperm) {
      const p = torch.randperm(c.n, { generator: new torch.Generator().manual_seed(c.seed) }).tolist() as number[];
      expect(p.slice(0, 20)).toEqual(c.head);
      expect(p.slice(-20)).toEqual(c.tail);
      expect(p.reduce((a, v, i) => a + i * v, 0)).toBe(c.sum_sq);
    }
  });
});

describe("randperm's draws", () => {
  it("one 32-bit draw per swap, as 1.13 makes even past later releases' random64 switch (n >= 2^32/20)", () => {
    // gen_data.py (GLASSTORCH_SLOW_FIXTURES=1) checked real torch at n = 214749364: its generator ended
    // where n - 1 32-bit draws leave it. Ours consumes the same way (checked at a size this test can afford).
    expect(F.randperm_past_switch.state_equals_n_minus_1_32bit_draws).toBe(true);
    const g1 = new torch.Generator().manual_seed(7);
    torch.randperm(5000, { generator: g1 });
    const g2 = new torch.Generator().manual_seed(7);
    torch.randint(0, 1000, [4999], { generator: g2 });
    expect(torch.equal(g1.get_state(), g2.get_state())).toBe(true);
  });
});

describe("SubsetRandomSampler / WeightedRandomSampler / BatchSampler", () => {
  it("SubsetRandomSampler", () => {
    for (const c of F.subset_random_sampler) {
      if (c.gen_seed !== undefined) {
        const s = new D.SubsetRandomSampler(c.indices, { generator: new torch.Generator().manual_seed(c.gen_seed) });
        expect([...s]).toEqual(c.epochs[0]);
        continue;
      }
      torch.manual_seed(c.seed);
      const s = new D.SubsetRandomSampler(c.indices);
      expect([[...s], [...s]]).toEqual(c.epochs);
    }
  });
  it("WeightedRandomSampler", () => {
    for (const c of F.weighted_random_sampler) {
      torch.manual_seed(c.seed);
      const s = new D.WeightedRandomSampler(c.weights, c.num_samples, { replacement: c.replacement });
      expect([[...s], [...s]]).toEqual(c.epochs);
    }
  });
  it("BatchSampler", () => {
    const b = F.batch_sampler;
    expect([...new D.BatchSampler(range(10), 3, false)]).toEqual(b.keep);
    expect([...new D.BatchSampler(range(10), 3, true)]).toEqual(b.drop);
    expect(D.len(new D.BatchSampler(range(10), 3, false))).toBe(b.len_keep);
    expect(D.len(new D.BatchSampler(range(10), 3, true))).toBe(b.len_drop);
  });
  it("argument errors have PyTorch's texts", () => {
    const e = F.sampler_errors;
    const ds = new D.TensorDataset(torch.arange(6));
    expect(errOf(() => new D.RandomSampler(ds, { num_samples: 0 }))).toEqual(e.random_num_samples);
    expect(errOf(() => new D.RandomSampler(ds, { replacement: 1 }))).toEqual(e.random_replacement);
    expect(errOf(() => new D.BatchSampler(range(3), 0, false))).toEqual(e.batch_size);
    expect(errOf(() => new D.BatchSampler(range(3), 2, 0 as any))).toEqual(e.drop_last);
    expect(errOf(() => new D.WeightedRandomSampler([1.0], 0))).toEqual(e.weighted_num_samples);
    expect(errOf(() => new D.WeightedRandomSampler([[1.0, 2.0]] as any, 1))).toEqual(e.weighted_shape);
    expect(errOf(() => new D.ConcatDataset([range(2), range(3)]).__getitem__(-6))).toEqual(e.concat_negative);
  });
});

describe("datasets and random_split", () => {
  it("ConcatDataset: cumulative sizes, negative indices", () => {
    const cd = new D.ConcatDataset([range(2), range(0), range(3)]);
    expect(cd.cumulative_sizes).toEqual(F.concat.cumulative_sizes);
    expect(range(10).map((i) => cd.__getitem__(i - 5))).toEqual(F.concat.items);
  });
  it("TensorDataset rows, Subset, __add__", () => {
    const ds = new D.TensorDataset(torch.arange(4), torch.arange(8).view(4, 2));
    expect(D.len(ds)).toBe(4);
    const [a, b] = ds.__getitem__(2);
    expect([a.tolist(), b.tolist()]).toEqual([2, [4, 5]]);
    const sub = new D.Subset(ds, [3, 1]);
    expect(sub.__getitem__(0)[0].item()).toBe(3);
    expect(D.len(ds.__add__(sub))).toBe(6);
    expect(() => new D.TensorDataset(torch.arange(3), torch.arange(4))).toThrow("Size mismatch between tensors");
  });
  for (const c of F.random_split) {
    it(`random_split n=${c.n} lengths=${JSON.stringify(c.lengths)} generator=${c.gen_seed}`, () => {
      torch.manual_seed(c.seed);
      const opts = c.gen_seed === null ? {} : { generator: new torch.Generator().manual_seed(c.gen_seed) };
      const parts = D.random_split(range(c.n), c.lengths, opts);
      expect(parts.map((p) => p.indices)).toEqual(c.splits);
      expect(parts.map((p) => range(p.indices.length).map((i) => p.__getitem__(i)))).toEqual(c.splits);
    });
  }
  it("random_split errors", () => {
    expect(errOf(() => D.random_split(range(10), [3, 3]))).toEqual(F.random_split_errors[0]);
    expect(errOf(() => D.random_split(range(10), [1.5, -0.5]))).toEqual(F.random_split_errors[1]);
  });
});

describe("DataLoader (num_workers=0)", () => {
  for (const c of F.dataloader_shuffle) {
    it(`shuffle=True seed ${c.seed}: batch order over two epochs, len, RNG state after`, () => {
      torch.manual_seed(c.seed);
      const loader = new D.DataLoader(new D.TensorDataset(torch.arange(c.n)), { batch_size: c.batch_size, shuffle: true, drop_last: c.drop_last });
      expect(D.len(loader)).toBe(c.len);
      const epochs = [0, 1].map(() => [...loader].map((b: any) => b[0].tolist()));
      expect(epochs).toEqual(c.epochs);
      expect(torch.rand(2).tolist()).toEqual(c.after);
    });
  }
  it("shuffle with a generator", () => {
    const c = F.dataloader_generator;
    const g = new torch.Generator().manual_seed(c.gen_seed);
    const loader = new D.DataLoader(new D.TensorDataset(torch.arange(c.n)), { batch_size: c.batch_size, shuffle: true, generator: g });
    expect([0, 1].map(() => [...loader].map((b: any) => b[0].tolist()))).toEqual(c.epochs);
  });
  it("for await works without workers too", async () => {
    const loader = new D.DataLoader(range(5), { batch_size: 2 });
    const got: number[][] = [];
    for await (const b of loader) got.push((b as torch.Tensor).tolist() as number[]);
    expect(got).toEqual([[0, 1], [2, 3], [4]]);
  });
  it("batch_size=None passes samples through (default_convert)", () => {
    const loader = new D.DataLoader(range(3), { batch_size: null });
    expect([...loader]).toEqual(F.no_batch.map((x: any) => x.value));
  });
  it("batch_sampler and custom collate_fn", () => {
    const loader = new D.DataLoader(range(7), { batch_sampler: new D.BatchSampler(new D.SequentialSampler(range(7)), 3, true), collate_fn: (b: number[]) => b.join(",") });
    expect([...loader]).toEqual(["0,1,2", "3,4,5"]);
    expect(D.len(loader)).toBe(2);
  });
  it("argument errors have PyTorch's texts", () => {
    const e = F.loader_errors;
    const ds = new D.TensorDataset(torch.arange(6));
    const bs = () => new D.BatchSampler(new D.SequentialSampler(ds), 2, false);
    expect(errOf(() => new D.DataLoader(ds, { sampler: new D.SequentialSampler(ds), shuffle: true }))).toEqual(e.sampler_shuffle);
    expect(errOf(() => new D.DataLoader(ds, { batch_sampler: bs(), batch_size: 3 }))).toEqual(e.batch_sampler_batch_size);
    expect(errOf(() => new D.DataLoader(ds, { batch_sampler: bs(), drop_last: true }))).toEqual(e.batch_sampler_drop_last);
    expect(errOf(() => new D.DataLoader(ds, { batch_size: null, drop_last: true }))).toEqual(e.batch_size_none_drop_last);
    expect(errOf(() => new D.DataLoader(ds, { num_workers: -1 }))).toEqual(e.num_workers);
    expect(errOf(() => new D.DataLoader(ds, { timeout: -1 }))).toEqual(e.timeout);
    expect(errOf(() => new D.DataLoader(ds, { prefetch_factor: 3 }))).toEqual(e.prefetch);
    expect(errOf(() => new D.DataLoader(ds, { persistent_workers: true }))).toEqual(e.persistent);
  });
  it("IterableDataset: batches from the stream, len from the dataset", () => {
    class Count extends D.IterableDataset<number> {
      *[Symbol.iterator]() {
        for (let i = 0; i < 5; i++) yield i;
      }
      __len__() {
        return 5;
      }
    }
    const loader = new D.DataLoader(new Count(), { batch_size: 2 });
    expect([...loader].map((b: any) => b.tolist())).toEqual([[0, 1], [2, 3], [4]]);
    expect(D.len(loader)).toBe(3);
    expect(() => new D.DataLoader(new Count(), { shuffle: true })).toThrow("DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=True");
  });
});
