import { parseArgs } from 'node:util';

/** Where a command reads and writes; tests pass their own streams and environment. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

export const processIo = (): CliIo => ({
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});

/** A mistake in how the command was called: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

/** A user-facing failure (unknown client, bad file, taken username): printed as one line, exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

export const write = (stream: NodeJS.WritableStream, text: string) => void stream.write(`${text}\n`);

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;
type Values<O extends OptionSpec> = {
  [K in keyof O]?: O[K]['type'] extends 'string' ? string : boolean;
} & { help?: boolean };

/** parseArgs (strict, with -h/--help) whose mistakes become UsageError ("Unknown option '--x'"). */
export function parse<O extends OptionSpec>(
  args: string[],
  options: O,
  allowPositionals = false,
): { values: Values<O>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
      strict: true,
    });
    return parsed as unknown as { values: Values<O>; positionals: string[] };
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
}

/** A required option's value, or a usage error naming it. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

/** A positive whole number option (ids, counts). */
export function positiveInt(
  value: string | undefined,
  flag: string,
  max = 2_147_483_647,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(value) || Number(value) > max)
    throw new UsageError(
      `${flag} must be a whole number from 1 to ${max.toLocaleString('en-US')}, got "${value}"`,
    );
  return Number(value);
}

/** Everything on standard input, for --password-stdin (a trailing newline is not part of the password). */
export async function readStdin(stdin: NodeJS.ReadableStream, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin as AsyncIterable<Buffer | string>) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > limit) throw new CliError('standard input is too long for a password');
    chunks.push(b);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
