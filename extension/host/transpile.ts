// A cell's TypeScript -> the JavaScript the session runs, with a source map back to the cell.
//
// Cells share one session, like a REPL: what a cell declares at top level is visible to later cells
// and a cell can be run again. So before TypeScript strips the types, the top level is rewritten
// (with the compiler's own AST, in a `before` transformer) to keep its declarations in the session
// scope instead of the cell's own:
//
//   const x = 1, {a, b} = f();   ->  { const x = 1, {a, b} = f(); __gt.bind("const", { x, a, b }); }
//   var v = 2;                   ->  { let v = 2; __gt.bind("let", { v }); }
//   function g() {}              ->  kept (hoisted) and bound first: __gt.bind("let", { g });
//   class C {}                   ->  { class C {} __gt.bind("let", { C }); }
//   import * as torch from "glasstorch"           -> __gt.bind("const", { torch: await __gt.import("glasstorch") });
//   import { tensor, float32 as f } from "glasstorch"
//                                ->  { const __gt_m = await __gt.import("glasstorch"); __gt.bind("const", { tensor: __gt_m.tensor, f: __gt_m.float32 }); }
//   import("x")                  ->  __gt.import("x")
//   export const y = 1           ->  as `const y = 1` (exports have no meaning in a cell)
//   using r = open()             ->  kept: disposed at the end of the cell, not bound in the session
//   last expression statement e  ->  return e;       (the cell's value, as in a notebook)
//
// The session object (`__gt.scope`) is reached with `with`, so a later cell's `x` reads the session's
// binding; `const` bindings are accessors whose setter throws "Assignment to constant variable.", and
// running a cell again simply binds its names again. The body runs inside an async function, so
// top-level await works. Cost of the REPL semantics: the cell body is sloppy-mode code (class bodies
// stay strict), and a closure in a declaration's own initializer sees that declaration's value at
// the time it was made (`let n = 0, inc = () => n++` counts its own copy of n).

import ts from "typescript";

/** The parameter name the wrapper gives the host's session API inside a cell. */
export const HOST_PARAM = "__gt";

export interface TranspiledCell {
  /** The script the session runs: one prefix line, then the transpiled cell. */
  code: string;
  /** TypeScript's source map of the transpiled cell (sources: [fileName]); generated line 1 is script line 2. */
  sourceMap: string;
  /** Lines the prefix adds before the transpiled cell (subtract from script lines before mapping). */
  lineOffset: number;
  /** Top-level names the cell binds into the session. */
  declared: string[];
}

export interface TranspileDiagnostic {
  message: string;
  line: number; // 1-based
  column: number; // 1-based
}

export class CellSyntaxError extends Error {
  constructor(readonly diagnostics: TranspileDiagnostic[]) {
    super(diagnostics.map((d) => `${d.message} (${d.line}:${d.column})`).join("\n"));
    this.name = "SyntaxError";
  }
}

/**
 * Transpiles one cell. `fileName` is what the source map names as its source; `globalKey` is the
 * Symbol.for key under which the host keeps the session API the script reaches.
 */
export function transpileCell(source: string, fileName: string, globalKey: string): TranspiledCell {
  const declared: string[] = [];
  const out = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      sourceMap: true,
      inlineSources: true,
      removeComments: false,
      experimentalDecorators: false,
      useDefineForClassFields: true,
      verbatimModuleSyntax: false,
      isolatedModules: true,
    },
    transformers: { before: [replTransformer(declared)] },
  });
  const errors = (out.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new CellSyntaxError(errors.map(toDiagnostic));
  const js = out.outputText
    .replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n")
    .replace(/^export \{\};\s*$/m, "");
  const prefix =
    `(async function (${HOST_PARAM}) { with (${HOST_PARAM}.scope) {`;
  const suffix = `\n}}).call(undefined, globalThis[Symbol.for(${JSON.stringify(globalKey)})]);\n`;
  return { code: `${prefix}\n${js}${suffix}`, sourceMap: out.sourceMapText ?? "", lineOffset: 1, declared };
}

