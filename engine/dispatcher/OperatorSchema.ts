// What the dispatcher needs to know about an operator's schema, as a small structural interface, so this
// layer does not depend on the schema parser. engine/dispatcher/schema/FunctionSchema.ts satisfies it
// (PyTorch: c10::FunctionSchema in aten/src/ATen/core/function_schema.h; OperatorName in operator_name.h).

export interface OperatorSchemaArgument {
  readonly name: string;
  /** Printed without alias annotations: 'Tensor', 'Tensor?', 'Tensor[]', 'int', ... */
  readonly type: { toString(): string };
}

export interface OperatorSchema {
  /** Namespace included: 'aten::add'. */
  readonly name: string;
  /** 'Tensor' in aten::add.Tensor; '' when there is none. */
  readonly overload_name: string;
  /** In schema order; keyword-only arguments are still positional for the dispatcher. */
  readonly arguments: readonly OperatorSchemaArgument[];
  /** The full schema text: 'aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor'. */
  toString(): string;
}

/** An operator's identity: the name plus the overload name (c10::OperatorName). */
export interface OperatorName {
  readonly name: string;
  readonly overload_name: string;
}

/** 'aten::add.Tensor', or 'aten::add' when the overload name is empty (how c10 prints an OperatorName). */
export function operatorNameToString(op: OperatorName): string {
  return op.overload_name ? `${op.name}.${op.overload_name}` : op.name;
}

/** 'aten::add.Tensor' -> {name: 'aten::add', overload_name: 'Tensor'} (torch::jit::parseName). */
export function parseOperatorName(full: string): OperatorName {
  const ns = full.indexOf("::");
  const dot = full.indexOf(".", ns < 0 ? 0 : ns + 2);
  if (dot < 0) return { name: full, overload_name: "" };
  return { name: full.slice(0, dot), overload_name: full.slice(dot + 1) };
}
