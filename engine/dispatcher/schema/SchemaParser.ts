// The schema language parser: a hand-written lexer + recursive descent over
//   name[.overload](Type name=default, *, Type(a!) out) -> (Type name, ...)
// Grammar and acceptance follow torch/csrc/jit/frontend/function_schema_parser.cpp and schema_type_parser.cpp
// (the JIT's parser, torch._C.parse_schema); the model and its printing follow torchgen/model.py.
// Errors carry 1-based line/column (in the original file when `origin` says where the text came from) and a
// caret excerpt; every argument and return keeps its source spans for editor navigation.

import {
  AliasInfo,
  Argument,
  BaseType,
  CustomClassType,
  DEFAULT_IDENTIFIERS,
  DictType,
  FunctionSchema,
  FutureType,
  isBaseTypeName,
  ListType,
  OptionalType,
  Return,
  RRefType,
  TupleType,
  UnionType,
  VarType,
  type DefaultIdentifier,
  type DefaultValue,
  type SchemaType,
  type SourcePos,
  type SourceSpan,
} from "./FunctionSchema.js";

/** Where the schema text sits in a file: its first character is at (line, column), both 1-based. */
export interface SchemaOrigin {
  file?: string;
  line?: number;
  column?: number;
}

export class SchemaParseError extends Error {
  /** What went wrong, without position or excerpt: `expected ')' but found '->'`. */
  readonly reason: string;
  readonly file?: string;
  readonly line: number;
  readonly column: number;
  /** 0-based offset into the schema text, and the length of the offending token (at least 1). */
  readonly offset: number;
  readonly length: number;
  /** The source line with a caret under the offending token. */
  readonly excerpt: string;

  /** Also usable by later stages (codegen) to report a problem at a place in a schema's text. */
  constructor(reason: string, source: string, offset: number, length = 1, origin?: SchemaOrigin) {
    const map = new PositionMap(source, origin);
    const pos = map.pos(offset);
    const where = `${map.file ? map.file + ":" : ""}${pos.line}:${pos.column}`;
    const excerpt = caretExcerpt(source, offset, length);
    super(`${reason} at ${where}\n${excerpt}`);
    this.name = "SchemaParseError";
    this.reason = reason;
    this.file = map.file;
    this.line = pos.line;
    this.column = pos.column;
    this.offset = offset;
    this.length = Math.max(1, length);
    this.excerpt = excerpt;
  }
}

function caretExcerpt(source: string, offset: number, length: number): string {
  const lineStart = source.lastIndexOf("\n", offset - 1) + 1;
  let lineEnd = source.indexOf("\n", offset);
  if (lineEnd < 0) lineEnd = source.length;
  const line = source.slice(lineStart, lineEnd);
  const col = offset - lineStart;
  const width = Math.max(1, Math.min(length, lineEnd - offset));
  return `  ${line}\n  ${" ".repeat(col)}^${"~".repeat(width - 1)}`;
}

/** Offsets in the schema text -> line/column in the original file. */
class PositionMap {
  private readonly lineStarts: number[] = [0];
  readonly file?: string;
  private readonly line0: number;
  private readonly col0: number;

  constructor(source: string, origin?: SchemaOrigin) {
    for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    this.file = origin?.file;
    this.line0 = origin?.line ?? 1;
    this.col0 = origin?.column ?? 1;
  }

  pos(offset: number): SourcePos {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    const column = offset - this.lineStarts[lo] + 1;
    // Only the first line of the text starts mid-line in the file.
    return { offset, line: this.line0 + lo, column: lo === 0 ? this.col0 + column - 1 : column };
  }

