// `warden serve`: the Supervisor, the HTTP/WebSocket API and the web UI in one process, until Ctrl-C. The
// agents get this process's environment (with ANTHROPIC_API_KEY set, the CLI talks to the real API).
import { createServer } from '../server/index.js';
import { describeServer, isPostgresUrl } from '../store/store-target.js';
import { Supervisor, type LeftRunning, type SandboxStatus } from '../supervisor/index.js';
import { defaultSandboxMode, type SandboxMode } from '../supervisor/runtime/sandbox-state.js';
import { UsageError, type Command } from './args/index.js';
import { defaultDataDir, storeHint } from './data-dir.js';
import { hostNameFor } from './host-name.js';
import { listenFailure } from './listen-failure.js';
import { DEFAULT_PORT } from './client/server-address.js';
import { shellQuote, wardenProgram } from './program-name.js';
import { onShutdown } from './shutdown.js';

export { DEFAULT_PORT };

export async function serveCommand(command: Extract<Command, { name: 'serve' }>): Promise<number> {
  const dataDir = command.dataDir ?? defaultDataDir();
  // The flag wins over the environment; an empty variable counts as unset.
  const store = command.store ?? (process.env.WARDEN_STORE_URL || undefined);
  if (store !== undefined && !isPostgresUrl(store))
    throw new UsageError('WARDEN_STORE_URL must be a postgres:// or postgresql:// URL');
  if (command.hostName !== undefined && store === undefined)
    throw new UsageError('--host-name goes with --store (a fleet shares a PostgreSQL store)');
  const hostName = hostNameFor(command.hostName, dataDir);
  // The sandbox of the agents' commands (docs/security.md): WARDEN_SANDBOX, auto (default), required or off.
  let sandbox: SandboxMode;
  try {
    sandbox = defaultSandboxMode();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const shutdown = onShutdown();
  let supervisor: Supervisor | undefined;
  let server: Awaited<ReturnType<typeof createServer>> | undefined;
  try {
    supervisor = await Supervisor.open({
      dataDir,
      ...(store === undefined ? {} : { store, host: { name: hostName } }),
      onWarning: (warning) => process.stderr.write(`warden: ${warning.message}\n`),
      ...(command.claude === undefined ? {} : { claudePath: command.claude }),
      ...(command.parkAfterMs === undefined ? {} : { idleParkMs: command.parkAfterMs }),
      sandbox,
      ...(command.detachedIdleMs === undefined ? {} : { detachedIdleMs: command.detachedIdleMs }),
      ...(command.routes === undefined ? {} : { routes: command.routes }),
      ...(command.requireTwo === undefined ? {} : { requireTwo: command.requireTwo }),
    });
    const { recovered } = supervisor;
    if (recovered.processesReattached > 0)
      process.stderr.write(`warden: re-attached to ${recovered.processesReattached} agent(s) left running\n`);
    if (recovered.threadsParked > 0)
      process.stderr.write(
        `warden: ${recovered.threadsParked} agent(s) left idle ended with no server; their next message resumes them\n`,
      );
    if (recovered.threads > 0)
      process.stderr.write(
        `warden: the previous server did not stop cleanly: ${recovered.runsInterrupted} run(s) interrupted, ` +
          `${recovered.approvalsExpired} approval(s) expired\n`,
      );
    server = await createServer({
      supervisor,
      dataDir,
      port: command.port ?? DEFAULT_PORT,
      ...(command.host === undefined ? {} : { host: command.host }),
      notify: {
        ...(command.webhooks === undefined ? {} : { webhooks: command.webhooks }),
        ...(command.webPush === undefined ? {} : { push: command.webPush }),
      },
    });
    const notes =
      command.webhooks !== undefined && server.webhookSecretPath !== null
        ? [
            `Webhooks: ${command.webhooks.length} URL(s) receive approval previews and single-use decision ` +
              `links; bodies are signed with the key in ${server.webhookSecretPath}`,
          ]
        : [];
    if (store !== undefined)
      notes.unshift(`Store: PostgreSQL at ${describeServer(store)}, as host ${hostName} of its fleet`);
    if (server.vapidKeysPath !== null)
      notes.push(
        'Web Push: on; devices subscribe from the bell in the UI and choose what a notification shows ' +
          `(keys in ${server.vapidKeysPath})`,
      );
    notes.push(sandboxNote(supervisor.sandbox));
    if (command.requireTwo !== undefined)
      notes.push(`Two-person rules: ${command.requireTwo.join(', ')} need two deciders' allows`);
    printBanner(server, dataDir, command.host, loginCommandFor(dataDir, server.port, command.host), notes);
    await shutdown.requested;
    process.stderr.write(
      command.stopAgents === true
        ? '\nwarden: shutting down and stopping the agents…\n'
        : '\nwarden: shutting down; agents keep running detached and the next start re-attaches (--stop-agents ends them)…\n',
    );
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const listening = listenFailure(error, command.host ?? '127.0.0.1', command.port ?? DEFAULT_PORT);
    process.stderr.write(`warden: ${listening ?? `${message}${storeHint(error)}`}\n`);
    return 1;
  } finally {
    shutdown.dispose();
    await server?.close();
    const closed = await supervisor?.close({ stopAgents: command.stopAgents === true });
    if (closed !== undefined && closed.leftRunning.length > 0)
      process.stderr.write(`${leftRunningNote(closed.leftRunning, dataDir)}\n`);
  }
}

/** What Ctrl-C left running, and until when: the idle ones end by themselves, the busy ones wait. */
export function leftRunningNote(left: readonly LeftRunning[], dataDir: string): string {
  const idle = left.filter((agent) => agent.idleUntil !== null);
  const waiting = left.length - idle.length;
  const last = Math.max(...idle.map((agent) => agent.idleUntil ?? 0));
  const parts = [
    ...(idle.length === 0
      ? []
      : [
          `${idle.length} idle (ending by themselves by ${new Date(last).toISOString()} unless a serve re-attaches them)`,
        ]),
    ...(waiting === 0 ? [] : [`${waiting} busy (waiting for the next serve)`]),
  ];
  const where = ` --data-dir ${shellQuote(dataDir)}`;
  return (
    `warden: left ${left.length} agent(s) running detached: ${parts.join(', ')}; ` +
    `\`warden agents${where}\` lists them, \`warden agents stop --all${where}\` ends them`
  );
}

export function printBanner(
  server: { url: string; loginLink(): string; tokenPath: string },
  dataDir: string,
  host: string | undefined,
  loginCommand?: string,
  notes: readonly string[] = [],
): void {
  const lines = [
    `Warden is running at ${server.url}`,
    '',
    'Open this link in your browser within 15 minutes to sign in (it works once; keep it private):',
    `  ${server.loginLink()}`,
  ];
  if (loginCommand !== undefined) lines.push(`For a new link later: ${loginCommand}`);
  lines.push('', `Data: ${dataDir} (API token in ${server.tokenPath})`);
  if (host !== undefined && host !== '127.0.0.1' && host !== 'localhost' && host !== '::1')
    lines.push(
      `Listening on ${host}: anyone who can reach it and has a login link or the token controls your agents.`,
    );
  lines.push(...notes, 'Press Ctrl-C to stop.', '');
  process.stdout.write(lines.join('\n'));
}

/** The `warden login` command line that prints a link for this server, as this shell can run it. */
export function loginCommandFor(dataDir: string, port: number, host: string | undefined): string {
  const parts = [`${wardenProgram()} login`, '--data-dir', shellQuote(dataDir)];
  if (port !== DEFAULT_PORT) parts.push('--port', String(port));
  if (host !== undefined) parts.push('--host', shellQuote(host));
  return parts.join(' ');
}

/** The banner's line on the sandbox: what the operating system holds for the agents' commands. */
export function sandboxNote(status: SandboxStatus): string {
  const by = status.mechanism === 'cli' ? "the CLI's own sandbox" : 'bubblewrap';
  return status.enforced
    ? `Sandbox: on (${by}); the agents' Bash commands cannot write the protected paths that exist (docs/security.md)`
    : status.mode === 'off'
      ? 'Sandbox: off (WARDEN_SANDBOX=off; docs/security.md): the policy guards the protected paths, and allow rules cover fewer words'
      : `Sandbox: OFF (${status.reason ?? 'unknown'}); only the policy guards the protected paths, and allow rules cover fewer words`;
}
