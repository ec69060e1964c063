/** The CLI's command table: each command lives in its own file and is listed in `src/cli.ts`. */

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface CliCommand {
  /** One line for the command list. */
  summary: string;
  /** Full help text, shown by `docs-assistant <command> --help`. */
  usage: string;
  /**
   * Runs the command. Resolves with the exit code for commands that finish; long-running ones
   * (servers) resolve once started and keep the process alive themselves.
   */
  run: (args: string[], io: CliIo) => Promise<number>;
}

/** A usage mistake: printed with the command's usage, exit code 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

export interface FlagSpec {
  /** Flags that take a value (`--port 8787` or `--port=8787`). */
  values?: readonly string[];
  /** Flags that take none (`--help`). */
  booleans?: readonly string[];
  /** Flags that may be given more than once; their values are collected. */
  repeatable?: readonly string[];
}

export interface ParsedFlags {
  values: Record<string, string[]>;
  booleans: Set<string>;
}

/** Parses `--flag value`, `--flag=value` and `--bool`; unknown flags and stray words are errors. */
export function parseFlags(args: string[], spec: FlagSpec): ParsedFlags {
  const values: Record<string, string[]> = {};
  const booleans = new Set<string>();
  const takesValue = new Set(spec.values ?? []);
  const isBoolean = new Set([...(spec.booleans ?? []), 'help']);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h') {
      booleans.add('help');
      continue;
    }
    if (!arg.startsWith('--')) throw new CliUsageError(`Unexpected argument "${arg}".`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (isBoolean.has(name)) {
      if (eq >= 0) throw new CliUsageError(`--${name} takes no value.`);
      booleans.add(name);
      continue;
    }
    if (!takesValue.has(name)) throw new CliUsageError(`Unknown flag --${name}.`);
    const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) {
      throw new CliUsageError(`--${name} needs a value.`);
    }
    if (values[name] && !spec.repeatable?.includes(name))
      throw new CliUsageError(`--${name} is given twice.`);
    const list = values[name] ?? [];
    list.push(value);
    values[name] = list;
  }
  return { values, booleans };
}
