// A TCP proxy between one host and PostgreSQL that the verify runner controls: it passes bytes through,
// cuts the link (every connection destroyed, new ones refused until restored), delays every chunk, resets
// the connections once, or drops the server's NotificationResponse messages (NOTIFY that LISTEN would hear)
// while passing everything else — the faults a real network does to a fleet.
import { createServer, connect, type Server, type Socket } from 'node:net';

export type LinkMode = 'pass' | 'cut' | 'delay';

export interface TcpProxy {
  readonly port: number;
  /** pass | cut | delay (by `delayMs` per chunk). Cutting destroys the open connections. */
  set(mode: LinkMode, delayMs?: number): void;
  /** Resets every open connection (the peers see ECONNRESET); new ones are accepted. */
  reset(): void;
  /** Drops (true) or passes (false) the server's NOTIFY messages. */
  dropNotifications(on: boolean): void;
  /** How many NOTIFY messages were dropped so far. */
  readonly dropped: () => number;
  close(): Promise<void>;
}

/**
 * Splits the server's side of a PostgreSQL connection into messages (one type byte, an int32 length that
 * counts itself) so that NotificationResponse ('A') can be left out; the first reply to an SSLRequest is one
 * byte, which the runner's hosts never send (they connect without TLS).
 */
function notificationFilter(drop: () => boolean, onDrop: () => void): (chunk: Buffer) => Buffer {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    const out: Buffer[] = [];
    while (pending.length >= 5) {
      const length = pending.readInt32BE(1) + 1;
      if (pending.length < length) break;
      const message = pending.subarray(0, length);
      if (message[0] === 0x41 && drop()) onDrop();
      else out.push(message);
      pending = pending.subarray(length);
    }
    return Buffer.concat(out);
  };
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let mode: LinkMode = 'pass';
  let delayMs = 0;
  let dropping = false;
  let dropped = 0;
  const open = new Set<Socket>();
  // Chunks keep their order whatever the mode does meanwhile: each waits in its direction's queue until
  // its time (now, or `delayMs` after it came), and only the head is ever written.
  const relay = (from: Socket, to: Socket, filter?: (chunk: Buffer) => Buffer): void => {
    const queue: { bytes: Buffer; due: number }[] = [];
    let timer: NodeJS.Timeout | undefined;
    const pump = (): void => {
      timer = undefined;
      while (queue.length > 0 && queue[0]!.due <= Date.now()) {
        const { bytes } = queue.shift()!;
        if (!to.destroyed) to.write(bytes);
      }
      if (queue.length > 0) timer = setTimeout(pump, queue[0]!.due - Date.now());
    };
    from.on('data', (chunk: Buffer) => {
      const bytes = filter === undefined ? chunk : filter(chunk);
      if (bytes.length === 0) return;
      queue.push({ bytes, due: Date.now() + (mode === 'delay' ? delayMs : 0) });
      if (timer === undefined) pump();
    });
  };
  const server: Server = createServer((client) => {
    if (mode === 'cut') return void client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    relay(client, upstream);
    relay(
      upstream,
      client,
      notificationFilter(
        () => dropping,
        () => dropped++,
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('the proxy has no port');
  return {
    port: address.port,
    set(next, ms = 0) {
      mode = next;
      delayMs = ms;
      if (next === 'cut') for (const socket of open) socket.destroy();
    },
    reset() {
      for (const socket of open) socket.resetAndDestroy();
    },
    dropNotifications(on) {
      dropping = on;
    },
    dropped: () => dropped,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
