// `warden hook install|uninstall|status`: Warden's hooks in a Claude Code settings file, so that every
// session on the machine (terminal, IDE, `claude -p`) reports to the running server. The settings file
// gets only commands; the report-only token (role hook) lives in `<dataDir>/hook.json` (0600), never in a
// settings file that other programs read. Every change is shown as a diff first and asked (`--yes` for
// scripts). Uninstall puts the file back byte for byte when nobody changed it since; otherwise it takes
// out only Warden's entries. The last uninstall revokes the token.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { ValidationError } from '../protocol/errors.js';
import { liveServerAddress } from '../server/address-file.js';
import { DeciderTokens } from '../server/deciders.js';
import { AnswerReader } from './answer-reader.js';
import type { CommandOf } from './args/index.js';
import { defaultDataDir } from './data-dir.js';
import { hasHooks, lineDiff, withHooks, withoutHooks } from './hook-settings.js';
import { shellQuote, wardenProgram } from './program-name.js';

export const HOOK_CONFIG_FILE = 'hook.json';
/**
 * How long a PermissionRequest waits for a person in Warden before the CLI asks in its terminal. Short,
 * because the interactive CLI's own dialog takes no answer while the hook waits (docs/external-sessions.md).
 */
const DEFAULT_WAIT_MS = 2 * 60 * 1000;
/** A headless session (`claude -p`) has nobody to ask after the wait: it may wait longer. */
const DEFAULT_HEADLESS_WAIT_MS = 30 * 60 * 1000;

interface Install {
  scope: 'user' | 'project';
  path: string;
  /** The file before install (null: there was none), and what install left: uninstall's way back. */
  before: string | null;
  after: string;
}

interface HookConfig {
  token: string;
  tokenName: string;
  dataDir: string;
  url?: string;
  waitMs: number;
  headlessWaitMs: number;
  installs: Install[];
}

export async function hookCommand(command: CommandOf<'hook'>): Promise<number> {
  const dataDir = resolve(command.dataDir ?? defaultDataDir());
  const configPath = join(dataDir, HOOK_CONFIG_FILE);
  const settingsPath = settingsFileOf(command.scope);
  const ours = (text: string): boolean =>
    text.includes(' hook run ') && text.endsWith(` --config ${shellQuote(configPath)}`);
  const config = readConfig(configPath);
  switch (command.action) {
    case 'status':
      return status(dataDir, configPath, config, ours);
    case 'install':
      return install(command, { dataDir, configPath, settingsPath, config, ours });
    case 'uninstall':
      return uninstall(command, { dataDir, configPath, settingsPath, config, ours });
  }
}

interface Where {
  dataDir: string;
  configPath: string;
  settingsPath: string;
  config: HookConfig | undefined;
  ours: (command: string) => boolean;
}

async function install(command: CommandOf<'hook'>, where: Where): Promise<number> {
  const { dataDir, configPath, settingsPath, ours } = where;
  const before = readText(settingsPath);
  if (hasHooks(before, settingsPath, ours)) {
    process.stdout.write(`Warden's hooks are in ${settingsPath} already.\n`);
    return 0;
  }
  const waitMs = command.waitMs ?? where.config?.waitMs ?? DEFAULT_WAIT_MS;
  const headlessWaitMs = command.headlessWaitMs ?? where.config?.headlessWaitMs ?? DEFAULT_HEADLESS_WAIT_MS;
  const program = wardenProgram();
  const after = withHooks(
    before,
    settingsPath,
    (event) => `${program} hook run ${event} --config ${shellQuote(configPath)}`,
    Math.max(waitMs, headlessWaitMs),
  );
  process.stdout.write(
    `${before === null ? 'New file' : 'Changes to'} ${settingsPath}:\n${lineDiff(before ?? '', after)}\n`,
  );
  if (!(await confirm(command, `Write ${settingsPath}?`))) return 1;
  let config = where.config;
  if (config === undefined) {
    const deciders = new DeciderTokens(dataDir);
    const taken = new Set(
      deciders
        .list()
        .filter((d) => d.revokedAt === null)
        .map((d) => d.name),
    );
    let tokenName = 'hook';
    for (let n = 2; taken.has(tokenName); n += 1) tokenName = `hook-${n}`;
    const { token } = deciders.create(tokenName, { role: 'hook' });
    config = { token, tokenName, dataDir, waitMs, headlessWaitMs, installs: [] };
  }
  config = {
    ...config,
    waitMs,
    headlessWaitMs,
    ...(command.server === undefined ? {} : { url: command.server }),
    installs: [
      ...config.installs.filter((i) => i.path !== settingsPath),
      { scope: command.scope, path: settingsPath, before, after },
    ],
  };
  writeConfig(configPath, config);
  writeText(settingsPath, after);
  process.stdout.write(
    `Installed. Sessions started from now on report to ${config.url ?? "the data dir's running server"} as ${config.tokenName} (a report-only token in ${configPath}).\n`,
  );
  return 0;
}

