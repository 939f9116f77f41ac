// Finds a session's transcript: in the project directory of `dir` when given, else in every project.
// The mutations need it to exist and say so with a NotFoundError; the readers just return nothing.
import { NotFoundError } from '../protocol/errors.js';
import { allProjectDirs, canonicalDir, findTranscripts, isSessionId, projectDirsFor } from './paths.js';
import { readTranscript, type Transcript, type Warn } from './transcript.js';
import { cwdOf } from './session-info.js';

export async function locateTranscript(
  sessionId: string,
  dir: string | undefined,
  warn: Warn,
): Promise<Transcript | undefined> {
  if (!isSessionId(sessionId)) return undefined;
  const dirs = dir === undefined ? await allProjectDirs() : await projectDirsFor(dir);
  for (const path of await findTranscripts(sessionId, dirs)) {
    const transcript = await readTranscript(path, warn);
    if (transcript === undefined) continue;
    // A project matched by its 200-character prefix may hold another directory's sessions.
    const byPrefix = dirs.some((d) => d.byPrefix && path.startsWith(d.path));
    if (byPrefix && dir !== undefined && cwdOf(transcript.entries) !== canonicalDir(dir)) continue;
    return transcript;
  }
  return undefined;
}

/** As locateTranscript, for functions that change a session: a bad id is a TypeError, none a NotFoundError. */
export async function requireTranscript(
  sessionId: string,
  dir: string | undefined,
  warn: Warn,
): Promise<Transcript> {
  if (!isSessionId(sessionId)) throw new TypeError(`Invalid sessionId: ${String(sessionId)}`);
  const transcript = await locateTranscript(sessionId, dir, warn);
  if (transcript !== undefined) return transcript;
  const where = dir === undefined ? 'in any project directory' : `in project directory for ${dir}`;
  throw new NotFoundError('session', sessionId, `Session ${sessionId} not found ${where}`);
}
