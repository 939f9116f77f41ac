// Hands the CLI's `transcript_mirror` frames (sent under `--session-mirror`) to the session store, as the
// official SDK does: batched per transcript file, flushed before each result is delivered (or per frame
// with `sessionStoreFlush: 'eager'`), each append retried twice after a short backoff and bounded by a
// timeout; a batch that still fails is dropped and reported as a `system/mirror_error` message.
import { relative, sep } from 'node:path';
import type { CliTransport } from '../transport/cli-transport.js';
import type { SessionKey, SessionStore, SessionStoreEntry, SessionStoreFlush } from './session-store.js';

const MAX_PENDING_ENTRIES = 500;
const MAX_PENDING_BYTES = 1024 * 1024;
const BACKOFF_MS = [200, 800];
const APPEND_TIMEOUT_MS = 60_000;

type Frame = Record<string, unknown>;

/** The store key of a transcript file under `<config>/projects`, or null for a file outside it. */
export function keyOfTranscript(filePath: string, projectsDir: string): SessionKey | null {
  const path = relative(projectsDir, filePath);
  const parts = path.split(sep);
  if (parts[0] === '..' || path.startsWith(sep) || parts.length < 2) return null;
  const [projectKey, second] = parts as [string, string];
  if (parts.length === 2 && second.endsWith('.jsonl'))
    return { projectKey, sessionId: second.replace(/\.jsonl$/, '') };
  if (parts.length >= 4) {
    const subpath = parts.slice(2);
    subpath[subpath.length - 1] = subpath.at(-1)!.replace(/\.jsonl$/, '');
    return { projectKey, sessionId: second, subpath: subpath.join('/') };
  }
  return null;
}

export class TranscriptMirror {
  readonly #store: SessionStore;
  readonly #projectsDir: string;
  readonly #eager: boolean;
  readonly #onWarning: (text: string) => void;
  #pending: Array<{ filePath: string; entries: SessionStoreEntry[] }> = [];
  #pendingEntries = 0;
  #pendingBytes = 0;
  #flushing: Promise<void> = Promise.resolve();
  /** Failures not yet delivered to the caller as mirror_error messages. */
  readonly failures: Frame[] = [];

  constructor(options: {
    store: SessionStore;
    projectsDir: string;
    flush?: SessionStoreFlush;
    onWarning: (text: string) => void;
  }) {
    this.#store = options.store;
    this.#projectsDir = options.projectsDir;
    this.#eager = options.flush === 'eager';
    this.#onWarning = options.onWarning;
  }

  enqueue(frame: Frame): void {
    const { filePath, entries } = frame;
    if (typeof filePath !== 'string' || !Array.isArray(entries)) return;
    this.#pending.push({ filePath, entries: entries as SessionStoreEntry[] });
    this.#pendingEntries += entries.length;
    this.#pendingBytes += JSON.stringify(entries).length;
    if (this.#eager || this.#pendingEntries > MAX_PENDING_ENTRIES || this.#pendingBytes > MAX_PENDING_BYTES)
      void this.flush();
  }

  /** Appends everything pending, in order after any flush under way. Never rejects. */
  flush(): Promise<void> {
    const batch = this.#pending.splice(0);
    this.#pendingEntries = 0;
    this.#pendingBytes = 0;
    this.#flushing = this.#flushing.then(() => this.#send(batch));
    return this.#flushing;
  }

  async #send(batch: Array<{ filePath: string; entries: SessionStoreEntry[] }>): Promise<void> {
    const byFile = new Map<string, SessionStoreEntry[]>();
    for (const { filePath, entries } of batch) {
      const list = byFile.get(filePath);
      if (list === undefined) byFile.set(filePath, [...entries]);
      else list.push(...entries);
    }
    for (const [filePath, entries] of byFile) {
      const key = keyOfTranscript(filePath, this.#projectsDir);
      if (key === null) {
        this.#onWarning(`session store: dropped a transcript outside ${this.#projectsDir}: ${filePath}`);
        continue;
      }
      const error = await this.#appendWithRetry(key, entries);
      if (error !== undefined) {
        this.#onWarning(`session store: append failed for ${filePath}: ${error.message}`);
        this.failures.push({
          type: 'system',
          subtype: 'mirror_error',
          error: error.message,
          key,
          session_id: key.sessionId,
        });
      }
    }
  }

  async #appendWithRetry(key: SessionKey, entries: SessionStoreEntry[]): Promise<Error | undefined> {
    let failure: Error | undefined;
    for (let attempt = 0; attempt <= BACKOFF_MS.length; attempt += 1) {
      const timeout = `SessionStore.append() timed out after ${APPEND_TIMEOUT_MS}ms`;
      try {
        await withTimeout(this.#store.append(key, entries), APPEND_TIMEOUT_MS, timeout);
        return undefined;
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        // A timed-out append may still land: retrying could store the batch twice.
        if (failure.message === timeout) return failure;
        const wait = BACKOFF_MS[attempt];
        if (wait === undefined) return failure;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    return failure;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The transport with the mirror frames taken out of the stream: they go to the store, every result waits
 * for the store to have what came before it, and failures come out as `mirror_error` messages.
 */
export function mirroringTransport(transport: CliTransport, mirror: TranscriptMirror): CliTransport {
  async function* frames(): AsyncGenerator<Frame> {
    try {
      for await (const frame of transport.frames()) {
        if (frame.type === 'transcript_mirror') {
          mirror.enqueue(frame);
          continue;
        }
        if (frame.type === 'result') await mirror.flush();
        yield* mirror.failures.splice(0);
        yield frame;
      }
    } finally {
      await mirror.flush();
    }
  }
  return {
    get pid() {
      return transport.pid;
    },
    exited: transport.exited,
    frames,
    send: (frame) => transport.send(frame),
    endInput: () => transport.endInput(),
    close: () => transport.close(),
    ...(transport.attaching === undefined ? {} : { attaching: transport.attaching }),
    ...(transport.detach === undefined ? {} : { detach: () => transport.detach!() }),
  };
}
