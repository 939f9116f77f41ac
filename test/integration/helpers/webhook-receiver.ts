// A webhook receiver on 127.0.0.1 for the notification tests: it records every request and answers as
// the test says (a status, or never).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
}

/** `answer(n)` for the n-th request (1-based): a status, or 'hang' to keep the request open. */
export async function startReceiver(
  t: { after(fn: () => Promise<void> | void): void },
  answer: (n: number) => number | 'hang' = () => 200,
): Promise<Receiver> {
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  let wake: (() => void) | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      wake?.();
      const status = answer(received.length);
      if (status === 'hang') hanging.push(res);
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return received.slice(0, count);
    },
  };
}
