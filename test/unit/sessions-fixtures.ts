// Hand-written transcripts for the session-function tests: a config dir with projects, and entries shaped
// as Claude Code 2.1.328 writes them (only the fields that matter here).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ConfigDir {
  readonly root: string;
  /** A project folder for `cwd` (created on demand). */
  project(cwd: string): string;
  /** Writes a transcript; entries are objects or raw lines. Returns its path. */
  write(sessionId: string, entries: (Record<string, unknown> | string)[], cwd?: string): string;
  /** Points CLAUDE_CONFIG_DIR here until the returned function is called. */
  activate(): () => void;
  cleanup(): void;
}

export const PROJECT_CWD = '/home/dev/demo-project';

export function createConfigDir(): ConfigDir {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-sessions-')));
  const project = (cwd: string) => {
    const dir = join(root, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  return {
    root,
    project,
    write(sessionId, entries, cwd = PROJECT_CWD) {
      const path = join(project(cwd), `${sessionId}.jsonl`);
      const lines = entries.map((e) => (typeof e === 'string' ? e : JSON.stringify({ sessionId, ...e })));
      writeFileSync(path, `${lines.join('\n')}\n`);
      return path;
    },
    activate() {
      const previous = process.env.CLAUDE_CONFIG_DIR;
      process.env.CLAUDE_CONFIG_DIR = root;
      return () => {
        if (previous === undefined) delete process.env.CLAUDE_CONFIG_DIR;
        else process.env.CLAUDE_CONFIG_DIR = previous;
      };
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

let counter = 0;

/** A deterministic UUID: `n` in the last group. */
export function uuid(n: number, prefix = '00000000-0000-4000-8000'): string {
  return `${prefix}-${String(n).padStart(12, '0')}`;
}

export function sessionId(n: number): string {
  return uuid(n, '11111111-1111-4111-8111');
}

type Extra = Record<string, unknown>;

function entry(type: string, parent: string | null, extra: Extra): Record<string, unknown> {
  counter += 1;
  return {
    parentUuid: parent,
    isSidechain: false,
    type,
    uuid: uuid(counter),
    timestamp: `2026-01-01T00:00:${String(counter % 60).padStart(2, '0')}.000Z`,
    cwd: PROJECT_CWD,
    gitBranch: 'main',
    ...extra,
  };
}

export function user(
  content: unknown,
  parent: string | null = null,
  extra: Extra = {},
): Record<string, unknown> {
  return entry('user', parent, { message: { role: 'user', content }, ...extra });
}

export function assistant(text: string, parent: string | null, extra: Extra = {}): Record<string, unknown> {
  return entry('assistant', parent, {
    message: { role: 'assistant', content: [{ type: 'text', text }] },
    ...extra,
  });
}

export function attachment(parent: string | null, extra: Extra = {}): Record<string, unknown> {
  return entry('attachment', parent, { attachment: { type: 'date' }, ...extra });
}

export function system(subtype: string, parent: string | null, extra: Extra = {}): Record<string, unknown> {
  return entry('system', parent, { subtype, content: subtype, level: 'info', ...extra });
}

export function progress(parent: string | null): Record<string, unknown> {
  return entry('progress', parent, { data: {} });
}

/** The uuid of an entry built above. */
export function id(e: Record<string, unknown>): string {
  return String(e.uuid);
}
