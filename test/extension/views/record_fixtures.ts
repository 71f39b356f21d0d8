// Records the views' test fixtures from the real engine host (extension/dist/host.js):
//   node test/extension/views/record_fixtures.mjs   (after npm run build)
// Writes fixtures/trace_mul_sum_backward.json (a run's trace events) and fixtures/graph_mul_sum.json
// (GraphGet of (a*b).sum()). The unit tests replay them; re-record when the trace schema changes.

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { GraphGet, DispatchTable, OpList, GeneratedCode } from "../../../extension/host/protocol.js";
import { HostClient, until } from "../../support/host_client.js";

const out = (name: string) => resolve(import.meta.dirname, "fixtures", name);

const host = HostClient.start();
try {
  await host.initialize({ tracing: true });
  const code = [
    'import * as torch from "glasstorch";',
    "const a = torch.tensor([1.5, 2, 3], { requires_grad: true });",
    "const b = torch.tensor([4.5, 5, 6], { requires_grad: true });",
    "const y = (a.mul(b)).sum();",
    "y.backward();",
    "y",
  ].join("\n");
  const r = await host.run(code);
  if (r.status !== "ok") throw new Error(JSON.stringify(r.error));
  await until(() => host.traces.filter((t) => t.runId === r.runId).reduce((n, t) => n + t.events.length, 0) >= r.traceEvents, 5000, "trace events");
  const events = host.traces.filter((t) => t.runId === r.runId).flatMap((t) => t.events);
  writeFileSync(out("trace_mul_sum_backward.json"), JSON.stringify({ code, runId: r.runId, events }, null, 1) + "\n");
  const handle = (r.value as { handle: number }).handle;
  const graph = await host.connection.sendRequest(GraphGet, { handle, maxNodes: 100 });
  writeFileSync(out("graph_mul_sum.json"), JSON.stringify(graph, null, 1) + "\n");
  const table = await host.connection.sendRequest(DispatchTable, { op: "aten::mul.Tensor" });
  writeFileSync(out("dispatch_table_mul.json"), JSON.stringify(table, null, 1) + "\n");
  const gen = await host.connection.sendRequest(GeneratedCode, { op: "aten::mul.Tensor" });
  writeFileSync(out("generated_mul.json"), JSON.stringify(gen, null, 1) + "\n");
  const ops = await host.connection.sendRequest(OpList);
  console.log(`${events.length} events, ${graph.nodes.length} graph nodes, ${table.rows.length} table rows, ${gen.sections.length} sections, ${ops.ops.length} ops, backends ${ops.backends}`);
} finally {
  await host.dispose();
}
