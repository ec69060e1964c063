#!/usr/bin/env node
/**
 * `docs-assistant <command>`. Commands live in their own files; add one to `COMMANDS` to ship it.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { insightsCommand } from './cli/insights.js';
import { serveCommand } from './cli/serve.js';
import { type CliCommand, type CliIo, CliUsageError } from './cli/types.js';
import { mcpCommand } from './mcp/cli.js';
import { staticExportCliCommands } from './static-export/cli.js';

export type { CliCommand, CliIo } from './cli/types.js';
export { CliUsageError, parseFlags } from './cli/types.js';

/** The command table. Other commands (`export`, `serve-bundle`) are added here from their files. */
export const COMMANDS: Record<string, CliCommand> = {
  serve: serveCommand,
  // The search and get_page tools over stdio for a local docs folder: mcp/cli.ts.
  mcp: mcpCommand,
  // Reads a running service's insights API: cli/insights.ts.
  insights: insightsCommand,
  // `export` and `serve-bundle`: server/static-export/cli.ts.
  ...staticExportCliCommands,
};

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
  );
  return `Usage: docs-assistant <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "docs-assistant <command> --help" for a command's options.`;
}

const consoleIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** Runs the CLI with `argv` (without `node` and the script); resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo = consoleIo): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${overview()}`);
    return 2;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.err(`docs-assistant ${name}: ${error.message}\n\n${command.usage}`);
      return 2;
    }
    io.err(`docs-assistant ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/**
 * Whether this module is the program being run: `tsx src/cli.ts`, `node dist/cli.js`, or
 * `npx docs-assistant`, where argv[1] is npm's `.bin` symlink and Node runs the file it points to.
 */
function isMain(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  runCli(process.argv.slice(2)).then((code) => {
    if (code !== 0) process.exitCode = code;
  });
}
