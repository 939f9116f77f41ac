// Why a server of this command (`warden serve`, `warden demo`) could not listen, said in one line with
// what to do instead of Node's `listen EADDRINUSE: address already in use …`. Anything else is left to
// the caller's own message.

/** The sentence for a failed listen on host:port, or undefined when `error` is not one. */
export function listenFailure(error: unknown, host: string, port: number): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return (
        `${at} is already in use (another warden serve, or another program): stop that, ` +
        'or pass --port N for another port (--port 0 picks a free one)'
      );
    case 'EACCES':
      return `not allowed to listen on ${at} (ports below 1024 need privileges): pass --port N with N of 1024 or more`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${host}: it is no address of this machine (pass a --host it has, or leave --host out for 127.0.0.1)`;
    default:
      return undefined;
  }
}
