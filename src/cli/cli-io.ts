// What a command may touch of the outside world: injected so tests run the CLI in-process.

export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** The exit codes every command documents. */
export const EXIT = { ok: 0, failure: 1, usage: 2, componentDown: 3 } as const;

/** Colours only on a terminal, and never with --no-color or NO_COLOR set. */
export function wantsColor(io: CliIo, colorFlag: boolean | undefined): boolean {
  return Boolean(io.stdout.isTTY) && colorFlag !== false && !io.env.NO_COLOR;
}
