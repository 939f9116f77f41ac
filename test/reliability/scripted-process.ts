// An in-process stand-in for the CLI process, handed to query() through spawnClaudeCodeProcess: it answers
// the host's initialize request (or not), writes a given stdout, and exits. Lets a fuzzer push thousands of
// stdouts through the whole reading path (line decoder, control channel, lifecycle, message queue) without
// spawning anything.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

import type { SpawnedProcess } from '../../src/session/option-types.js';

export interface Script {
  /** Bytes written to stdout after the initialize answer (or at once, without one). */
  readonly stdout: Uint8Array;
  /** Answer the host's initialize request first, with this response body; undefined: never answer. */
  readonly initialize: Record<string, unknown> | undefined;
  /** The exit code once stdout is written; null exits by SIGKILL. */
  readonly exitCode: number | null;
}

export class ScriptedProcess extends EventEmitter implements SpawnedProcess {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  killed = false;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  #exited = false;

  constructor(script: Script) {
    super();
    let buffered = '';
    let started = false;
    const start = (): void => {
      if (started) return;
      started = true;
      this.stdout.write(script.stdout, () => {
        this.stdout.end();
        setImmediate(() => this.#exit(script.exitCode, script.exitCode === null ? 'SIGKILL' : null));
      });
    };
    this.stdin.on('data', (chunk: Buffer) => {
      if (script.initialize === undefined) return;
      buffered += chunk.toString('utf8');
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        const frame = parse(line);
        if (frame?.type !== 'control_request' || frame.request?.subtype !== 'initialize') continue;
        this.stdout.write(
          JSON.stringify({
            type: 'control_response',
            response: { subtype: 'success', request_id: frame.request_id, response: script.initialize },
          }) + '\n',
        );
        start();
      }
    });
    this.stdin.on('error', () => undefined);
    if (script.initialize === undefined) setImmediate(start);
  }

  kill(signal: NodeJS.Signals): boolean {
    this.killed = true;
    this.stdout.end();
    setImmediate(() => this.#exit(null, signal));
    return true;
  }

  #exit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exited) return;
    this.#exited = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

function parse(
  line: string,
): { type?: unknown; request_id?: unknown; request?: { subtype?: unknown } } | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
