// Ctrl-C and SIGTERM: the first one runs the command's clean shutdown (stop the agent, close the store,
// remove temporary files); a second one, for when that hangs, leaves at once — the SDK's exit hook still
// kills the CLI processes it started.
export interface ShutdownHandle {
  /** Resolves with the signal once the first one arrives. */
  readonly requested: Promise<NodeJS.Signals>;
  readonly signal: AbortSignal;
  dispose(): void;
}

export function onShutdown(forceExitCode = 130): ShutdownHandle {
  const abort = new AbortController();
  let resolveRequested!: (signal: NodeJS.Signals) => void;
  const requested = new Promise<NodeJS.Signals>((resolve) => (resolveRequested = resolve));
  const handler = (signal: NodeJS.Signals): void => {
    if (abort.signal.aborted) {
      process.stderr.write('\nwarden: forced exit\n');
      process.exit(forceExitCode);
    }
    abort.abort();
    resolveRequested(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    requested,
    signal: abort.signal,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
