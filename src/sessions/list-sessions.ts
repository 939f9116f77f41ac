// listSessions and getSessionInfo: metadata of past sessions, newest first, read from the transcripts
// the CLI wrote. Each transcript is read whole (they are rarely more than a few MB), a few at a time.
import { join } from 'node:path';
import {
  allProjectDirs,
  canonicalDir,
  isSessionId,
  projectDirsFor,
  readdirOrEmpty,
  type ProjectDir,
} from './paths.js';
import { cwdOf, isProgrammatic, sessionInfo } from './session-info.js';
import { defaultWarn, readTranscript, type Transcript, type Warn } from './transcript.js';
import { archivedState } from './archived-mark.js';
import { locateTranscript } from './locate.js';
import { checkOptions, page } from './validate.js';
import { worktreesOf } from './worktrees.js';
import type { GetSessionInfoOptions, ListSessionsOptions, SDKSessionInfo } from './types.js';

const PARALLEL_READS = 8;

export async function listSessions(options: ListSessionsOptions = {}): Promise<SDKSessionInfo[]> {
  checkOptions(options, ['dir', 'limit', 'offset', 'includeWorktrees', 'includeProgrammatic']);
  const warn = options.onWarning ?? defaultWarn;
  const dirs = await projectDirs(options);
  const files = (await Promise.all(dirs.map((dir) => transcriptsIn(dir)))).flat();
  const bySession = new Map<string, SDKSessionInfo>();
  for (let i = 0; i < files.length; i += PARALLEL_READS) {
    const batch = files.slice(i, i + PARALLEL_READS);
    const infos = await Promise.all(batch.map((file) => infoOf(file, options, warn)));
    for (const info of infos) {
      if (info === undefined) continue;
      const seen = bySession.get(info.sessionId);
      if (seen === undefined || seen.lastModified < info.lastModified) bySession.set(info.sessionId, info);
    }
  }
  const sorted = [...bySession.values()].sort(
    (a, b) => b.lastModified - a.lastModified || (a.sessionId < b.sessionId ? 1 : -1),
  );
  return page(sorted, options.offset, options.limit);
}

export async function getSessionInfo(
  sessionId: string,
  options: GetSessionInfoOptions = {},
): Promise<SDKSessionInfo | undefined> {
  checkOptions(options, ['dir']);
  const transcript = await locateTranscript(sessionId, options.dir, options.onWarning ?? defaultWarn);
  return transcript === undefined ? undefined : withArchived(transcript);
}

/** The session's info with `archived` as the official SDK reports it (undefined if never archived). */
async function withArchived(transcript: Transcript): Promise<SDKSessionInfo | undefined> {
  const info = sessionInfo(transcript);
  if (info === undefined) return undefined;
  return Object.assign(info, { archived: await archivedState(transcript.path, transcript.entries) });
}

interface TranscriptFile {
  path: string;
  project: ProjectDir;
  /** The directories whose sessions were asked for, when the project was matched by prefix. */
  cwds: Set<string> | undefined;
}

async function projectDirs(
  options: ListSessionsOptions,
): Promise<{ project: ProjectDir; cwds?: Set<string> }[]> {
  if (options.dir === undefined) return (await allProjectDirs()).map((project) => ({ project }));
  const roots = [canonicalDir(options.dir)];
  if (options.includeWorktrees !== false)
    for (const tree of await worktreesOf(roots[0]!)) if (!roots.includes(tree)) roots.push(tree);
  const found: { project: ProjectDir; cwds?: Set<string> }[] = [];
  for (const root of roots) {
    for (const project of await projectDirsFor(root)) {
      if (found.some((f) => f.project.path === project.path)) continue;
      found.push(project.byPrefix ? { project, cwds: new Set(roots) } : { project });
    }
  }
  return found;
}

async function transcriptsIn({
  project,
  cwds,
}: {
  project: ProjectDir;
  cwds?: Set<string>;
}): Promise<TranscriptFile[]> {
  const names = await readdirOrEmpty(project.path);
  return names
    .filter((name) => name.endsWith('.jsonl') && isSessionId(name.slice(0, -'.jsonl'.length)))
    .map((name) => ({ path: join(project.path, name), project, cwds }));
}

async function infoOf(
  file: TranscriptFile,
  options: ListSessionsOptions,
  warn: Warn,
): Promise<SDKSessionInfo | undefined> {
  const transcript = await readTranscript(file.path, warn);
  if (transcript === undefined) return undefined;
  if (options.includeProgrammatic === false && isProgrammatic(transcript)) return undefined;
  if (file.cwds !== undefined && !file.cwds.has(cwdOf(transcript.entries) ?? '')) return undefined;
  return withArchived(transcript);
}
