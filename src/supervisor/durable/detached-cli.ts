// The supervisor's side of detached CLI processes: where their pipes and spools live (`<dataDir>/cli`, one
// directory per process, named after its thread and generation), starting one for a thread, joining one an
// earlier host left, and removing what finished processes leave behind.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import type { CliProcess } from '../../store/records.js';
import type { CliLaunch } from '../../transport/cli-transport.js';
import { detachedPaths, spawnDetached } from '../../transport/detached-child.js';
import { DetachedTransport } from '../../transport/detached-transport.js';

/** A recorded process that can be joined again: detached, with everything needed to find it. */
export type DetachedProcess = CliProcess & { spoolDir: string; marker: string; startTime: number };

export function isDetachedProcess(cli: CliProcess | null): cli is DetachedProcess {
  return cli !== null && cli.spoolDir !== null && cli.marker !== null && cli.startTime !== null;
}

/** Where detached CLIs of this data directory keep their pipes and spools. */
export function spoolRoot(dataDir: string): string {
  return join(dataDir, 'cli');
}

export interface SpawnedCli {
  readonly transport: DetachedTransport;
  readonly spoolDir: string;
  readonly marker: string;
  readonly startTicks: number | undefined;
}

/** Starts the CLI `launch` describes, detached, spooling into `<root>/<threadId>.<generation>`. */
export async function spawnThreadCli(
  launch: CliLaunch,
  where: { root: string; threadId: string; generation: number },
): Promise<SpawnedCli> {
  mkdirSync(where.root, { recursive: true, mode: 0o700 });
  const spoolDir = join(where.root, `${where.threadId}.${where.generation}`);
  // The generation is new, so a directory of that name can only be a crash's leftover, never a live CLI's.
  rmSync(spoolDir, { recursive: true, force: true });
  const marker = randomUUID();
  const child = await spawnDetached({
    command: launch.command,
    args: launch.args,
    cwd: launch.cwd,
    env: launch.env,
    marker,
    dir: spoolDir,
  });
  const transport = new DetachedTransport({
    paths: child.paths,
    identity: { pid: child.pid, startTicks: child.startTicks },
    marker,
    exited: child.exited,
    onDiagnostic: launch.onDiagnostic,
    ...(launch.maxFrameBytes === undefined ? {} : { maxFrameBytes: launch.maxFrameBytes }),
  });
  return { transport, spoolDir, marker, startTicks: child.startTicks };
}

/** Joins a CLI an earlier host started, reading its spool on from the committed offset. */
export function joinThreadCli(launch: CliLaunch, cli: DetachedProcess): DetachedTransport {
  return new DetachedTransport({
    paths: detachedPaths(cli.spoolDir),
    identity: { pid: cli.pid, startTicks: cli.startTime },
    marker: cli.marker,
    offset: cli.spoolOffset,
    attaching: true,
    onDiagnostic: launch.onDiagnostic,
    ...(launch.maxFrameBytes === undefined ? {} : { maxFrameBytes: launch.maxFrameBytes }),
  });
}

/**
 * Removes every directory under `root` but those in `keep` (the spools of CLIs that are re-attached):
 * what processes that are gone left behind. Only direct children of `root` are touched.
 */
export function removeStraySpools(root: string, keep: ReadonlySet<string>): number {
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return 0;
  }
  const kept = new Set(
    [...keep].filter((dir) => dirname(resolve(dir)) === resolve(root)).map((d) => basename(d)),
  );
  let removed = 0;
  for (const entry of entries) {
    if (kept.has(entry)) continue;
    rmSync(join(root, entry), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
