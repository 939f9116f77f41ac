// Starting, commanding and ending the host processes of the fleet-decision-latency benchmark
// (bench/fleet/decision-host.ts). Commands to one host go one at a time: each waits for the host's answer.
// Every process carries the run's marker, so whatever is left at the end is found and killed.
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { runChild } from '../lib/child-run.js';
import { killRun, RUN_MARKER_VARIABLE } from '../lib/processes.js';
import type { DecisionCommand, DecisionHostConfig, DecisionHostMessage } from './decision-host.js';

const HOST = fileURLToPath(new URL('./decision-host.ts', import.meta.url));

type Answer = Exclude<DecisionHostMessage, { event: 'ready' } | { event: 'failed' }>;

export interface DecisionHost {
  readonly url: string;
  readonly token: string;
  /** Sends a command; resolves with the host's answer, rejects with its failure. */
  command(command: DecisionCommand): Promise<Answer>;
  /** Ends the process (stdin closed: it closes its server and supervisor), bounded at 15 s. */
  stop(): Promise<void>;
}

export async function startDecisionHost(
  config: DecisionHostConfig,
  marker: string,
  signal: AbortSignal,
): Promise<DecisionHost> {
  const stdin = new PassThrough();
  const answers: { resolve: (answer: Answer) => void; reject: (error: Error) => void }[] = [];
  let ready!: (message: { url: string; token: string }) => void;
  let failed!: (error: Error) => void;
  const readyPromise = new Promise<{ url: string; token: string }>(
    (res, rej) => ((ready = res), (failed = rej)),
  );
  const child = runChild({
    script: HOST,
    args: [JSON.stringify(config)],
    env: { ...process.env, [RUN_MARKER_VARIABLE]: marker },
    signal,
    stdin,
    onMessage: (raw) => {
      const message = raw as unknown as DecisionHostMessage;
      if (message.event === 'ready') ready(message);
      else if (message.event === 'failed') answers.shift()?.reject(new Error(message.error));
      else answers.shift()?.resolve(message);
    },
  });
  const exited = child.then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  void exited.then((error) => {
    const failure = error ?? new Error('the host exited before it was told to');
    failed(failure);
    for (const waiter of answers.splice(0)) waiter.reject(failure);
  });
  const { url, token } = await readyPromise;
  return {
    url,
    token,
    command(command) {
      return new Promise((resolve, reject) => {
        answers.push({ resolve, reject });
        stdin.write(`${JSON.stringify(command)}\n`);
      });
    },
    async stop() {
      stdin.end();
      const ended = await Promise.race([exited, delay(15_000, 'stuck' as const, { ref: false })]);
      if (ended === 'stuck') {
        killRun(marker);
        throw new Error('a host did not close within 15 s');
      }
      if (ended !== undefined) throw ended;
    },
  };
}
