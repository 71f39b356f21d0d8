// The webviews' security pieces: the CSP every page gets, the page shell, and the graph view's
// message validators (both directions).

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { GraphGetResult } from "../../../extension/host/protocol.js";
import { buildCsp, escapeHtml, makeNonce, page } from "../../../extension/src/views/webview_html.js";
import { parseFromGraphView, parseToGraphView } from "../../../extension/webview/graph/messages.js";

const graph = JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures/graph_mul_sum.json"), "utf8")) as GraphGetResult;
const SRC = "https://file+.vscode-resource.vscode-cdn.net";

describe("CSP and page shell", () => {
  it("allows nothing by default, scripts only with the nonce, styles only from the extension", () => {
    const csp = buildCsp(SRC, "abc123");
    const directives = Object.fromEntries(csp.replace(/;$/, "").split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives["default-src"]).toBe("'none'");
    expect(directives["script-src"]).toBe("'nonce-abc123'");
    expect(directives["style-src"]).toBe(SRC);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:\/\/(?!file\+)/);
    expect(buildCsp(SRC)).not.toContain("script-src");
  });

  it("makes a fresh 128-bit nonce each time", () => {
    const a = makeNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(makeNonce()).not.toBe(a);
    expect(makeNonce((b) => b.fill(255))).toBe("/////////////////////w==");
  });

  it("puts the nonce on every script and escapes what it is given", () => {
    const html = page({ title: "<x>", cspSource: SRC, nonce: "n1", styles: [`${SRC}/a.css`], scripts: [`${SRC}/g.js`], body: "<p>hi</p>" });
    expect(html).toContain('<script nonce="n1" src="https://file+.vscode-resource.vscode-cdn.net/g.js"></script>');
    expect(html).toContain("<title>&lt;x&gt;</title>");
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`content="default-src 'none'; style-src ${SRC};`.replace(/'/g, "&#39;"));
    expect(() => page({ title: "t", cspSource: SRC, styles: [], scripts: ["x.js"], body: "" })).toThrow("nonce");
    expect(escapeHtml(`<img src=x onerror="a">&'`)).toBe("&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;");
  });
});

describe("graph view messages", () => {
  it("accepts what the extension sends and rejects malformed graphs", () => {
    const ok = { type: "graph", title: "Cell 1's value", graph, readOnly: false };
    expect(parseToGraphView(ok)).toEqual(ok);
    expect(parseToGraphView({ type: "empty", message: "nothing" })).toEqual({ type: "empty", message: "nothing" });
    const bad = (g: unknown) => parseToGraphView({ ...ok, graph: g });
    expect(bad({ ...graph, nodes: [{ ...graph.nodes[0], id: "1" }] })).toBeUndefined();
    expect(bad({ ...graph, edges: [{ from: 1, to: 2 }] })).toBeUndefined();
    expect(bad({ ...graph, nodes: [{ ...graph.nodes[0], saved: [{ name: "x", shape: [1.5], dtype: "f", version: 0 }] }] })).toBeUndefined();
    expect(bad({ ...graph, root: "1" })).toBeUndefined();
    expect(parseToGraphView({ ...ok, readOnly: "no" })).toBeUndefined();
    expect(parseToGraphView({ type: "script", code: "alert(1)" })).toBeUndefined();
    expect(parseToGraphView(null)).toBeUndefined();
    expect(parseToGraphView([ok])).toBeUndefined();
  });

  it("accepts only the webview's three messages, well-formed", () => {
    expect(parseFromGraphView({ type: "ready" })).toEqual({ type: "ready" });
    expect(parseFromGraphView({ type: "select", node: 3, extra: "dropped" })).toEqual({ type: "select", node: 3 });
    expect(parseFromGraphView({ type: "select", node: "3" })).toBeUndefined();
    expect(parseFromGraphView({ type: "select", node: 1.5 })).toBeUndefined();
    expect(parseFromGraphView({ type: "svg", svg: "<svg></svg>" })).toEqual({ type: "svg", svg: "<svg></svg>" });
    expect(parseFromGraphView({ type: "svg", svg: "<html>" })).toBeUndefined();
    expect(parseFromGraphView({ type: "run", code: "process.exit()" })).toBeUndefined();
    expect(parseFromGraphView("ready")).toBeUndefined();
  });
});
