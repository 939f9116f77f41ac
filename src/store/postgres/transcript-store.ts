// The CLIs' transcripts mirrored into PostgreSQL, in the official SDK's SessionStore shape (append/load):
// the supervisor passes it to query() as `sessionStore`, the CLI mirrors every transcript line it writes,
// and a host that resumes a conversation whose CLI ran on another machine loads it from here. Rows are
// appended in the order the CLI wrote them; `id` keeps that order across hosts.
import type { SessionKey, SessionStore, SessionStoreEntry } from '../../session/session-store.js';
import type { Statement } from './protocol.js';

/** Runs statements outside any transaction and returns their rows (PostgresStore's connection). */
export type RunStatements = (statements: Statement[]) => (readonly Record<string, unknown>[] | undefined)[];

/** A transcript key's subpath as stored: '' for the main transcript. */
function subpathOf(key: SessionKey): string {
  return key.subpath ?? '';
}

export class PostgresTranscriptStore implements SessionStore {
  readonly #run: RunStatements;

  constructor(run: RunStatements) {
    this.#run = run;
  }

  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    try {
      this.#run([
        {
          sql: `INSERT INTO warden_transcripts (project_key, session_id, subpath, entry)
                SELECT $1, $2, $3, line FROM unnest($4::text[]) WITH ORDINALITY AS t(line, n) ORDER BY n`,
          params: [key.projectKey, key.sessionId, subpathOf(key), entries.map((e) => JSON.stringify(e))],
        },
      ]);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    try {
      const [rows] = this.#run([
        {
          sql: `SELECT entry FROM warden_transcripts
                WHERE project_key = $1 AND session_id = $2 AND subpath = $3 ORDER BY id`,
          params: [key.projectKey, key.sessionId, subpathOf(key)],
        },
      ]);
      if (rows === undefined || rows.length === 0) return Promise.resolve(null);
      return Promise.resolve(rows.map((row) => JSON.parse(String(row.entry)) as SessionStoreEntry));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    try {
      const [rows] = this.#run([
        {
          sql: `SELECT DISTINCT subpath FROM warden_transcripts
                WHERE project_key = $1 AND session_id = $2 AND subpath <> ''`,
          params: [key.projectKey, key.sessionId],
        },
      ]);
      return Promise.resolve((rows ?? []).map((row) => String(row.subpath)));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
