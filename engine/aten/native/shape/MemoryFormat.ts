// c10::MemoryFormat (c10/core/MemoryFormat.h) as the shape kernels receive it: null (None), the
// schema default `contiguous_format` (a string from the binding, an enum object from the schema
// parser), or a name. Glasstorch lays tensors out row-major or keeps their strides; the channels-last
// formats are not modelled yet.

import { RuntimeError } from "../../../c10/Errors.js";

export type MemoryFormat = "contiguous_format" | "preserve_format";

const byEnumValue = ["contiguous_format", "preserve_format", "channels_last", "channels_last_3d"];

/** The memory format an argument names, or null for None. */
export function memoryFormatOf(v: unknown): MemoryFormat | null {
  if (v === null || v === undefined) return null;
  let name: unknown = v;
  if (typeof v === "object" && "value" in v && typeof (v as { value: unknown }).value === "number") name = byEnumValue[(v as { value: number }).value];
  else if (typeof v === "object" && "name" in v) name = (v as { name: unknown }).name;
  if (typeof name === "string") name = name.replace(/^torch\./, "");
  if (name === "contiguous_format" || name === "preserve_format") return name;
  throw new RuntimeError(`memory format ${String(name)} is not supported by Glasstorch yet (only torch.contiguous_format and torch.preserve_format)`);
}
