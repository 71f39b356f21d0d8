// torch.layout (c10/core/Layout.h): how a tensor's elements are stored. Glasstorch stores every
// tensor strided; the other layouts exist as values so arguments and reprs read as in PyTorch.

export class layout {
  constructor(readonly name: string, /** c10::Layout's enum value. */ readonly value: number) {}
  toString(): string {
    return `torch.${this.name}`;
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

export const strided = new layout("strided", 0);
export const sparse_coo = new layout("sparse_coo", 1);
export const sparse_csr = new layout("sparse_csr", 2);
export const _mkldnn = new layout("_mkldnn", 3);
export const sparse_csc = new layout("sparse_csc", 4);
export const sparse_bsr = new layout("sparse_bsr", 5);
export const sparse_bsc = new layout("sparse_bsc", 6);

/** A Layout argument as kernels receive it (None, a torch.layout, a schema default, or "strided"): is it strided? */
export function isStrided(l: unknown): boolean {
  return l == null || l === "strided" || (typeof l === "object" && (l as { value?: unknown }).value === 0);
}
