// Starts the TUI from sources for tests/e2e/tui.sh while the lead has not yet wired `registerTuiCommand`
// into program.ts or added the edit tools to the registry: it runs runTui directly with the registry's
// tools plus edit_lines. Once both are wired, tui-tmux.test.ts uses src/main/cli/entry.ts instead.
import { runTui } from "../../src/ui/run-tui.js";
import { FatalError, IpuaroError } from "../../src/main/errors.js";
import { editLines } from "../../src/main/tools/edit-lines.js";
import { TOOLS, ToolRegistry } from "../../src/main/tools/registry.js";

const target = process.argv[2] ?? ".";
const tools = TOOLS.some((t) => t.name === editLines.name) ? TOOLS : [...TOOLS, editLines];

runTui(target, { registry: new ToolRegistry(tools) })
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    if (err instanceof FatalError) {
      process.stderr.write(`ipuaro: ${err.message}\n`);
      process.exit(err.exitCode);
    }
    if (err instanceof IpuaroError) process.stderr.write(`ipuaro: ${err.type} error: ${err.message}\n`);
    else process.stderr.write(`ipuaro: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
