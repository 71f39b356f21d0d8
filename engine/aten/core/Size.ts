// torch.Size (torch/csrc/Size.cpp): the tuple of sizes a tensor's .shape returns; prints as torch.Size([2, 3]).

export class Size extends Array<number> {
  // Array methods (map, slice, ...) return plain arrays, not Sizes.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  static from_(sizes: readonly number[]): Size {
    const s = new Size();
    s.push(...sizes);
    return Object.freeze(s) as Size;
  }

  numel(): number {
    let n = 1;
    for (const v of this) n *= v;
    return n;
  }

  override toString(): string {
    return `torch.Size([${this.join(", ")}])`;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}
