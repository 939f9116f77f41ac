// What a connection worker does when its module cannot be loaded (a missing driver, a syntax error, a
// loader that is not there): it stays up and answers every request of every connection attached to it
// with a `worker` failure carrying the load error, waking the main thread as a real reply would. So the
// store's first request fails at once with the cause, not after its timeout as "did not answer".
//
// Source text, not a function: it runs in the worker before any module could be loaded there, and a
// function's own text would carry whatever helpers the compiler or tsx wrapped it in.

/** A function expression `(error) => …`, to be called with the load error in the worker. */
export const STARTUP_FAILURE_RESPONDER = `(error) => {
  const message = 'The PostgreSQL connection worker could not start: ' +
    (error instanceof Error ? error.message : String(error));
  const code = error && typeof error.code === 'string' ? error.code : null;
  return import('node:worker_threads').then(({ parentPort }) => {
    parentPort.on('message', (attach) => {
      const fail = (request) => ({ id: request.id, ok: false, failure: { kind: 'worker', message, code } });
      attach.port.on('message', (request) => {
        attach.port.postMessage(fail(request));
        Atomics.add(attach.signal, 0, 1);
        Atomics.notify(attach.signal, 0);
      });
      if (attach.barrier) attach.barrier.on('message', (request) => attach.barrier.postMessage(fail(request)));
    });
  });
}`;
