// Makes the upgrade corpus (test/fixtures/upgrade-corpus): one real event log per schema version so far,
// each written by the Warden of a commit where that version was the newest. For each, the commit is
// checked out in a worktree of its own (with this checkout's node_modules), scenario.ts is copied in and
// run there against the scripted CLI, and the host it drives is killed at the end, so the log keeps
// approvals pending. A SQLite log is then checkpointed (SQLite's own WAL replay, nothing of Warden's) into
// one file; a PostgreSQL log is dumped as SQL text (pg_dump --inserts) that a test loads into a fresh
// database. The corpus test (test/integration/upgrade-replay.test.ts) opens every log with today's code.
// Usage: npx tsx scripts/make-upgrade-corpus.ts [name ...]   (names as in CORPUS below; default all)
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import Database from 'better-sqlite3';

import { postgresBinDir, startThrowawayCluster } from '../src/testing/postgres-cluster.js';
import { CORPUS, CORPUS_CWD, type CorpusLog } from '../test/fixtures/upgrade-corpus/corpus.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'test', 'fixtures', 'upgrade-corpus');
const SCRIPTS = ['scenario.ts', 'step-schema.ts'];

const wanted = new Set(process.argv.slice(2));
const logs = CORPUS.filter((log) => wanted.size === 0 || wanted.has(log.name));
const scratch = mkdtempSync(join(tmpdir(), 'warden-corpus-'));
const trees = new Map<string, string>();
const cluster = logs.some((log) => log.backend === 'postgres') ? await startThrowawayCluster() : undefined;
mkdirSync(CORPUS_CWD, { recursive: true });

/** A worktree of `commit` that runs with this checkout's node_modules and has the corpus scripts. */
function treeOf(commit: string): string {
  const known = trees.get(commit);
  if (known !== undefined) return known;
  const tree = join(scratch, `tree-${commit}`);
  execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', tree, commit], { stdio: 'ignore' });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(tree, 'node_modules'));
  mkdirSync(join(tree, 'scripts', 'upgrade-corpus'), { recursive: true });
  for (const name of SCRIPTS)
    copyFileSync(
      join(ROOT, 'scripts', 'upgrade-corpus', name),
      join(tree, 'scripts', 'upgrade-corpus', name),
    );
  trees.set(commit, tree);
  return tree;
}

function runIn(tree: string, script: string, args: string[], env: Record<string, string>): string {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join('scripts', 'upgrade-corpus', script), ...args],
    {
      cwd: tree,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  // The scenario ends by SIGKILL (a host that dies); anything else is a failure.
  const ended = script === 'scenario.ts' ? result.signal === 'SIGKILL' : result.status === 0;
  if (!ended) throw new Error(`${script} at ${tree}: ${result.status ?? result.signal}\n${result.stderr}`);
  return result.stdout.trim();
}

async function make(log: CorpusLog): Promise<void> {
  const tree = treeOf(log.commit);
  const dataDir = join(scratch, `data-${log.name}`);
  const env: Record<string, string> = {
    CORPUS_DATA_DIR: dataDir,
    CORPUS_CWD,
    CORPUS_DEADLINES: log.deadlines ? '1' : '0',
  };
  if (log.backend === 'sqlite') {
    const file = join(OUT, log.file);
    if (log.from === undefined) {
      console.log(log.name, runIn(tree, 'scenario.ts', [], env));
      checkpoint(join(dataDir, 'warden.db'));
      copyFileSync(join(dataDir, 'warden.db'), file);
    } else {
      // A version no commit had as its newest: the log before it, stepped up by this commit's migration.
      const source = CORPUS.find((other) => other.name === log.from);
      if (source === undefined) throw new Error(`${log.name}: no log ${log.from}`);
      copyFileSync(join(OUT, source.file), file);
      console.log(log.name, 'stepped to', runIn(tree, 'step-schema.ts', [file, String(log.version)], {}));
      checkpoint(file);
    }
    return;
  }
  if (cluster === undefined) throw new Error('no PostgreSQL cluster');
  const url = await cluster.createDatabase();
  console.log(log.name, runIn(tree, 'scenario.ts', [], { ...env, CORPUS_STORE: url }));
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error('no pg_dump');
  const dump = execFileSync(
    join(bin, 'pg_dump'),
    ['--inserts', '--no-owner', '--no-privileges', '--no-comments', '--table=warden_*', url],
    { encoding: 'utf8' },
  );
  // psql's meta-commands (\restrict and \unrestrict in newer dumps) are not SQL: the test runs the rest.
  const sql = dump
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
  writeFileSync(join(OUT, log.file), sql);
}

/** Folds the WAL a killed host left into the database file, as SQLite does on the next open. */
function checkpoint(file: string): void {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

try {
  for (const log of logs) await make(log);
} finally {
  await cluster?.stop();
  for (const tree of trees.values())
    execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', tree], { stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
