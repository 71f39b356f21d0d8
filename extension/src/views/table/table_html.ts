// The Dispatch Table webview's content: for one operator, every runtime key with the kernel
// registered at it and the kernel the table computed for it (with provenance), the key that won
// for the selected trace call highlighted; and the ops x backends coverage matrix. Rendered as
// static HTML (no script in the page: nothing to message, nothing to validate). Its only links are
// command: URIs for the two commands the panel allows (enableCommandUris lists exactly those).

/** The commands the page may link to. */
export const TABLE_COMMANDS = ["glasstorch.openGeneratedCode", "glasstorch.showDispatchTable"] as const;

/** A command: URI with JSON arguments, as VS Code parses them. */
export function commandHref(command: (typeof TABLE_COMMANDS)[number], args: string[]): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
}

import type { DispatchTableResult, OpListResult } from "../../../host/protocol.js";
import { escapeHtml as h } from "../webview_html.js";

export function dispatchTableBody(t: DispatchTableResult, highlightKey?: string): string {
  const kernel = (k?: { name: string; provenance: string; location?: string }) =>
    k ? `<code>${h(k.name)}</code> <span class="prov">[${h(k.provenance)}]</span>${k.location ? `<div class="loc">${h(k.location)}</div>` : ""}` : `<span class="none">—</span>`;
  const rows = t.rows
    .map((r) => {
      const won = r.key === highlightKey;
      return `<tr data-key="${h(r.key)}"${won ? ' class="won" aria-current="true"' : ""}><th scope="row">${h(r.key)}${won ? ' <span class="badge">chosen</span>' : ""}</th><td>${kernel(r.registered)}</td><td>${kernel(r.computed)}</td></tr>`;
    })
    .join("\n");
  return [
    `<h1>${h(t.op)}</h1>`,
    `<p><a href="${h(commandHref("glasstorch.openGeneratedCode", [t.op]))}">Open its generated code</a></p>`,
    `<p class="schema"><code>${h(t.schema)}</code></p>`,
    highlightKey ? `<p>The selected call dispatched to <strong>${h(highlightKey)}</strong>.</p>` : "",
    `<table class="dispatch"><thead><tr><th>key</th><th>registered kernel</th><th>computed (dispatch table)</th></tr></thead><tbody>`,
    rows,
    `</tbody></table>`,
    `<details><summary>torch._C._dispatch_dump_table</summary><pre>${h(t.dumpTable)}</pre></details>`,
  ].join("\n");
}

/** The ops x backends matrix; `filter` keeps ops whose name contains it. Rows are capped. */
export function coverageBody(list: OpListResult, filter = "", maxRows = 2000): string {
  const ops = list.ops.filter((o) => `${o.name}.${o.overload}`.includes(filter));
  const shown = ops.slice(0, maxRows);
  const head = `<tr><th>operator</th>${list.backends.map((b) => `<th>${h(b)}</th>`).join("")}<th>Autograd</th></tr>`;
  const rows = shown
    .map((o) => {
      const name = o.overload ? `${o.name}.${o.overload}` : o.name;
      const cells = list.backends.map((b) => (o.backends.includes(b) ? `<td class="yes" title="${h(`${name} @ ${b}`)}">●</td>` : `<td class="no"></td>`)).join("");
      return `<tr><th scope="row"><a href="${h(commandHref("glasstorch.showDispatchTable", [name]))}"><code>${h(name)}</code></a></th>${cells}<td class="${o.hasAutograd ? "yes" : "no"}">${o.hasAutograd ? "●" : ""}</td></tr>`;
    })
    .join("\n");
  const counts = list.backends.map((b) => `${h(b)}: ${ops.filter((o) => o.backends.includes(b)).length}`).join(", ");
  return [
    `<h1>Operator coverage</h1>`,
    `<p>${ops.length} operators${filter ? ` matching “${h(filter)}”` : ""}; with a kernel — ${counts}.${ops.length > shown.length ? ` Showing the first ${shown.length}.` : ""}</p>`,
    `<table class="coverage"><thead>${head}</thead><tbody>`,
    rows,
    `</tbody></table>`,
  ].join("\n");
}
