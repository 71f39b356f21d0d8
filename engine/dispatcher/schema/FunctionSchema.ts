// The operator schema model: what `add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor` means.
// Mirrors torchgen/model.py (FunctionSchema, Argument, Return, Annotation, BaseTy, ListType, OptionalType) for the
// printing and the SchemaKind rules, and aten/src/ATen/core/function_schema.h + alias_info.h (c10::Argument,
// c10::AliasInfo) for N, default values, kwarg_only/is_out and alias sets. Parsed by SchemaParser.ts.
//
// Like torchgen, the model is lossless: toString() gives back the text it was parsed from for every schema in
// PyTorch's native_functions.yaml (defaults are kept as written, e.g. `1e-05`, `[-2,-1]`, `"L"`).

/** A point in the source: 0-based offset into the schema text, 1-based line and column in the original file. */
export interface SourcePos {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** A range [start, end) in the source; `file` when the parser was told where the text came from. */
export interface SourceSpan {
  readonly file?: string;
  readonly start: SourcePos;
  readonly end: SourcePos;
}

// ---------------------------------------------------------------------------------------------------------------
// Alias annotations (c10::AliasInfo in aten/src/ATen/core/alias_info.h; torchgen's Annotation)

/**
 * `(a)`: may alias set a. `(a!)`: aliases a and is written. `(a -> *)`: after the call its aliases may be anywhere
 * (e.g. flow into a list output). `(b|c)`: member of either set. `!` alone (`Tensor!`) is a fresh written set.
 */
export class AliasInfo {
  constructor(
    /** The sets before the call, as written; `*` is the wildcard set. */
    readonly beforeSets: readonly string[],
    readonly isWrite: boolean,
    /** The sets after `->`, or null when there is no arrow (then after = before). */
    readonly writtenAfterSets: readonly string[] | null = null,
    /** `Tensor!` shorthand: the JIT names the fresh set `$0`, `$1`, ... */
    readonly fresh: boolean = false,
  ) {}

  /** The sets after the call (c10 copies the before sets when no `->` is given). */
  get afterSets(): readonly string[] {
    return this.writtenAfterSets ?? this.beforeSets;
  }
  get isWildcardBefore(): boolean {
    return this.beforeSets.includes("*");
  }
  get isWildcardAfter(): boolean {
    return this.afterSets.includes("*");
  }

  /** torchgen's Annotation.__str__: `a!`, `a -> *`, `b|c` (no parentheses). */
  toString(): string {
    if (this.fresh) return "!";
    let s = this.beforeSets.join("|");
    if (this.isWrite) s += "!";
    if (this.writtenAfterSets) s += " -> " + this.writtenAfterSets.join("|");
    return s;
  }

  /** How it is written after a type: `(a!)`, or `!` for the fresh shorthand. */
  annotationString(): string {
    return this.fresh ? "!" : `(${this})`;
  }

