// The session store: a mirror of the CLI's transcripts in storage the application chooses (the official
// SDK's alpha `sessionStore` option). The CLI still writes its transcript to disk; with `--session-mirror`
// it also sends every line it wrote as a `transcript_mirror` frame, which the host hands to `append`.
// A resume from a store loads the transcript back and gives the CLI a private config directory holding it.

/** Identifies a transcript: the main one (no subpath) or a subagent's (`subagents/agent-<id>`). */
export type SessionKey = {
  /** By default the session's cwd with every character that is not a letter or digit turned into '-'. */
  projectKey: string;
  sessionId: string;
  subpath?: string;
};

/** One JSONL transcript line; adapters treat it as an opaque JSON object. */
export type SessionStoreEntry = {
  type: string;
  uuid?: string;
  timestamp?: string;
  [k: string]: unknown;
};

/** Kept by stores that fold summaries in `append`; `data` is opaque to the store. */
export type SessionSummaryEntry = {
  sessionId: string;
  mtime: number;
  data: Record<string, unknown>;
};

export type SessionStore = {
  /** Called after the CLI's own write succeeded; entries in the order the CLI wrote them. */
  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void>;
  /** The entries appended under `key`, or null for a key never written. */
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>;
  listSessions?(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>>;
  listSessionSummaries?(projectKey: string): Promise<SessionSummaryEntry[]>;
  delete?(key: SessionKey): Promise<void>;
  listSubkeys?(key: { projectKey: string; sessionId: string }): Promise<string[]>;
};

/**
 * `'batched'` (default): frames are collected and appended at the end of each turn (before its result is
 * delivered) or when many are pending; `'eager'`: each frame is appended as it arrives.
 */
export type SessionStoreFlush = 'batched' | 'eager';

export type ImportSessionToStoreOptions = {
  dir?: string;
  includeSubagents?: boolean;
  batchSize?: number;
};

/** A SessionStore in memory, for tests and development: everything is lost when the process exits. */
export class InMemorySessionStore implements SessionStore {
  readonly #entries = new Map<string, SessionStoreEntry[]>();
  readonly #mtimes = new Map<string, number>();
  #lastMtime = 0;

  #keyOf(key: SessionKey): string {
    return key.subpath
      ? `${key.projectKey}/${key.sessionId}/${key.subpath}`
      : `${key.projectKey}/${key.sessionId}`;
  }

  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    const id = this.#keyOf(key);
    const list = this.#entries.get(id) ?? [];
    list.push(...entries);
    this.#entries.set(id, list);
    // Strictly increasing, so the newest session sorts first even within one millisecond.
    this.#lastMtime = Math.max(Date.now(), this.#lastMtime + 1);
    this.#mtimes.set(id, this.#lastMtime);
    return Promise.resolve();
  }

  load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    return Promise.resolve(this.#entries.get(this.#keyOf(key)) ?? null);
  }

  listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    const prefix = `${projectKey}/`;
    const sessions: Array<{ sessionId: string; mtime: number }> = [];
    for (const id of this.#entries.keys()) {
      const rest = id.startsWith(prefix) ? id.slice(prefix.length) : undefined;
      if (rest !== undefined && !rest.includes('/'))
        sessions.push({ sessionId: rest, mtime: this.#mtimes.get(id) ?? 0 });
    }
    return Promise.resolve(sessions);
  }

  /** One entry per main transcript; `data` stays empty (Warden folds no summaries). */
  async listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]> {
    const sessions = await this.listSessions(projectKey);
    return sessions.map(({ sessionId, mtime }) => ({ sessionId, mtime, data: {} }));
  }

  delete(key: SessionKey): Promise<void> {
    const id = this.#keyOf(key);
    this.#entries.delete(id);
    this.#mtimes.delete(id);
    if (key.subpath === undefined) {
      for (const other of [...this.#entries.keys()]) {
        if (other.startsWith(`${id}/`)) {
          this.#entries.delete(other);
          this.#mtimes.delete(other);
        }
      }
    }
    return Promise.resolve();
  }

  listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    const prefix = `${key.projectKey}/${key.sessionId}/`;
    return Promise.resolve(
      [...this.#entries.keys()].filter((id) => id.startsWith(prefix)).map((id) => id.slice(prefix.length)),
    );
  }

  /** Test helper: the entries stored under `key`. */
  getEntries(key: SessionKey): SessionStoreEntry[] {
    return this.#entries.get(this.#keyOf(key)) ?? [];
  }

  /** Test helper: the number of main transcripts stored. */
  get size(): number {
    let count = 0;
    for (const id of this.#entries.keys()) {
      const slash = id.indexOf('/');
      if (slash !== -1 && !id.slice(slash + 1).includes('/')) count += 1;
    }
    return count;
  }

  /** Test helper: forget everything. */
  clear(): void {
    this.#entries.clear();
    this.#mtimes.clear();
  }
}
