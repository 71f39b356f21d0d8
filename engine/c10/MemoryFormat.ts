// torch.memory_format (c10/core/MemoryFormat.h): the order a new tensor's strides follow.
// Kernels read an argument through aten/native/shape/MemoryFormat.ts (memoryFormatOf).

export class memory_format {
  constructor(readonly name: string, /** c10::MemoryFormat's enum value. */ readonly value: number) {}
  toString(): string {
    return `torch.${this.name}`;
  }
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

export const contiguous_format = new memory_format("contiguous_format", 0);
export const preserve_format = new memory_format("preserve_format", 1);
export const channels_last = new memory_format("channels_last", 2);
export const channels_last_3d = new memory_format("channels_last_3d", 3);