  span(start: number, end: number): SourceSpan {
    const s: { file?: string; start: SourcePos; end: SourcePos } = { start: this.pos(start), end: this.pos(end) };
    if (this.file !== undefined) s.file = this.file;
    return s;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Lexer (torch/csrc/jit/frontend/lexer.h, reduced to the tokens a schema uses)

type TokKind = "ident" | "keyword" | "number" | "string" | "punct" | "eof";

interface Token {
  readonly kind: TokKind;
  /** For punct: the punctuation (`(`, `->`, `...`); for others the source text. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Words the JIT lexer turns into keyword tokens, so they cannot name an argument. */
const KEYWORDS = new Set([
  "def", "if", "else", "elif", "while", "return", "is", "and", "or", "not", "global", "for", "in", "raise",
  "assert", "break", "continue", "del", "pass", "class", "import", "with", "as", "Ellipsis",
  "True", "False", "None",
]); // prettier-ignore

const PUNCT = new Set(["(", ")", "[", "]", ",", "*", "?", "!", "|", "=", ":", ".", "-"]);

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}

class Lexer {
  private pos = 0;
  private readonly buffered: Token[] = [];

  constructor(
    private readonly src: string,
    private readonly fail: (reason: string, offset: number, length: number) => never,
  ) {}

  peek(k = 0): Token {
    while (this.buffered.length <= k) this.buffered.push(this.lex());
    return this.buffered[k];
  }
  /** End offset of the last token consumed: where the construct being parsed ends. */
  lastEnd = 0;

  next(): Token {
    const t = this.peek();
    this.buffered.shift();
    this.lastEnd = t.end;
    return t;
  }

  private lex(): Token {
    const s = this.src;
    let i = this.pos;
    // whitespace, newlines and `#` comments (the JIT skips comments too)
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12) i++;
      else if (c === 35) while (i < s.length && s.charCodeAt(i) !== 10) i++;
      else break;
    }
    const start = i;
    if (i >= s.length) {
      this.pos = i;
      return { kind: "eof", text: "", start, end: start };
    }
    const c = s.charCodeAt(i);
    const tok = (kind: TokKind, end: number, text = s.slice(start, end)): Token => {
      this.pos = end;
      return { kind, text, start, end };
    };
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < s.length && isIdentPart(s.charCodeAt(j))) j++;
      const word = s.slice(i, j);
      return tok(KEYWORDS.has(word) ? "keyword" : "ident", j);
    }
    // numbers as strtod reads them, without sign (the JIT lexes `-` separately): 1, 1., .5, 1e-05
    if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))) {
      let j = i;
      while (isDigit(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) === 46) {
        j++;
        while (isDigit(s.charCodeAt(j))) j++;
      }
      const e = s.charCodeAt(j);
      if (e === 101 || e === 69) {
        let k = j + 1;
        if (s[k] === "+" || s[k] === "-") k++;
        if (isDigit(s.charCodeAt(k))) {
          while (isDigit(s.charCodeAt(k))) k++;
          j = k;
        }
      }
      return tok("number", j);
    }
    if (c === 34 || c === 39) return tok("string", this.stringEnd(i));
    if (s.startsWith("->", i)) return tok("punct", i + 2);
    if (s.startsWith("...", i)) return tok("punct", i + 3);
    const ch = s[i];
    if (PUNCT.has(ch)) return tok("punct", i + 1);
    return this.fail(`unexpected character '${ch}'`, i, 1);
  }

  /** End offset of the string literal at i: `"..."`, `'...'` or triple-quoted, with backslash escapes. */
  private stringEnd(i: number): number {
    const s = this.src;
    const q = s[i];
    const ql = s.startsWith(q + q + q, i) ? 3 : 1;
    const close = q.repeat(ql);
    let j = i + ql;
    while (j < s.length && !s.startsWith(close, j)) {
      if (s[j] === "\n" && ql === 1) break;
      if (s[j] === "\\") j++;
      j++;
    }
    if (j >= s.length || !s.startsWith(close, j)) this.fail("unterminated string literal", i, 1);
    return j + ql;
  }
}

