#!/usr/bin/env node
// The `glasstorch` command. Thin on purpose: the commands live in the compiled engine (dist/engine/cli).

const USAGE = `Usage: glasstorch <command> [options]

Commands:
  trace <file.ts | file.nb.ts>   run a script and print its dispatch trace as a tree

Run 'glasstorch trace --help' for the options.
`;

const [command, ...rest] = process.argv.slice(2);
if (command === "trace") {
  let cli;
  try {
    cli = await import("../dist/engine/cli/trace_command.js");
  } catch (e) {
    if (e?.code !== "ERR_MODULE_NOT_FOUND" || !String(e.message).includes("trace_command.js")) throw e;
    process.stderr.write("glasstorch: dist/ is missing; build the package first (npm run build)\n");
    process.exit(2);
  }
  process.exitCode = await cli.traceCommand(rest);
} else if (command === undefined || command === "-h" || command === "--help" || command === "help") {
  process.stdout.write(USAGE);
  if (command === undefined) process.exitCode = 2;
} else {
  process.stderr.write(`glasstorch: unknown command '${command}'\n\n${USAGE}`);
  process.exitCode = 2;
}
