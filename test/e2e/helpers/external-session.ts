// A Claude Code session Warden did not start, for tests: `warden serve` on the world's data directory, a
// report-only token (role hook) and its hook configuration, the hooks in the private HOME's settings, and
// `claude -p` started the way a person starts it (no SDK, no control channel). Everything talks to the
// server over HTTP, as a person's tools would.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

import type { ApprovalRecord } from '../../../src/store/records.js';
import { poll } from '../../../src/testing/index.js';
import type { MockScript } from '../../../src/testing/index.js';
import {
  REPO_ROOT,
  spawnWarden,
  startCommandSession,
  type CommandSession,
  type WardenProcess,
} from './server-command.js';

const MAIN = join(REPO_ROOT, 'src', 'cli', 'main.ts');

export interface ExternalWorld {
  readonly session: CommandSession;
  readonly configPath: string;
  /** The report-only token (role hook) the hook configuration holds. */
  readonly hookToken: string;
  /** The `warden hook run` command line the settings hold, without the event. */
  readonly hookCommand: string;
  server(): { url: string; token: string; process: WardenProcess };
  /** Starts (or starts again) `warden serve` on the data directory. */
  serve(): Promise<void>;
  /** Stops the server: SIGINT (its clean shutdown, the default) or SIGKILL (a crash). */
  stopServer(signal?: 'SIGINT' | 'SIGKILL'): Promise<void>;
  /** A request with the owner's token, or `bearer`. */
  api<T>(method: string, path: string, body?: unknown, bearer?: string): Promise<{ status: number; body: T }>;
  pendingApproval(): Promise<ApprovalRecord>;
  /** `claude -p <prompt>` in the scratch cwd; resolves with its exit and parsed result. */
  claudeP(prompt: string): {
    pid: number;
    done: Promise<{ code: number | null; result: Record<string, unknown> | null; stderr: string }>;
  };
}

export async function startExternalWorld(
  t: TestContext,
  script: MockScript,
  waitMs = 60_000,
): Promise<ExternalWorld> {
  const session = await startCommandSession(t, script);
  let current: { url: string; token: string; process: WardenProcess } | undefined;
  const serve = async (): Promise<void> => {
    const process = spawnWarden(['serve', '--port', '0', '--data-dir', session.dataDir], session.env);
    session.world.track(process.child.pid);
    await process.waitFor('stdout', /Press Ctrl-C to stop\./);
    const url = /(http:\/\/127\.0\.0\.1:\d+)\/login#/.exec(process.stdout())?.[1] ?? '';
    const token = readFileSync(join(session.dataDir, 'server-token'), 'utf8').trim();
    current = { url, token, process };
  };
  const server = () => {
    if (current === undefined) throw new Error('no server started');
    return current;
  };
  const api = async <T>(method: string, path: string, body?: unknown, bearer?: string) => {
    const response = await fetch(`${server().url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer ?? server().token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  await serve();
  t.after(async () => {
    if (current !== undefined && current.process.child.exitCode === null) {
      current.process.child.kill('SIGINT');
      await current.process.exited;
    }
  });

  // The report-only token, in a file of its own beside the settings (never the owner's token there).
  const made = await api<{ token: string }>('POST', '/api/tokens', { name: 'hook', role: 'hook' });
  if (made.status !== 201) throw new Error(`could not make the hook token: ${JSON.stringify(made.body)}`);
  const configPath = join(session.scratch.home, '.config', 'warden-hook.json');
  mkdirSync(join(session.scratch.home, '.config'), { recursive: true });
  writeFileSync(configPath, JSON.stringify({ token: made.body.token, dataDir: session.dataDir, waitMs }), {
    mode: 0o600,
  });
  const hookCommand = [process.execPath, '--import', 'tsx', MAIN, 'hook', 'run'].join(' ');
  const entry = (event: string, timeout?: number) => [
    {
      matcher: '*',
      hooks: [
        {
          type: 'command',
          command: `cd ${REPO_ROOT} && ${hookCommand} ${event} --config ${configPath}`,
          ...(timeout === undefined ? {} : { timeout }),
        },
      ],
    },
  ];
  mkdirSync(join(session.scratch.home, '.claude'), { recursive: true });
  writeFileSync(
    join(session.scratch.home, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PermissionRequest: entry('PermissionRequest', Math.ceil(waitMs / 1000) + 10),
        UserPromptSubmit: entry('UserPromptSubmit'),
        Stop: entry('Stop'),
      },
    }),
  );

  const claudeP: ExternalWorld['claudeP'] = (prompt) => {
    const child = spawn(session.world.claudePath, ['-p', prompt, '--output-format', 'json'], {
      cwd: session.scratch.cwd,
      env: session.world.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    session.world.track(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const done = new Promise<{ code: number | null; result: Record<string, unknown> | null; stderr: string }>(
      (resolve) =>
        child.on('close', (code) => {
          let result: Record<string, unknown> | null = null;
          try {
            result = JSON.parse(stdout) as Record<string, unknown>;
          } catch {
            result = null;
          }
          resolve({ code, result, stderr });
        }),
    );
    return { pid: child.pid ?? 0, done };
  };

  return {
    session,
    configPath,
    hookToken: made.body.token,
    hookCommand,
    server,
    serve,
    async stopServer(signal = 'SIGINT') {
      const { process } = server();
      process.child.kill(signal);
      await process.exited;
    },
    api,
    async pendingApproval() {
      const found = await poll(
        async () =>
          (await api<{ approvals: ApprovalRecord[] }>('GET', '/api/approvals?status=pending')).body
            .approvals[0],
        { what: 'a pending approval', retryErrors: true },
      );
      if (found === undefined) throw new Error('no approval became pending');
      return found;
    },
    claudeP,
  };
}
