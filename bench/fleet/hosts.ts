// Starting and ending the host processes of the fleet benchmarks: each a Supervisor and its server in a Node
// process of its own (bench/supervisor-server/host.ts), on SQLite or as a named host of a PostgreSQL
// fleet. Every process carries the run's marker, so whatever is left at the end is found and killed.
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { runChild } from '../lib/child-run.js';
import { killRun, RUN_MARKER_VARIABLE } from '../lib/processes.js';
import type { HostConfig, HostMessage } from '../supervisor-server/host.js';

const HOST = fileURLToPath(new URL('../supervisor-server/host.ts', import.meta.url));

export type TurnMessage = Extract<HostMessage, { event: 'turn' }>;

export interface RunningHost {
  readonly url: string;
  readonly token: string;
  /** The scripted CLI's report once a turn on this host has ended (only the thread's owner has one). */
  readonly turn: Promise<TurnMessage>;
  /** Ends the process (stdin closed: it closes its server and supervisor), bounded at 10 s. */
  stop(): Promise<void>;
}

/** Starts a host process; resolves once its server listens. The signal (the run's bound) kills it. */
export async function startHost(
  config: HostConfig,
  marker: string,
  signal: AbortSignal,
): Promise<RunningHost> {
  const stdin = new PassThrough();
  let ready!: (message: { url: string; token: string }) => void;
  let failed!: (error: Error) => void;
  let turnDone!: (message: TurnMessage) => void;
  let turnFailed!: (error: Error) => void;
  const readyPromise = new Promise<{ url: string; token: string }>(
    (res, rej) => ((ready = res), (failed = rej)),
  );
  const turn = new Promise<TurnMessage>((res, rej) => ((turnDone = res), (turnFailed = rej)));
  turn.catch(() => undefined);
  const child = runChild({
    script: HOST,
    args: [JSON.stringify(config)],
    env: { ...process.env, [RUN_MARKER_VARIABLE]: marker },
    signal,
    stdin,
    onMessage: (raw) => {
      const message = raw as unknown as HostMessage;
      if (message.event === 'ready') ready(message);
      else if (message.event === 'turn') turnDone(message);
    },
  });
  const exited = child.then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  void exited.then((error) => {
    const failure = error ?? new Error('the host exited before it was told to');
    failed(failure);
    turnFailed(failure);
  });
  const { url, token } = await readyPromise;
  return {
    url,
    token,
    turn,
    async stop() {
      stdin.end();
      const ended = await Promise.race([exited, delay(10_000, 'stuck' as const, { ref: false })]);
      if (ended === 'stuck') {
        killRun(marker);
        throw new Error('a host did not close within 10 s');
      }
      if (ended !== undefined) throw ended;
    },
  };
}
