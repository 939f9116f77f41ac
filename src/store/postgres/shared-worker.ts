// One connection worker per process, shared by every PostgresStore in it: starting a worker (loading the
// driver) costs far more than opening a connection. Each store gets its own connection in the worker,
// reached through its own MessagePort. The worker is unref'd, and ended a little after the last store
// closes.
import { Worker } from 'node:worker_threads';

import type { AttachMessage } from './protocol.js';

/** How long an unused worker is kept for the next store (opening one costs a second or more under load). */
const IDLE_MS = 10_000;

let shared: { worker: Worker; users: number; idle: NodeJS.Timeout | undefined } | undefined;

/**
 * The worker module beside this one, with this module's extension: `.js` from dist/, `.ts` when the
 * sources run under tsx. A worker thread does not inherit tsx's loader (Node 20), so a `.ts` worker is
 * started by a two-line script that registers tsx in the worker first.
 */
function workerEntry(): { entry: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts'))
    return { entry: new URL('./worker.js', import.meta.url), eval: false };
  const tsx = import.meta.resolve('tsx/esm/api');
  const worker = new URL('./worker.ts', import.meta.url).href;
  const script = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); });`;
  return { entry: script, eval: true };
}

/** Hands a new connection's port to the worker (started if need be). Call release() when it is closed. */
export function attachConnection(message: AttachMessage): void {
  if (shared === undefined) {
    const { entry, eval: isScript } = workerEntry();
    const worker = new Worker(entry, { eval: isScript });
    worker.unref();
    // A worker that dies (it cannot load, it ran out of memory) is reported by the next request's
    // timeout; without a listener its 'error' would end the process.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      if (shared?.worker === worker) shared = undefined;
    });
    shared = { worker, users: 0, idle: undefined };
  }
  clearTimeout(shared.idle);
  shared.users += 1;
  const ports = [message.port, message.notify, message.barrier].filter((port) => port !== undefined);
  shared.worker.postMessage(message, ports);
}

export function releaseConnection(): void {
  if (shared === undefined) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  const { worker } = shared;
  // Unref'd: an idle worker never keeps the process alive, and it is ended if no store comes.
  shared.idle = setTimeout(() => {
    if (shared?.worker === worker && shared.users === 0) shared = undefined;
    void worker.terminate();
  }, IDLE_MS).unref();
}