async function uninstall(command: CommandOf<'hook'>, where: Where): Promise<number> {
  const { dataDir, configPath, settingsPath, config, ours } = where;
  const current = readText(settingsPath);
  const record = config?.installs.find((i) => i.path === settingsPath);
  if (current === null || !hasHooks(current, settingsPath, ours)) {
    process.stdout.write(`Warden's hooks are not in ${settingsPath}.\n`);
  } else {
    // Untouched since install: exactly as it was. Changed meanwhile: only Warden's entries come out.
    const restored =
      record !== undefined && record.after === current
        ? record.before
        : withoutHooks(current, settingsPath, ours);
    process.stdout.write(
      `${restored === null ? 'Removes' : 'Changes to'} ${settingsPath}:\n${lineDiff(current, restored ?? '')}\n`,
    );
    if (!(await confirm(command, `${restored === null ? 'Remove' : 'Write'} ${settingsPath}?`))) return 1;
    if (restored === null) rmSync(settingsPath, { force: true });
    else writeText(settingsPath, restored);
  }
  if (config === undefined) return 0;
  const installs = config.installs.filter((i) => i.path !== settingsPath);
  if (installs.length > 0) {
    writeConfig(configPath, { ...config, installs });
    return 0;
  }
  // No settings file runs the hook any more: its token goes, and the file that held it.
  try {
    new DeciderTokens(dataDir).revoke(config.tokenName);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'NOT_FOUND')) throw error;
  }
  rmSync(configPath, { force: true });
  process.stdout.write(`Revoked the hook token ${config.tokenName} and removed ${configPath}.\n`);
  return 0;
}

function status(
  dataDir: string,
  configPath: string,
  config: HookConfig | undefined,
  ours: (command: string) => boolean,
): number {
  for (const scope of ['user', 'project'] as const) {
    const path = settingsFileOf(scope);
    const installed = hasHooks(readText(path), path, ours);
    process.stdout.write(`${scope.padEnd(8)} ${path}: ${installed ? 'installed' : 'not installed'}\n`);
  }
  if (config === undefined) {
    process.stdout.write(`No hook configuration at ${configPath} (warden hook install writes it).\n`);
    return 0;
  }
  const live = new DeciderTokens(dataDir).isActive(config.tokenName);
  const server = config.url ?? liveServerAddress(dataDir)?.url;
  process.stdout.write(
    `Token: ${config.tokenName} (role hook), ${live ? 'live' : 'revoked: install again'}; configuration ${configPath}\n` +
      `Server: ${server ?? 'none running on the data dir: hooks print nothing and the CLI asks in its terminal'}\n`,
  );
  return 0;
}

/** The Claude Code settings file of the scope: the user's, or this folder's personal (uncommitted) one. */
function settingsFileOf(scope: 'user' | 'project'): string {
  if (scope === 'project') return resolve('.claude', 'settings.local.json');
  const configDir = process.env.CLAUDE_CONFIG_DIR;
  return join(
    configDir !== undefined && configDir !== '' ? configDir : join(homedir(), '.claude'),
    'settings.json',
  );
}

async function confirm(command: CommandOf<'hook'>, question: string): Promise<boolean> {
  if (command.yes === true) return true;
  if (process.stdin.isTTY !== true)
    throw new ValidationError('Not a terminal: pass --yes to write without asking', 'yes');
  process.stdout.write(`${question} [y/N] `);
  const reader = new AnswerReader();
  try {
    const answer = (await reader.next()) ?? '';
    if (/^y(es)?$/i.test(answer.trim())) return true;
    process.stdout.write('Nothing was changed.\n');
    return false;
  } finally {
    reader.close();
  }
}

function readConfig(path: string): HookConfig | undefined {
  const text = readText(path);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as HookConfig;
  } catch {
    throw new ValidationError(
      `${path} is not a hook configuration Warden wrote; remove it and install again`,
    );
  }
}

function writeConfig(path: string, config: HookConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/** Replaced whole, never half-written, keeping the file's mode (a private settings file stays private). */
function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: existsSync(path) ? statSync(path).mode & 0o777 : 0o644 });
  renameSync(temporary, path);
}
