// Runs a helper script (a host in its own Node process) and collects the JSON lines it prints on stdout.
// Stopped with SIGKILL when the signal aborts; the caller kills what the helper started, by marker. A helper
// that serves until told (bench/supervisor-server/host.ts) reads what the caller writes to `stdin`.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface ChildRunOptions {
  /** A `.mjs` helper runs on plain Node (nothing but the host in the process); anything else through tsx. */
  readonly script: string;
  readonly args: readonly string[];
  readonly nodeFlags?: readonly string[];
  /** A command that runs Node for us, e.g. ['taskset', '-c', '1']. */
  readonly wrapper?: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
  /** Called for each JSON line as it arrives. */
  readonly onMessage?: (message: Record<string, unknown>) => void;
  /** Piped into the helper's stdin (else stdin is empty); ending it ends the helper's stdin. */
  readonly stdin?: Readable;
}

/** Resolves with every JSON line once the helper exits 0; rejects with its stderr tail otherwise. */
export function runChild(options: ChildRunOptions): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const [command = process.execPath, ...prefix] = [...(options.wrapper ?? []), process.execPath];
    const child = spawn(
      command,
      [
        ...prefix,
        ...(options.nodeFlags ?? []),
        ...(options.script.endsWith('.mjs') ? [] : ['--import', 'tsx']),
        options.script,
        ...options.args,
      ],
      { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    // The helper may be gone (killed at the bound) by the time we write to it.
    child.stdin.on('error', () => undefined);
    if (options.stdin === undefined) child.stdin.end();
    else options.stdin.pipe(child.stdin);
    const messages: Record<string, unknown>[] = [];
    let pending = '';
    let stderr = '';
    const stop = (): void => void child.kill('SIGKILL');
    options.signal.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (!line.startsWith('{')) continue;
        const message = JSON.parse(line) as Record<string, unknown>;
        messages.push(message);
        options.onMessage?.(message);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      options.signal.removeEventListener('abort', stop);
      if (code === 0) resolve(messages);
      else {
        const last = stderr.trim().split('\n').at(-1) ?? '';
        reject(new Error(`helper exited with ${signal ?? `code ${code}`}${last === '' ? '' : `: ${last}`}`));
      }
    });
  });
}
