// `npm start`: a Node REPL with `torch` loaded, for trying the engine by hand.
// (The VS Code workshop environment replaces this once the extension lands.)
import repl from "node:repl";
import * as torch from "../dist/engine/index.js";

console.log("Glasstorch — `torch` is loaded. Try: torch.manual_seed(0); torch.randn(2, 3)");
const r = repl.start({ prompt: "glasstorch> ", useGlobal: false });
r.context.torch = torch;