function toDiagnostic(d: ts.Diagnostic): TranspileDiagnostic {
  const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return { message, line: line + 1, column: character + 1 };
  }
  return { message, line: 1, column: 1 };
}

// ---------------------------------------------------------------------------------------------
// The top-level rewrite
// ---------------------------------------------------------------------------------------------

function replTransformer(declared: string[]): ts.TransformerFactory<ts.SourceFile> {
  return (context) => {
    const f = context.factory;

    const hostCall = (method: string, args: ts.Expression[]) =>
      f.createCallExpression(f.createPropertyAccessExpression(f.createIdentifier(HOST_PARAM), method), undefined, args);

    /** __gt.bind(kind, { a, b: expr }) */
    const bind = (kind: "const" | "let", props: [string, ts.Expression | null][]): ts.Statement => {
      for (const [name] of props) if (!declared.includes(name)) declared.push(name);
      const obj = f.createObjectLiteralExpression(
        props.map(([name, value]) =>
          value === null ? f.createShorthandPropertyAssignment(name) : f.createPropertyAssignment(f.createStringLiteral(name), value),
        ),
      );
      return f.createExpressionStatement(hostCall("bind", [f.createStringLiteral(kind), obj]));
    };

    const awaitImport = (specifier: ts.Expression) => f.createAwaitExpression(hostCall("import", [specifier]));

    /** import("x") anywhere in the cell: the session resolves it (a vm script has no module loader). */
    const visitDynamicImports = (node: ts.Node): ts.Node => {
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const args = node.arguments.map((a) => ts.visitNode(a, visitDynamicImports) as ts.Expression);
        return ts.setTextRange(hostCall("import", args.slice(0, 1)), node);
      }
      return ts.visitEachChild(node, visitDynamicImports, context);
    };

    const rewriteImport = (node: ts.ImportDeclaration): ts.Statement[] => {
      const clause = node.importClause;
      const spec = node.moduleSpecifier as ts.Expression;
      if (!clause) return [ts.setTextRange(f.createExpressionStatement(awaitImport(spec)), node)];
      if (clause.isTypeOnly) return [];
      const props: [string, ts.Expression | null][] = [];
      const m = f.createIdentifier("__gt_m");
      if (clause.name) props.push([clause.name.text, hostCall("defaultOf", [m])]);
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) props.push([nb.name.text, m]);
      if (nb && ts.isNamedImports(nb)) {
        for (const el of nb.elements) {
          if (el.isTypeOnly) continue;
          const imported = (el.propertyName ?? el.name).text;
          props.push([el.name.text, f.createPropertyAccessExpression(m, imported)]);
        }
      }
      const load = f.createVariableStatement(
        undefined,
        f.createVariableDeclarationList([f.createVariableDeclaration(m, undefined, undefined, awaitImport(spec))], ts.NodeFlags.Const),
      );
      return [ts.setTextRange(f.createBlock([ts.setTextRange(load, node), bind("const", props)], true), node)];
    };

    const withoutExport = <T extends ts.Node>(mods: ts.NodeArray<T> | undefined): T[] | undefined =>
      mods?.filter((m) => (m as ts.Node).kind !== ts.SyntaxKind.ExportKeyword && (m as ts.Node).kind !== ts.SyntaxKind.DefaultKeyword);

    const rewriteVariables = (node: ts.VariableStatement): ts.Statement[] => {
      if (node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) return [];
      const list = node.declarationList;
      // `using` / `await using` dispose at the end of their block: they stay the cell's own.
      if ((list.flags & ts.NodeFlags.Using) !== 0) return [ts.visitNode(node, visitDynamicImports) as ts.Statement];
      const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
      const names: string[] = [];
      for (const d of list.declarations) collectNames(d.name, names);
      // var -> let: a var would be hoisted to the wrapper function and shadow the session's binding.
      const flags = isConst ? ts.NodeFlags.Const : ts.NodeFlags.Let;
      const decls = list.declarations.map((d) => ts.visitNode(d, visitDynamicImports) as ts.VariableDeclaration);
      const newList = ts.setTextRange(f.createVariableDeclarationList(decls, flags), list);
      const stmt = ts.setTextRange(f.createVariableStatement(withoutExport(node.modifiers) as ts.Modifier[] | undefined, newList), node);
      ts.setOriginalNode(stmt, node);
      return [ts.setTextRange(f.createBlock([stmt, bind(isConst ? "const" : "let", names.map((n) => [n, null]))], true), node)];
    };

    const visitor = (source: ts.SourceFile): ts.SourceFile => {
      const hoisted: ts.Statement[] = [];
      const body: ts.Statement[] = [];
      const stmts = source.statements;
      // The last statement that is neither a declaration without value nor empty gives the cell's value.
      let lastIndex = stmts.length - 1;
      while (lastIndex >= 0 && ts.isEmptyStatement(stmts[lastIndex])) lastIndex--;
      stmts.forEach((node, i) => {
        if (ts.isImportDeclaration(node)) body.push(...rewriteImport(node));
        else if (ts.isImportEqualsDeclaration(node)) body.push(node);
        else if (ts.isVariableStatement(node)) body.push(...rewriteVariables(node));
        else if (ts.isFunctionDeclaration(node)) {
          const fn = ts.visitNode(node, visitDynamicImports) as ts.FunctionDeclaration;
          const updated = f.updateFunctionDeclaration(
            fn,
            withoutExport(fn.modifiers) as ts.ModifierLike[] | undefined,
            fn.asteriskToken,
            fn.name,
            fn.typeParameters,
            fn.parameters,
            fn.type,
            fn.body,
          );
          body.push(updated);
          if (node.name && node.body) hoisted.push(bind("let", [[node.name.text, null]]));
        } else if (ts.isClassDeclaration(node) && node.name) {
          const cls = ts.visitNode(node, visitDynamicImports) as ts.ClassDeclaration;
          const updated = f.updateClassDeclaration(
            cls,
            withoutExport(cls.modifiers) as ts.ModifierLike[] | undefined,
            cls.name,
            cls.typeParameters,
            cls.heritageClauses,
            cls.members,
          );
          body.push(ts.setTextRange(f.createBlock([updated, bind("let", [[node.name.text, null]])], true), node));
        } else if ((ts.isEnumDeclaration(node) || ts.isModuleDeclaration(node)) && ts.isIdentifier(node.name)) {
          if (node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) return;
          const name = node.name.text;
          const stripped = ts.isEnumDeclaration(node)
            ? f.updateEnumDeclaration(node, withoutExport(node.modifiers) as ts.ModifierLike[] | undefined, node.name, node.members)
            : f.updateModuleDeclaration(node, withoutExport(node.modifiers) as ts.ModifierLike[] | undefined, node.name, node.body);
          body.push(ts.setTextRange(f.createBlock([stripped, bind("let", [[name, null]])], true), node));
        } else if (ts.isExportDeclaration(node) || ts.isExportAssignment(node)) {
          if (ts.isExportAssignment(node)) body.push(ts.setTextRange(f.createExpressionStatement(node.expression), node));
        } else if (i === lastIndex && ts.isExpressionStatement(node)) {
          const expr = ts.visitNode(node.expression, visitDynamicImports) as ts.Expression;
          body.push(ts.setTextRange(f.createReturnStatement(expr), node));
        } else {
          body.push(ts.visitNode(node, visitDynamicImports) as ts.Statement);
        }
      });
      return f.updateSourceFile(source, [...hoisted, ...body]);
    };
    return visitor;
  };
}

function collectNames(name: ts.BindingName, into: string[]): void {
  if (ts.isIdentifier(name)) {
    into.push(name.text);
    return;
  }
  for (const el of name.elements) if (!ts.isOmittedExpression(el)) collectNames(el.name, into);
}