  equals(o: AliasInfo | null | undefined): boolean {
    return (
      !!o &&
      this.isWrite === o.isWrite &&
      sameSet(this.beforeSets, o.beforeSets) &&
      sameSet(this.afterSets, o.afterSets)
    );
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

// ---------------------------------------------------------------------------------------------------------------
// Types (torchgen BaseTy/BaseType/OptionalType/ListType/CustomClassType; the JIT's extra forms from
// torch/csrc/jit/frontend/schema_type_parser.cpp: type variables, tuples, Dict, Future, RRef, Union)

/** torchgen's BaseTy (all that native_functions.yaml uses) plus the names the JIT schema parser also knows. */
export const BASE_TYPE_NAMES = [
  // torchgen/model.py BaseTy
  "Generator",
  "ScalarType",
  "Tensor",
  "int",
  "Dimname",
  "DimVector",
  "float",
  "str",
  "bool",
  "Layout",
  "Device",
  "Scalar",
  "MemoryFormat",
  "QScheme",
  "Storage",
  "Stream",
  "SymInt",
  "ConstQuantizerPtr",
  // JIT only (SchemaTypeParser::parseBaseType)
  "complex",
  "number",
  "Any",
  "None",
  "NoneType",
  "Capsule",
  "Quantizer",
  "AnyClassType",
  "AnyEnumType",
] as const;
export type BaseTypeName = (typeof BASE_TYPE_NAMES)[number];

const BASE_TYPE_SET: ReadonlySet<string> = new Set(BASE_TYPE_NAMES);
export function isBaseTypeName(s: string): s is BaseTypeName {
  return BASE_TYPE_SET.has(s);
}

export type SchemaType =
  | BaseType
  | VarType
  | OptionalType
  | ListType
  | TupleType
  | DictType
  | FutureType
  | RRefType
  | UnionType
  | CustomClassType;

abstract class TypeNode {
  abstract readonly kind: SchemaType["kind"];
  /** The type as torchgen prints it, without alias annotations: `Tensor`, `Tensor?`, `Tensor[]`, `int[2]`. */
  abstract toString(): string;
  /** The type with its alias annotations where they were written: `Tensor(a!)`, `Tensor(a)[]`, `Tensor(a!)?`. */
  abstract annotatedString(): string;
  /** torchgen Type.is_base_ty_like: this base type, possibly under Optional and List. */
  isBaseTyLike(_name: BaseTypeName): boolean {
    return false;
  }
  isTensorLike(): boolean {
    return this.isBaseTyLike("Tensor");
  }
  isSymIntLike(): boolean {
    return this.isBaseTyLike("SymInt");
  }
  isGeneratorLike(): boolean {
    return this.isBaseTyLike("Generator");
  }
  /** torchgen Type.is_nullable: Optional at the top, or a list of optionals. */
  isNullable(): boolean {
    return false;
  }
  /** torchgen Type.is_list_like: the list type under any Optional, else null. */
  isListLike(): ListType | null {
    return null;
  }
  /** Same type, alias annotations aside (torchgen compares types without them). */
  equals(o: SchemaType): boolean {
    return this.toString() === o.toString();
  }
}

/** A named base type; `alias` is the annotation written right after it (`Tensor(a!)`). */
export class BaseType extends TypeNode {
  readonly kind = "base" as const;
  constructor(
    readonly name: BaseTypeName,
    readonly alias: AliasInfo | null = null,
  ) {
    super();
  }
  override toString(): string {
    return this.name;
  }
  annotatedString(): string {
    return this.name + (this.alias ? this.alias.annotationString() : "");
  }
  override isBaseTyLike(name: BaseTypeName): boolean {
    return this.name === name;
  }
}

/** A JIT type variable: a lower-case name that is no known type (`t` in `aten::append.t(t[](a!) self, t el)`). */
export class VarType extends TypeNode {
  readonly kind = "var" as const;
  constructor(
    readonly name: string,
    readonly alias: AliasInfo | null = null,
  ) {
    super();
  }
  override toString(): string {
    return this.name;
  }
  annotatedString(): string {
    return this.name + (this.alias ? this.alias.annotationString() : "");
  }
}

/** `T?`: T or None. */
export class OptionalType extends TypeNode {
  readonly kind = "optional" as const;
  constructor(readonly elem: SchemaType) {
    super();
  }
  override toString(): string {
    return `${this.elem}?`;
  }
  annotatedString(): string {
    return `${this.elem.annotatedString()}?`;
  }
  override isBaseTyLike(name: BaseTypeName): boolean {
    return this.elem.isBaseTyLike(name);
  }
  override isNullable(): boolean {
    return true;
  }
  override isListLike(): ListType | null {
    return this.elem.isListLike();
  }
}

/** `T[]`, or `T[N]` (fixed size; Python also accepts a bare scalar, replicated N times). */
export class ListType extends TypeNode {
  readonly kind = "list" as const;
  constructor(
    readonly elem: SchemaType,
    readonly size: number | null = null,
    /** Annotation on the list itself (`Tensor[](a!)`); element annotations live on `elem`. */
    readonly alias: AliasInfo | null = null,
  ) {
    super();
  }
  override toString(): string {
    return `${this.elem}[${this.size ?? ""}]`;
  }
  annotatedString(): string {
    return `${this.elem.annotatedString()}[${this.size ?? ""}]` + (this.alias ? this.alias.annotationString() : "");
  }
  override isBaseTyLike(name: BaseTypeName): boolean {
    return this.elem.isBaseTyLike(name);
  }
  override isNullable(): boolean {
    return this.elem.isNullable();
  }
  override isListLike(): ListType | null {
    return this;
  }
}

/** `(T, U)` (JIT). */
export class TupleType extends TypeNode {
  readonly kind = "tuple" as const;
  constructor(readonly elems: readonly SchemaType[]) {
    super();
  }
  override toString(): string {
    return `(${this.elems.join(", ")})`;
  }
  annotatedString(): string {
    return `(${this.elems.map((e) => e.annotatedString()).join(", ")})`;
  }
}

/** `Dict(K, V)` (JIT). */
export class DictType extends TypeNode {
  readonly kind = "dict" as const;
  constructor(
    readonly key: SchemaType,
    readonly value: SchemaType,
    readonly alias: AliasInfo | null = null,
  ) {
    super();
  }
  override toString(): string {
    return `Dict(${this.key}, ${this.value})`;
  }
  annotatedString(): string {
    return (
      `Dict(${this.key.annotatedString()}, ${this.value.annotatedString()})` +
      (this.alias ? this.alias.annotationString() : "")
    );
  }
}

/** `Future(T)` (JIT). */
export class FutureType extends TypeNode {
  readonly kind = "future" as const;
  constructor(readonly elem: SchemaType) {
    super();
  }
  override toString(): string {
    return `Future(${this.elem})`;
  }
  annotatedString(): string {
    return `Future(${this.elem.annotatedString()})`;
  }
}

/** `RRef(T)` (JIT). */
export class RRefType extends TypeNode {
  readonly kind = "rref" as const;
  constructor(readonly elem: SchemaType) {
    super();
  }
  override toString(): string {
    return `RRef(${this.elem})`;
  }
  annotatedString(): string {
    return `RRef(${this.elem.annotatedString()})`;
  }
}

/** `Union(T, U)` (JIT). */
export class UnionType extends TypeNode {
  readonly kind = "union" as const;
  constructor(readonly elems: readonly SchemaType[]) {
    super();
  }
  override toString(): string {
    return `Union(${this.elems.join(", ")})`;
  }
  annotatedString(): string {
    return `Union(${this.elems.map((e) => e.annotatedString()).join(", ")})`;
  }
}

/** `__torch__.torch.classes.ns.Name`: a registered custom class; `className` is `ns.Name`. */
export class CustomClassType extends TypeNode {
  readonly kind = "class" as const;
  constructor(readonly className: string) {
    super();
  }
  override toString(): string {
    return `__torch__.torch.classes.${this.className}`;
  }
  annotatedString(): string {
    return this.toString();
  }
}

/** Tensor, Tensor?, Tensor[], Tensor?[] (torchgen is_tensor_like: Tensor under any Optional/List). */
export function isTensorLike(type: SchemaType): boolean {
  return type.isTensorLike();
}

/**
 * The one annotation torchgen keeps per argument: the list's own (`Tensor[](a!)`) if any, else the element's
 * (`Tensor(a!)[]`, `Tensor(a)?`). c10 keeps the element's as a contained type; for aliasing decisions
 * (is it written? which set?) this is the annotation that counts.
 */
export function topLevelAlias(type: SchemaType): AliasInfo | null {
  switch (type.kind) {
    case "base":
    case "var":
    case "dict":
      return type.alias;
    case "optional":
      return topLevelAlias(type.elem);
    case "list":
      return type.alias ?? topLevelAlias(type.elem);
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Default values (FunctionSchemaParser::parseDefaultValue)

/** The enum-like identifiers the JIT accepts as defaults, with the integer it stores for each. */
export const DEFAULT_IDENTIFIERS = {
  float: { enumType: "ScalarType", value: 6 }, // at::kFloat
  long: { enumType: "ScalarType", value: 4 }, // at::kLong
  strided: { enumType: "Layout", value: 0 }, // at::kStrided
  Mean: { enumType: "Reduction", value: 1 }, // at::Reduction::Mean
  contiguous_format: { enumType: "MemoryFormat", value: 0 }, // c10::MemoryFormat::Contiguous
} as const;
export type DefaultIdentifier = keyof typeof DEFAULT_IDENTIFIERS;

/**
 * A parsed default. `int` vs `float` follows the JIT: a float-typed argument, or a literal with `.`/`e`, is a float
 * (so `Scalar alpha=1` is the integer 1 and `float p=1` the double 1.0). An int beyond 2^53 is a bigint.
 * `list.broadcast` marks `int[2] stride=1` (a scalar written for a fixed-size list, replicated N times).
 */
export type DefaultValue =
  | { readonly kind: "none" }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "int"; readonly value: number | bigint }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "str"; readonly value: string }
  | {
      readonly kind: "enum";
      readonly name: DefaultIdentifier;
      readonly enumType: "ScalarType" | "Layout" | "Reduction" | "MemoryFormat";
      readonly value: number;
    }
  | { readonly kind: "device"; readonly value: string }
  | { readonly kind: "list"; readonly elements: readonly DefaultValue[]; readonly broadcast: boolean };

/** A default as a plain JS value: null, boolean, number/bigint, string (enum names and devices as their name). */
export function defaultToJS(v: DefaultValue): unknown {
  switch (v.kind) {
    case "none":
      return null;
    case "enum":
      return v.name;
    case "list":
      return v.elements.map(defaultToJS);
    default:
      return v.value;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Arguments and returns

export interface ArgumentInit {
  name: string;
  type: SchemaType;
  N?: number | null;
  default?: string | null;
  default_value?: DefaultValue | null;
  kwarg_only?: boolean;
  span?: SourceSpan;
  typeSpan?: SourceSpan;
  nameSpan?: SourceSpan;
  defaultSpan?: SourceSpan;
}

/** One argument: `Type(alias) name=default`. Field names follow c10::Argument / torchgen's Argument. */
export class Argument {
  readonly name: string;
  /** The type, alias annotations included where they were written. */
  readonly type: SchemaType;
  /** Size of a fixed-size list `int[2]` (c10 Argument::N), else null. */
  readonly N: number | null;
  /** The default as written (`1e-05`, `[0,1]`, `"L"`, `contiguous_format`), or null. */
  readonly default: string | null;
  /** The default as the JIT reads it, or null when there is none. */
  readonly default_value: DefaultValue | null;
  /** After `*` in the argument list (keyword-only in Python). */
  readonly kwarg_only: boolean;
  /** The annotation that governs aliasing (see topLevelAlias), or null. */
  readonly alias_info: AliasInfo | null;
  /** The whole argument, from its type to the end of its default. */
  readonly span?: SourceSpan;
  readonly typeSpan?: SourceSpan;
  readonly nameSpan?: SourceSpan;
  readonly defaultSpan?: SourceSpan;

  constructor(init: ArgumentInit) {
    this.name = init.name;
    this.type = init.type;
    this.N = init.N ?? null;
    this.default = init.default ?? null;
    this.default_value = init.default_value ?? null;
    this.kwarg_only = init.kwarg_only ?? false;
    this.alias_info = topLevelAlias(init.type);
    this.span = init.span;
    this.typeSpan = init.typeSpan;
    this.nameSpan = init.nameSpan;
    this.defaultSpan = init.defaultSpan;
  }

  get is_write(): boolean {
    return this.alias_info?.isWrite ?? false;
  }
  /** c10 Argument::is_out: keyword-only and written. */
  get is_out(): boolean {
    return this.kwarg_only && this.is_write;
  }
  get has_default(): boolean {
    return this.default !== null;
  }

  /** torchgen Argument.__str__: `Tensor(a!) self`, `int[2] stride=1`. */
  toString(): string {
    return `${this.type.annotatedString()} ${this.name}` + (this.default !== null ? `=${this.default}` : "");
  }
}

export interface ReturnInit {
  name?: string | null;
  type: SchemaType;
  span?: SourceSpan;
  typeSpan?: SourceSpan;
  nameSpan?: SourceSpan;
}

/** One return: `Tensor(a!)`, or named `Tensor values` (named-tuple field in Python). */
export class Return {
  readonly name: string | null;
  readonly type: SchemaType;
  readonly alias_info: AliasInfo | null;
  readonly span?: SourceSpan;
  readonly typeSpan?: SourceSpan;
  readonly nameSpan?: SourceSpan;

  constructor(init: ReturnInit) {
    this.name = init.name ?? null;
    this.type = init.type;
    this.alias_info = topLevelAlias(init.type);
    this.span = init.span;
    this.typeSpan = init.typeSpan;
    this.nameSpan = init.nameSpan;
  }

  get is_write(): boolean {
    return this.alias_info?.isWrite ?? false;
  }

  toString(): string {
    return this.type.annotatedString() + (this.name !== null ? ` ${this.name}` : "");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Operator names (torchgen BaseOperatorName)

/** Names that may be written `__iXXX__` for in-place operators (PEP 203), as torchgen lists them. */
export const AUGMENTED_ASSIGNMENT_NAMES = ["add", "sub", "mul", "div", "mod", "pow", "lshift", "rshift", "and", "xor", "or"];

/** torchgen BaseOperatorName: `add_` is {base 'add', inplace}; `__iand__` {base 'and', inplace, dunder}. */
export interface BaseOperatorName {
  readonly base: string;
  readonly inplace: boolean;
  readonly dunder_method: boolean;
  /** `native_batch_norm_functional`: the functional twin of a mutable op (Note [Overload Ambiguity ...]). */
  readonly functional_overload: boolean;
}

export function parseBaseOperatorName(op: string): BaseOperatorName {
  let base = op;
  let inplace = false;
  let dunder = false;
  const m = /^__([^_]+)__$/.exec(op);
  if (m) {
    dunder = true;
    base = m[1];
    if (AUGMENTED_ASSIGNMENT_NAMES.some((n) => base === `i${n}`)) {
      inplace = true;
      base = base.slice(1);
    }
  } else if (base.endsWith("_")) {
    inplace = true;
    base = base.slice(0, -1);
  }
  let functional = false;
  if (!dunder && !inplace && base.endsWith("_functional")) {
    functional = true;
    base = base.slice(0, -"_functional".length);
  }
  return { base, inplace, dunder_method: dunder, functional_overload: functional };
}

// ---------------------------------------------------------------------------------------------------------------
// The schema

/** torchgen SchemaKind. */
export type SchemaKind = "functional" | "inplace" | "out" | "mutable" | "scratch";

export interface FunctionSchemaInit {
  name: string;
  overload_name?: string;
  arguments: readonly Argument[];
  returns: readonly Return[];
  is_vararg?: boolean;
  is_varret?: boolean;
  span?: SourceSpan;
  nameSpan?: SourceSpan;
  overloadSpan?: SourceSpan;
  returnsSpan?: SourceSpan;
}

export class FunctionSchema {
  /** The operator name as written, namespace included when given: `aten::add` or `add`. */
  readonly name: string;
  /** `Tensor` in `add.Tensor`; "" when there is none (torch.ops calls that overload `default`). */
  readonly overload_name: string;
  readonly arguments: readonly Argument[];
  readonly returns: readonly Return[];
  /** `...` ends the argument list (JIT varargs). */
  readonly is_vararg: boolean;
  /** `...` ends the return list. */
  readonly is_varret: boolean;
  readonly span?: SourceSpan;
  /** The operator name (namespace included) and, separately, the overload name. */
  readonly nameSpan?: SourceSpan;
  readonly overloadSpan?: SourceSpan;
  readonly returnsSpan?: SourceSpan;
  /** torchgen's reading of the unqualified name: base, inplace, dunder, functional twin. */
  readonly operatorName: BaseOperatorName;

  constructor(init: FunctionSchemaInit) {
    this.name = init.name;
    this.overload_name = init.overload_name ?? "";
    this.arguments = init.arguments;
    this.returns = init.returns;
    this.is_vararg = init.is_vararg ?? false;
    this.is_varret = init.is_varret ?? false;
    this.span = init.span;
    this.nameSpan = init.nameSpan;
    this.overloadSpan = init.overloadSpan;
    this.returnsSpan = init.returnsSpan;
    this.operatorName = parseBaseOperatorName(this.unqualifiedName);
  }

  /** `aten` for `aten::add`, null when no namespace was written. */
  get namespace(): string | null {
    const i = this.name.indexOf("::");
    return i < 0 ? null : this.name.slice(0, i);
  }
  /** The name without its namespace: `add_`. */
  get unqualifiedName(): string {
    const i = this.name.indexOf("::");
    return i < 0 ? this.name : this.name.slice(i + 2);
  }

  /** `add.Tensor` (c10 OperatorName printing; `aten::add.Tensor` when a namespace was written). */
  fullName(): string {
    return this.overload_name ? `${this.name}.${this.overload_name}` : this.name;
  }

  argument(name: string): Argument | undefined {
    return this.arguments.find((a) => a.name === name);
  }
  argumentIndex(name: string): number {
    return this.arguments.findIndex((a) => a.name === name);
  }

  /** The argument named `self`, if any (torchgen SelfArgument). */
  selfArgument(): Argument | undefined {
    return this.arguments.find((a) => !a.kwarg_only && a.name === "self");
  }
  /** Positional arguments (before `*`). */
  positional(): Argument[] {
    return this.arguments.filter((a) => !a.kwarg_only);
  }
  /** Keyword-only arguments that are not out arguments (torchgen flat_kwarg_only). */
  kwargOnly(): Argument[] {
    const outs = new Set(this.outArguments());
    return this.arguments.filter((a) => a.kwarg_only && !outs.has(a));
  }
  /** torchgen Arguments.out: the keyword-only arguments from the first written one on. */
  outArguments(): Argument[] {
    const i = this.arguments.findIndex((a) => a.kwarg_only && a.is_write);
    return i < 0 ? [] : this.arguments.slice(i).filter((a) => a.kwarg_only);
  }
  /** Positional arguments after `self` (all of them when there is no self): torchgen post_self_positional. */
  postSelfPositional(): Argument[] {
    const pos = this.positional();
    const i = pos.findIndex((a) => a.name === "self");
    return i < 0 ? pos : pos.slice(i + 1);
  }

  /** c10 FunctionSchema::is_mutable: some argument is written. */
  isMutable(): boolean {
    return this.arguments.some((a) => a.is_write);
  }
  /** In-place: the name says so (`add_`, `__iadd__`) and self is written (`Tensor(a!) self`). */
  isInplace(): boolean {
    return this.operatorName.inplace && !!this.selfArgument()?.is_write;
  }
  /** torchgen is_out_fn: has out= arguments (keyword-only and written). */
  isOut(): boolean {
    return this.outArguments().length > 0;
  }
  /** `functional` in the overload name (torchgen is_functional_fn). */
  isFunctionalFn(): boolean {
    return this.overload_name.includes("functional");
  }

  /** torchgen FunctionSchema.kind(): inplace > scratch > out > mutable > functional. */
  kind(): SchemaKind {
    const outs = this.outArguments();
    if (this.operatorName.inplace) return "inplace";
    if (outs.some((a) => a.name.startsWith("_scratch_"))) return "scratch";
    if (outs.length > 0) return "out";
    if (this.postSelfPositional().some((a) => a.is_write)) return "mutable";
    return "functional";
  }

  /** torchgen str(FunctionSchema) (and c10's printing for `...`): the canonical text. */
  toString(): string {
    const parts: string[] = [];
    let seenKwarg = false;
    for (const a of this.arguments) {
      if (a.kwarg_only && !seenKwarg) {
        parts.push("*");
        seenKwarg = true;
      }
      parts.push(String(a));
    }
    if (this.is_vararg) parts.push("...");
    return `${this.fullName()}(${parts.join(", ")}) -> ${this.returnsString()}`;
  }

  /** The text after `->`: `Tensor`, `()`, `(Tensor values, Tensor indices)`, `...`. */
  returnsString(): string {
    const rets = this.returns.map(String);
    if (this.is_varret) return rets.length === 0 ? "..." : `(${[...rets, "..."].join(", ")})`;
    // A single return is bare unless it starts with '(' (a tuple type), which would read as a return list.
    if (rets.length === 1 && !rets[0].startsWith("(")) return rets[0];
    return `(${rets.join(", ")})`;
  }
}
