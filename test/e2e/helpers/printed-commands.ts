// The commands `warden demo` prints for a person to type (a new login link, the inbox), taken from its
// stdout and run exactly as printed through a shell, from a directory of the test's own — the proof that
// they work as printed, wherever the person's terminal is.
import { spawn } from 'node:child_process';

export interface PrintedCommands {
  /** After "For a new link later: ". */
  readonly login: string;
  /** The indented line after "in another terminal with". */
  readonly inbox: string;
}

export function printedCommands(stdout: string): PrintedCommands {
  const login = /^For a new link later: (.+)$/m.exec(stdout)?.[1];
  const inbox = /in another terminal with\n {2}(.+)$/m.exec(stdout)?.[1];
  if (login === undefined || inbox === undefined)
    throw new Error(`the demo printed no login or inbox command:\n${stdout}`);
  return { login, inbox };
}

/** Runs `line` with `sh -c` in `cwd`, with only PATH and HOME set, stdin closed. */
export function runPrinted(
  line: string,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', line], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...out })));
}
