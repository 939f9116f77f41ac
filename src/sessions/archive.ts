// archiveSession / unarchiveSession: the mark lives in <project>/<sessionId>/archived.json beside the
// transcript ({archived, at, by}), where the CLI and the official SDK read it; the transcript itself is
// not touched. A prompt sent in the session later clears the mark (the CLI does that).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { NotFoundError } from '../protocol/errors.js';
import { allProjectDirs, findTranscripts, isSessionId, projectDirsFor } from './paths.js';
import { checkOptions } from './validate.js';
import type { SessionMutationOptions } from './types.js';

export function archiveSession(sessionId: string, options?: SessionMutationOptions): Promise<void> {
  return setArchived(sessionId, true, options);
}

export function unarchiveSession(sessionId: string, options?: SessionMutationOptions): Promise<void> {
  return setArchived(sessionId, false, options);
}

async function setArchived(
  sessionId: string,
  archived: boolean,
  options: SessionMutationOptions & { sessionStore?: unknown } = {},
): Promise<void> {
  if (options.sessionStore !== undefined)
    throw new TypeError(
      'archiving is not supported with sessionStore: the mark is a file beside the local transcript',
    );
  checkOptions(options, ['dir']);
  if (!isSessionId(sessionId)) throw new TypeError(`Invalid sessionId: ${String(sessionId)}`);
  const dirs = options.dir === undefined ? await allProjectDirs() : await projectDirsFor(options.dir);
  const transcripts = await findTranscripts(sessionId, dirs);
  if (transcripts.length === 0) {
    const where =
      options.dir === undefined ? 'in any project directory' : `in project directory for ${options.dir}`;
    throw new NotFoundError('session', sessionId, `Session ${sessionId} not found ${where}`);
  }
  const mark = JSON.stringify({ archived, at: new Date().toISOString(), by: 'sdk' });
  await Promise.all(
    transcripts.map(async (path) => {
      const file = join(dirname(path), sessionId, 'archived.json');
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await writeFile(file, mark, { mode: 0o600 });
    }),
  );
}
