// Operator names as the views accept them: "aten::add.Tensor", "add.Tensor" or "add".

export interface OpName {
  /** "aten::add" */
  qualified: string;
  /** "Tensor" ("" for the default overload) */
  overload: string;
  /** "add.Tensor" (the name native_functions.yaml uses) */
  yamlName: string;
  /** "aten::add.Tensor" */
  full: string;
}

export function parseOpName(op: string): OpName {
  const trimmed = op.trim();
  const withNs = trimmed.includes("::") ? trimmed : `aten::${trimmed}`;
  const [ns, rest] = withNs.split("::", 2);
  const dot = rest.indexOf(".");
  const base = dot < 0 ? rest : rest.slice(0, dot);
  const overload = dot < 0 ? "" : rest.slice(dot + 1);
  const yamlName = overload ? `${base}.${overload}` : base;
  return { qualified: `${ns}::${base}`, overload, yamlName, full: `${ns}::${yamlName}` };
}
