// `npm run repl`: a Node REPL with `torch` loaded, for trying the engine by hand.
// (`npm start` serves VS Code with the extension instead.)
import repl from "node:repl";
import * as torch from "../dist/engine/index.js";

console.log("Glasstorch — `torch` is loaded. Try: torch.manual_seed(0); torch.randn(2, 3)");
const r = repl.start({ prompt: "glasstorch> ", useGlobal: false });
r.context.torch = torch;
