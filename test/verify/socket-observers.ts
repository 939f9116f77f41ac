// One WebSocket client per host that records every event it is sent as an operation; when its connection
// ends (the host was killed) it connects again once the host is up, from the last seq it saw, as a new
// connection of the history (each connection must deliver events of the log in increasing seq order).
import WebSocket from 'ws';

import type { FleetHost } from './fleet.js';
import type { HistoryRecorder } from './history.js';

export interface SocketObservers {
  stop(): void;
}

export function observeSockets(history: HistoryRecorder, hosts: readonly FleetHost[]): SocketObservers {
  let stopped = false;
  const sockets = new Set<WebSocket>();
  const follow = (host: FleetHost, since: number, n: number): void => {
    if (stopped) return;
    if (!host.up) return void setTimeout(() => follow(host, since, n), 300);
    const connection = `${host.name}#${n}`;
    let last = since;
    const ws = new WebSocket(`${host.url.replace('http', 'ws')}/ws?since=${since}`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    sockets.add(ws);
    ws.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as {
        type: string;
        event?: { seq: number; type: string };
      };
      if (message.type !== 'event' || message.event === undefined) return;
      last = Math.max(last, message.event.seq);
      history.record({
        kind: 'ws-event',
        connection,
        host: host.name,
        seq: message.event.seq,
        type: message.event.type,
        completedAt: Date.now(),
      });
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      sockets.delete(ws);
      setTimeout(() => follow(host, last, n + 1), 300);
    });
  };
  for (const host of hosts) follow(host, 0, 1);
  return {
    stop() {
      stopped = true;
      for (const ws of sockets) ws.terminate();
    },
  };
}