/** The value of a string literal token (parse_string_literal.h): the JIT's escapes, octal `\nnn`, no hex/unicode. */
function stringValue(text: string, fail: (reason: string) => never): string {
  const ql = text.length >= 6 && text[0] === text[1] && text[1] === text[2] ? 3 : 1;
  const body = text.slice(ql, text.length - ql);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = body[i + 1];
    i++;
    switch (e) {
      case "\\":
      case "'":
      case '"':
      case "\n":
        out += e;
        break;
      case "a":
        out += "\x07";
        break;
      case "b":
        out += "\b";
        break;
      case "f":
        out += "\f";
        break;
      case "n":
        out += "\n";
        break;
      case "v":
        out += "\v";
        break;
      case "t":
        out += "\t";
        break;
      case "x":
        return fail("unsupported hex specifier");
      case "u":
      case "U":
        return fail("unsupported unicode specifier");
      default: {
        const oct = body.slice(i, i + 3);
        if (/^[0-7]{3}$/.test(oct) && parseInt(oct, 8) < 256) {
          out += String.fromCharCode(parseInt(oct, 8));
          i += 2;
        } else {
          return fail("ill formed octal specifier");
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Parser

/** How the JIT treats a type when reading its default (FunctionSchemaParser::parseDefaultValue). */
type DefaultClass = "noneOnly" | "scalar" | "float" | "device" | "list" | "unsupported";

function defaultClass(t: SchemaType): DefaultClass {
  switch (t.kind) {
    case "optional":
      return "scalar";
    case "list":
      return "list";
    case "base":
      switch (t.name) {
        case "Tensor":
        case "Generator":
          return "noneOnly";
        case "float":
          return "float";
        case "Device":
          return "device";
        case "int":
        case "SymInt":
        case "bool":
        case "str":
        case "Dimname":
        case "Scalar":
        case "number":
        case "ScalarType":
        case "Layout":
        case "MemoryFormat":
        case "ConstQuantizerPtr":
          return "scalar";
        default:
          return "unsupported";
      }
    default:
      return "unsupported";
  }
}

/** The element class of a list default: the JIT converts lists of float, int (incl. enums) and bool only. */
function listElemClass(t: SchemaType): "int" | "float" | "bool" | null {
  if (t.kind !== "base") return null;
  switch (t.name) {
    case "float":
      return "float";
    case "bool":
      return "bool";
    case "int":
    case "SymInt":
    case "ScalarType":
    case "Layout":
    case "MemoryFormat":
    case "ConstQuantizerPtr":
      return "int";
    default:
      return null;
  }
}

const INT64_MAX = (1n << 63n) - 1n;

function describe(t: Token): string {
  switch (t.kind) {
    case "eof":
      return "end of input";
    case "ident":
      return `identifier '${t.text}'`;
    case "number":
      return `number '${t.text}'`;
    case "string":
      return `string ${t.text}`;
    default:
      return `'${t.text}'`;
  }
}

class Parser {
  private readonly L: Lexer;
  private readonly map: PositionMap;
  private freshId = 0;

  constructor(
    private readonly src: string,
    private readonly origin?: SchemaOrigin,
  ) {
    this.map = new PositionMap(src, origin);
    this.L = new Lexer(src, (reason, offset, length) => this.failAt(reason, offset, length));
  }

  failAt(reason: string, offset: number, length: number): never {
    throw new SchemaParseError(reason, this.src, offset, length, this.origin);
  }
  private failTok(reason: string, t: Token): never {
    return this.failAt(reason, t.start, t.end - t.start);
  }
  private unexpected(expected: string, t = this.L.peek()): never {
    return this.failTok(`expected ${expected} but found ${describe(t)}`, t);
  }

  private isPunct(p: string, k = 0): boolean {
    const t = this.L.peek(k);
    return t.kind === "punct" && t.text === p;
  }
  private nextIf(p: string): Token | null {
    return this.isPunct(p) ? this.L.next() : null;
  }
  private expect(p: string): Token {
    return this.nextIf(p) ?? this.unexpected(`'${p}'`);
  }
  private expectIdent(what = "an identifier"): Token {
    const t = this.L.peek();
    if (t.kind !== "ident") {
      if (t.kind === "keyword") this.failTok(`expected ${what} but found keyword '${t.text}'`, t);
      this.unexpected(what, t);
    }
    return this.L.next();
  }
  private span(start: number, end: number): SourceSpan {
    return this.map.span(start, end);
  }

  // schema := name ('.' overload)? '(' arguments ')' '->' returns EOF
  parseSchema(): FunctionSchema {
    const first = this.L.peek();
    const nameTok = this.expectIdent("an operator name");
    let name = nameTok.text;
    let nameEnd = nameTok.end;
    if (this.nextIf(":")) {
      this.expect(":");
      const t = this.expectIdent("an operator name");
      name += "::" + t.text;
      nameEnd = t.end;
    }
    let overload = "";
    let overloadSpan: SourceSpan | undefined;
    if (this.nextIf(".")) {
      const t = this.expectIdent("an overload name");
      overload = t.text;
      overloadSpan = this.span(t.start, t.end);
      // `default` names the empty overload in torch.ops, and dunders are Python attributes (parseName).
      if (overload === "default" || overload.startsWith("__"))
        this.failTok(`${overload} is not a legal overload name for aten operators`, t);
    }

    const args: Argument[] = [];
    let kwargOnly = false;
    let isVararg = false;
    this.expect("(");
    if (!this.isPunct(")")) {
      do {
        if (isVararg) this.failTok("... must be the last element of the argument list", this.L.peek());
        if (this.nextIf("*")) kwargOnly = true;
        else if (this.nextIf("...")) isVararg = true;
        else args.push(this.parseArgument(kwargOnly));
      } while (this.nextIf(","));
    }
    this.expect(")");
    if (!this.isPunct("->")) this.unexpected("'->'");
    this.L.next();

    const returns: Return[] = [];
    let isVarret = false;
    const retStart = this.L.peek().start;
    if (this.nextIf("...")) {
      isVarret = true;
    } else if (this.nextIf("(")) {
      if (!this.isPunct(")")) {
        do {
          if (isVarret) this.failTok("... must be the last element of the return list", this.L.peek());
          if (this.nextIf("...")) isVarret = true;
          else returns.push(this.parseReturn());
        } while (this.nextIf(","));
      }
      this.expect(")");
    } else {
      returns.push(this.parseReturn());
    }
    const end = this.L.lastEnd;
    const eof = this.L.peek();
    if (eof.kind !== "eof") this.unexpected("end of input", eof);

    return new FunctionSchema({
      name,
      overload_name: overload,
      arguments: args,
      returns,
      is_vararg: isVararg,
      is_varret: isVarret,
      span: this.span(first.start, end),
      nameSpan: this.span(nameTok.start, nameEnd),
      overloadSpan,
      returnsSpan: this.span(retStart, end),
    });
  }

  parseStandaloneType(): SchemaType {
    const { type } = this.parseFullType();
    const eof = this.L.peek();
    if (eof.kind !== "eof") this.unexpected("end of input", eof);
    return type;
  }

  /** type ('[' N ']' alias? '?'?)? — the fixed size only at the outermost list (parseArgument). */
  private parseFullType(): { type: SchemaType; N: number | null; start: number; end: number } {
    const start = this.L.peek().start;
    let type = this.parseType();
    let N: number | null = null;
    if (this.nextIf("[")) {
      const t = this.L.peek();
      if (t.kind !== "number") this.unexpected("a list size", t);
      if (!/^[0-9]+$/.test(t.text)) this.failTok(`list size must be an integer, got '${t.text}'`, t);
      this.L.next();
      N = Number(t.text);
      this.expect("]");
      type = new ListType(type, N, this.parseAlias());
      if (this.nextIf("?")) type = new OptionalType(type);
    }
    return { type, N, start, end: this.L.lastEnd };
  }

  private parseArgument(kwargOnly: boolean): Argument {
    const { type, N, start, end: typeEnd } = this.parseFullType();
    const nameTok = this.expectIdent("an argument name");
    let def: string | null = null;
    let value: DefaultValue | null = null;
    let defaultSpan: SourceSpan | undefined;
    if (this.nextIf("=")) {
      const dStart = this.L.peek().start;
      value = this.parseDefault(type, N);
      def = this.src.slice(dStart, this.L.lastEnd);
      defaultSpan = this.span(dStart, this.L.lastEnd);
    }
    return new Argument({
      name: nameTok.text,
      type,
      N,
      default: def,
      default_value: value,
      kwarg_only: kwargOnly,
      span: this.span(start, this.L.lastEnd),
      typeSpan: this.span(start, typeEnd),
      nameSpan: this.span(nameTok.start, nameTok.end),
      defaultSpan,
    });
  }

  private parseReturn(): Return {
    const { type, start, end: typeEnd } = this.parseFullType();
    let nameSpan: SourceSpan | undefined;
    let name: string | null = null;
    const t = this.L.peek();
    if (t.kind === "ident") {
      this.L.next();
      name = t.text;
      nameSpan = this.span(t.start, t.end);
    }
    return new Return({
      name,
      type,
      span: this.span(start, this.L.lastEnd),
      typeSpan: this.span(start, typeEnd),
      nameSpan,
    });
  }

  // type := atom ('[' ']' alias? | '?')*
  private parseType(): SchemaType {
    let type = this.parseAtom();
    for (;;) {
      if (this.isPunct("[") && this.isPunct("]", 1)) {
        this.L.next();
        this.L.next();
        type = new ListType(type, null, this.parseAlias());
      } else if (this.isPunct("?")) {
        this.L.next();
        type = new OptionalType(type);
      } else {
        return type;
      }
    }
  }

  private parseTypeList(): SchemaType[] {
    const types: SchemaType[] = [];
    this.expect("(");
    if (!this.isPunct(")")) {
      do types.push(this.parseType());
      while (this.nextIf(","));
    }
    this.expect(")");
    return types;
  }

  private parseAtom(): SchemaType {
    const t = this.L.peek();
    if (t.kind === "punct" && t.text === "(") return new TupleType(this.parseTypeList());
    if (t.kind === "keyword" && t.text === "None") {
      this.L.next();
      return new BaseType("None", this.parseAlias());
    }
    if (t.kind !== "ident") return this.unexpected("a type", t);
    const word = t.text;
    this.L.next();
    switch (word) {
      case "Future":
      case "RRef": {
        this.expect("(");
        const elem = this.parseType();
        this.expect(")");
        return word === "Future" ? new FutureType(elem) : new RRefType(elem);
      }
      case "Dict": {
        this.expect("(");
        const key = this.parseType();
        this.expect(",");
        const value = this.parseType();
        this.expect(")");
        return new DictType(key, value, this.parseAlias());
      }
      case "Union":
        return new UnionType(this.parseTypeList());
      case "__torch__": {
        // __torch__.torch.classes.<ns>.<Name>
        for (const part of ["torch", "classes"]) {
          this.expect(".");
          const p = this.expectIdent(`'${part}'`);
          if (p.text !== part) this.failTok(`Expected classes namespace but got ${p.text}`, p);
        }
        this.expect(".");
        const ns = this.expectIdent("a namespace");
        this.expect(".");
        const cls = this.expectIdent("a class name");
        return new CustomClassType(`${ns.text}.${cls.text}`);
      }
    }
    if (isBaseTypeName(word)) return new BaseType(word, this.parseAlias());
    // Lower-case names that are no type are type variables (`t`), as in the JIT.
    if (/^[a-z]/.test(word)) return new VarType(word, this.parseAlias());
    return this.failTok(`unknown type '${word}'`, t);
  }

  // alias := '(' sets '!'? ('->' sets)? ')' | '!'      sets := ('*' | ident) ('|' ('*' | ident))*
  private parseAlias(): AliasInfo | null {
    if (this.isPunct("!")) {
      this.L.next();
      return new AliasInfo([`$${this.freshId++}`], true, null, true);
    }
    if (!this.isPunct("(")) return null;
    this.L.next();
    const before = this.parseAliasSets();
    const write = !!this.nextIf("!");
    let after: string[] | null = null;
    if (this.nextIf("->")) after = this.parseAliasSets();
    this.expect(")");
    return new AliasInfo(before, write, after);
  }

  private parseAliasSets(): string[] {
    const sets: string[] = [];
    do {
      if (this.nextIf("*")) sets.push("*");
      else sets.push(this.expectIdent("an alias set name").text);
    } while (this.nextIf("|"));
    return sets;
  }

  // ---- defaults

  private parseDefault(type: SchemaType, N: number | null): DefaultValue {
    const t = this.L.peek();
    switch (defaultClass(type)) {
      case "noneOnly":
        if (t.kind === "keyword" && t.text === "None") {
          this.L.next();
          return { kind: "none" };
        }
        return this.unexpected("None", t);
      case "scalar":
        return this.parseConstant(false);
      case "float":
        return this.parseConstant(true);
      case "device": {
        if (t.kind !== "string") return this.unexpected("a device string", t);
        this.L.next();
        return { kind: "device", value: this.stringOf(t) };
      }
      case "list": {
        const list = type as ListType;
        const elem = listElemClass(list.elem);
        if (t.kind === "ident") {
          // the JIT reads an identifier here as a Tensor default: only None would do
          return this.unexpected("None", t);
        }
        if (N !== null && !this.isPunct("[")) {
          const v = this.listElement(elem, list, t);
          return { kind: "list", elements: Array.from({ length: N }, () => v), broadcast: true };
        }
        const open = this.expect("[");
        if (elem === null) this.failTok(`lists are only supported for float, int and bool types`, open);
        const elements: DefaultValue[] = [];
        if (!this.isPunct("]")) {
          do elements.push(this.listElement(elem, list, this.L.peek()));
          while (this.nextIf(","));
        }
        this.expect("]");
        return { kind: "list", elements, broadcast: false };
      }
      case "unsupported":
        return this.failTok(`default values are not supported for type '${type}'`, t);
    }
  }

  private listElement(elem: "int" | "float" | "bool" | null, list: ListType, t: Token): DefaultValue {
    if (elem === null) return this.failTok(`lists are only supported for float, int and bool types`, t);
    const v = this.parseConstant(elem === "float");
    const ok =
      elem === "bool" ? v.kind === "bool" : elem === "float" ? v.kind === "float" : v.kind === "int" || v.kind === "enum";
    if (!ok) this.failTok(`expected ${elem === "int" ? "an int" : `a ${elem}`} in the default of ${list}`, t);
    return v;
  }

  /** FunctionSchemaParser::parseSingleConstant: True/False/None, a string, an enum name, or a signed number. */
  private parseConstant(isFloat: boolean): DefaultValue {
    const t = this.L.peek();
    if (t.kind === "keyword" && (t.text === "True" || t.text === "False" || t.text === "None")) {
      this.L.next();
      return t.text === "None" ? { kind: "none" } : { kind: "bool", value: t.text === "True" };
    }
    if (t.kind === "string") {
      this.L.next();
      return { kind: "str", value: this.stringOf(t) };
    }
    if (t.kind === "ident") {
      if (!Object.prototype.hasOwnProperty.call(DEFAULT_IDENTIFIERS, t.text))
        return this.failTok(`invalid default value '${t.text}'`, t);
      this.L.next();
      const name = t.text as DefaultIdentifier;
      return { kind: "enum", name, ...DEFAULT_IDENTIFIERS[name] };
    }
    const neg = this.nextIf("-");
    const n = this.L.peek();
    if (n.kind !== "number") return this.unexpected(neg ? "a number" : "a default value", n);
    this.L.next();
    const text = (neg ? "-" : "") + n.text;
    if (isFloat || /[.eE]/.test(n.text)) return { kind: "float", value: Number(text) };
    const big = BigInt(text);
    if (big > INT64_MAX || big < -INT64_MAX - 1n) return this.failTok(`integer default ${text} is out of range for int64`, n);
    return { kind: "int", value: Number.isSafeInteger(Number(big)) ? Number(big) : big };
  }

  private stringOf(t: Token): string {
    return stringValue(t.text, (reason) => this.failTok(reason, t));
  }
}

/**
 * Parses one operator schema. `origin` places the text in a file (the first character's 1-based line and
 * column), so positions on the result and in errors are file positions. Throws SchemaParseError.
 */
export function parseSchema(text: string, origin?: SchemaOrigin): FunctionSchema {
  return new Parser(text, origin).parseSchema();
}

/** Parses a type alone (`Tensor(a!)?`, `int[2]`), e.g. for tools that show or compare types. */
export function parseType(text: string, origin?: SchemaOrigin): SchemaType {
  return new Parser(text, origin).parseStandaloneType();
}
