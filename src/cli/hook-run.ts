// `warden hook run <event>`: the command Claude Code runs for its hooks in sessions Warden did not start
// (docs/external-sessions.md). It runs on every reported event, so it loads nothing but Node's own modules:
// it reads the hook's JSON on stdin, passes it to the running `warden serve` with a report-only token
// (role hook) and, for a PermissionRequest, prints the decision when one comes. Whatever goes wrong — no
// configuration, no server, a refused token, a wait that is over — it prints nothing and exits 0: the CLI
// then asks in its own terminal (or, in `-p` mode, denies). It never allows by itself, and never exits 2
// (which would block the call with no person asked).
import { readFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** What `warden hook install` writes (hook-config.ts); `url` or the data dir's server.json says where. */
interface HookConfig {
  token: string;
  url?: string;
  dataDir?: string;
  /** How long a PermissionRequest waits for a person before the CLI asks in its terminal. */
  waitMs?: number;
  /** The same for a session nobody attends (`claude -p`): it has no one to ask afterwards. */
  headlessWaitMs?: number;
  /** How long reaching the server may take before the hook gives up at once. */
  connectTimeoutMs?: number;
}

const DEFAULT_WAIT_MS = 55_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 100;
/** Events other than a PermissionRequest never hold the CLI up longer than this. */
const REPORT_ONLY_MS = 2_000;
/** After the server went away mid-wait, how often to ask again (same call: same approval). */
const RETRY_MS = 250;
/** The server answers at the end of the wait itself; this much later the hook stops listening. */
const WAIT_GRACE_MS = 1_000;

/**
 * `reached`: the server took the connection, so it may hold an approval for this call by now (its
 * `{approvalId}` line can be lost with the connection): asking again finds it, or makes it afresh.
 */
type Outcome = { kind: 'output'; output: unknown } | { kind: 'dropped'; reached: boolean };

export async function hookRun(
  argv: readonly string[],
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<number> {
  try {
    return await report(argv, stdin);
  } catch (error) {
    // A bad URL in the configuration, say: said, and no answer (exit 0: never a block).
    process.stderr.write(`warden hook: ${error instanceof Error ? error.message : String(error)}\n`);
    return 0;
  }
}

async function report(argv: readonly string[], stdin: NodeJS.ReadStream): Promise<number> {
  const started = Date.now();
  const event = argv[0];
  const config = readConfig(argv);
  if (event === undefined || config === undefined || stdin.isTTY === true) return 0;
  const payload = parseObject(await readAll(stdin));
  // Read at each attempt: a server restarted on the data dir may listen on another port.
  const urlNow = (): string | undefined => config.url ?? serverUrl(config.dataDir ?? defaultDataDir());
  if (payload === undefined) return 0;
  const asking = event === 'PermissionRequest';
  // The CLI says in the hook's environment whether anyone is at its terminal (`-p`: 0, the TUI: 1).
  const headless = process.env.CLAUDE_CODE_SESSION_ATTENDED === '0';
  const personWait = (headless ? config.headlessWaitMs : undefined) ?? config.waitMs ?? DEFAULT_WAIT_MS;
  const waitMs = asking ? personWait : REPORT_ONLY_MS;
  const deadline = started + waitMs + (asking ? WAIT_GRACE_MS : 0);
  const connectMs = config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  let reachedOnce = false;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return 0;
    const body = JSON.stringify({
      event,
      payload,
      waitMs: Math.max(0, remaining - (asking ? WAIT_GRACE_MS : 0)),
    });
    const url = urlNow();
    const outcome =
      url === undefined
        ? ({ kind: 'dropped', reached: false } as const)
        : await post(url, config.token, body, { connectMs, totalMs: remaining }).catch(
            // A URL that is not one: nothing can be reached.
            (): Outcome => ({ kind: 'dropped', reached: false }),
          );
    if (outcome.kind === 'output') {
      if (isObject(outcome.output)) process.stdout.write(`${JSON.stringify(outcome.output)}\n`);
      return 0;
    }
    reachedOnce ||= outcome.reached;
    // Never reached: nothing waits on a server for this call. A report that needs no answer is not retried.
    if (!reachedOnce || !asking) return 0;
    await new Promise((done) => setTimeout(done, Math.min(RETRY_MS, Math.max(0, deadline - Date.now()))));
  }
}

/** One report: the server's JSON lines, until `{output}` (or `{error}`), or the connection's end. */
async function post(
  url: string,
  token: string,
  body: string,
  limits: { connectMs: number; totalMs: number },
): Promise<Outcome> {
  const target = new URL('/api/hook-events', url);
  // TLS is loaded only for a server that needs it (it costs milliseconds on every call).
  const send = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise((settle) => {
    let reached = false;
    let done = false;
    const finish = (outcome: Outcome): void => {
      if (done) return;
      done = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      request.destroy();
      settle(outcome);
    };
    const request: ClientRequest = send(target, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    const connectTimer = setTimeout(() => finish({ kind: 'dropped', reached }), limits.connectMs);
    const totalTimer = setTimeout(() => finish({ kind: 'dropped', reached }), limits.totalMs);
    request.on('socket', (socket) => {
      const connected = (): void => {
        reached = true;
        clearTimeout(connectTimer);
      };
      if (socket.connecting) socket.once('connect', connected);
      else connected();
    });
    request.on('error', () => finish({ kind: 'dropped', reached }));
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        process.stderr.write(
          `warden hook: the server refused the report (HTTP ${response.statusCode ?? 0})\n`,
        );
        return finish({ kind: 'output', output: null });
      }
      let buffered = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffered += chunk;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) !== -1) {
          const line = parseObject(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
          if (line === undefined) continue;
          if ('output' in line) return finish({ kind: 'output', output: line.output });
          // The server let go of the wait (it is closing): asked again while the wait lasts. Any other
          // error ends the report with no answer.
          if ('error' in line)
            return finish(
              line.retry === true ? { kind: 'dropped', reached } : { kind: 'output', output: null },
            );
        }
      });
      response.on('error', () => finish({ kind: 'dropped', reached }));
      response.on('close', () => finish({ kind: 'dropped', reached }));
    });
    request.end(body);
  });
}

function readConfig(argv: readonly string[]): HookConfig | undefined {
  const flag = argv.indexOf('--config');
  const path =
    (flag === -1 ? undefined : argv[flag + 1]) ??
    (process.env.WARDEN_HOOK_CONFIG || undefined) ??
    join(defaultDataDir(), 'hook.json');
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = parseObject(readFileSync(path, 'utf8'));
  } catch {
    process.stderr.write(`warden hook: no hook configuration at ${path} (warden hook install writes it)\n`);
    return undefined;
  }
  if (parsed === undefined || typeof parsed.token !== 'string') return undefined;
  return parsed as unknown as HookConfig;
}

/** The address the data dir's running server recorded (server.json); a stale one is just unreachable. */
function serverUrl(dataDir: string): string | undefined {
  try {
    const url = parseObject(readFileSync(join(dataDir, 'server.json'), 'utf8'))?.url;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** As data-dir.ts says it (not imported: this command loads nothing of Warden's). */
function defaultDataDir(): string {
  const env = process.env;
  if (env.WARDEN_DATA_DIR) return resolve(env.WARDEN_DATA_DIR);
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'warden');
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((done) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => done(text));
    stream.on('error', () => done(''));
  });
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
