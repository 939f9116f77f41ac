// One connection worker per process, shared by every PostgresStore in it: starting a worker (loading the
// driver) costs far more than opening a connection. Each store gets its own connection in the worker,
// reached through its own MessagePort. The worker is unref'd, and ended a little after the last store
// closes.
import { Worker } from 'node:worker_threads';

import { STARTUP_FAILURE_RESPONDER } from './worker-startup.js';
import type { AttachMessage } from './protocol.js';

/** How long an unused worker is kept for the next store (opening one costs a second or more under load). */
const IDLE_MS = 10_000;

let shared: { worker: Worker; users: number; idle: NodeJS.Timeout | undefined } | undefined;

/** The worker module beside this one, with this module's extension: `.js` from dist/, `.ts` under tsx. */
let workerModule = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);

/** Runs the connection worker from another module (tests: a worker that fails to load, a fake one). */
export function useWorkerModule(module: URL): void {
  workerModule = module;
}

/**
 * The worker's first lines. A worker thread does not inherit tsx's loader (Node 20), so a `.ts` worker
 * registers tsx first. A module that fails to load leaves a responder that answers every request with
 * the load error at once (worker-startup.ts): the main thread is blocked in Atomics.wait and would
 * otherwise hear of it only when the request's time ran out.
 */
function bootstrap(module: URL): string {
  const load = module.pathname.endsWith('.ts')
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`
    : `import(${JSON.stringify(module.href)})`;
  return `${load}.catch(${STARTUP_FAILURE_RESPONDER});`;
}

function startWorker(): Worker {
  // No inherited execArgv: the worker needs none, and the host's can stop it from starting at all (a host
  // run as `node --input-type=module -e …` passes a flag that a worker started from a file rejects).
  const worker = new Worker(bootstrap(workerModule), { eval: true, execArgv: [] });
  worker.unref();
  // A worker that dies later (out of memory) is reported by the next request's timeout; without a
  // listener its 'error' would end the process.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    if (shared?.worker === worker) shared = undefined;
  });
  return worker;
}

/** Hands a new connection's port to the worker (started if need be). Call release() when it is closed. */
export function attachConnection(message: AttachMessage): void {
  if (shared === undefined) shared = { worker: startWorker(), users: 0, idle: undefined };
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
