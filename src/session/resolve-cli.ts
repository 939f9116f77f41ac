// Finds the Claude Code executable. Order: the explicit option, CLAUDE_CODE_EXECUTABLE, the binary of the
// platform package Warden itself depends on (@anthropic-ai/claude-agent-sdk-<platform>, an optional dependency
// at the version Warden is tested with), and only when that is not installed: `claude` on PATH, then an
// installed @anthropic-ai/claude-code or agent-sdk platform package resolved from the working directory.
// A CLI found past the bundled one is reported with its version (read from disk, never by running it), so
// a user can tell which CLI a problem came from.
// The result may be a JavaScript file (older @anthropic-ai/claude-code releases ship cli.js): the spawner
// decides how to run it.
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';

import { CliNotFoundError } from '../protocol/errors.js';

export interface ResolveClaudeOptions {
  /** A path (or command name) chosen by the caller; wins over everything else. */
  readonly explicit?: string;
  /** Where CLAUDE_CODE_EXECUTABLE and PATH are read. Defaults to process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where installed packages are looked up when none is bundled. Defaults to process.cwd(). */
  readonly cwd?: string;
  /**
   * Told when no CLI is bundled with Warden and another one is used (from PATH or the working directory's
   * packages): a CliNotFoundError whose message names the bundled package missing and the path and version
   * of the CLI used instead.
   */
  readonly onWarning?: (warning: CliNotFoundError) => void;
}

const SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';
const CLI_PACKAGE = '@anthropic-ai/claude-code';

const INSTALL_HINT =
  'Warden brings the CLI in its optional dependency on the platform package: reinstall it without ' +
  `--omit=optional (or \`npm install ${SDK_PACKAGE}\`), or \`npm install -g ${CLI_PACKAGE}\`, or point ` +
  'CLAUDE_CODE_EXECUTABLE (or the `pathToClaudeCodeExecutable` option) at the executable.';

let muslCache: boolean | undefined;

function isMusl(): boolean {
  if (process.platform !== 'linux') return false;
  // glibc reports its runtime version here; musl does not.
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  muslCache ??= report?.header?.glibcVersionRuntime === undefined;
  return muslCache;
}

/** `@anthropic-ai/claude-agent-sdk-<platform>-<arch>[-musl]`, most likely first. */
export function platformPackageNames(platform = process.platform, arch = process.arch): string[] {
  const base = `${SDK_PACKAGE}-${platform}-${arch}`;
  if (platform !== 'linux') return [base];
  return isMusl() ? [`${base}-musl`, base] : [base, `${base}-musl`];
}

function binaryName(): string {
  return process.platform === 'win32' ? 'claude.exe' : 'claude';
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Resolves from Warden's own package: its optional dependencies, wherever the application installed it. */
const wardenRequire = createRequire(import.meta.url);

function cwdRequire(cwd: string): NodeJS.Require {
  return createRequire(join(resolve(cwd), 'noop.js'));
}

function tryResolve(require: NodeJS.Require, request: string): string | undefined {
  try {
    return require.resolve(request);
  } catch {
    return undefined;
  }
}

function fromPlatformPackage(require: NodeJS.Require): string | undefined {
  for (const name of platformPackageNames()) {
    const path = tryResolve(require, `${name}/${binaryName()}`);
    if (path !== undefined && isExecutableFile(path)) return path;
  }
  return undefined;
}

function fromCliPackage(require: NodeJS.Require): string | undefined {
  const manifest = tryResolve(require, `${CLI_PACKAGE}/package.json`);
  if (manifest === undefined) return undefined;
  try {
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> };
    const relative = typeof bin === 'string' ? bin : bin?.claude;
    if (relative === undefined) return undefined;
    const path = join(dirname(manifest), relative);
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

function fromPath(pathVar: string | undefined): string | undefined {
  if (pathVar === undefined || pathVar === '') return undefined;
  const names = process.platform === 'win32' ? ['claude.exe', 'claude.cmd', 'claude'] : ['claude'];
  for (const dir of pathVar.split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

function checkChosen(path: string, source: string): string {
  // A bare command name is left to the spawner's own PATH lookup; a path must exist.
  const looksLikePath = isAbsolute(path) || path.includes('/') || path.includes('\\');
  if (looksLikePath && !isExecutableFile(path)) {
    throw new CliNotFoundError(
      `${source} points at ${path}, which is not an executable file. ${INSTALL_HINT}`,
    );
  }
  return path;
}

/** Where a resolved executable came from. */
export type ClaudeSource = 'explicit' | 'env' | 'bundled' | 'path' | 'installed';

export interface ResolvedClaude {
  readonly path: string;
  readonly source: ClaudeSource;
}

export function locateClaudeExecutable(options: ResolveClaudeOptions = {}): ResolvedClaude {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('resolveClaudeExecutable: options must be an object');
  const { explicit, env = process.env, cwd = process.cwd(), onWarning } = options;
  if (onWarning !== undefined && typeof onWarning !== 'function')
    throw new TypeError('resolveClaudeExecutable: onWarning must be a function');
  if (explicit !== undefined) {
    if (typeof explicit !== 'string' || explicit === '')
      throw new TypeError('resolveClaudeExecutable: explicit must be a non-empty string');
    return { path: checkChosen(explicit, 'The explicit executable option'), source: 'explicit' };
  }
  if (typeof cwd !== 'string' || cwd === '')
    throw new TypeError('resolveClaudeExecutable: cwd must be a non-empty string');
  const fromEnv = env.CLAUDE_CODE_EXECUTABLE;
  if (fromEnv !== undefined && fromEnv !== '')
    return { path: checkChosen(fromEnv, 'CLAUDE_CODE_EXECUTABLE'), source: 'env' };
  const bundled = fromPlatformPackage(wardenRequire);
  if (bundled !== undefined) return { path: bundled, source: 'bundled' };
  const onPath = fromPath(env.PATH ?? env.Path);
  if (onPath !== undefined) return unbundled({ path: onPath, source: 'path' }, options.onWarning);
  const require = cwdRequire(cwd);
  const installed = fromCliPackage(require) ?? fromPlatformPackage(require);
  if (installed !== undefined) return unbundled({ path: installed, source: 'installed' }, options.onWarning);
  throw new CliNotFoundError(
    `Claude Code CLI not found: no CLAUDE_CODE_EXECUTABLE, no bundled ${platformPackageNames().join(' / ')}, ` +
      `no \`claude\` on PATH, and no ${CLI_PACKAGE} installed. ${INSTALL_HINT}`,
  );
}

function unbundled(found: ResolvedClaude, onWarning: ResolveClaudeOptions['onWarning']): ResolvedClaude {
  if (onWarning === undefined) return found;
  const where = found.source === 'path' ? '`claude` on PATH' : 'an installed package';
  const version = installedClaudeVersion(found.path) ?? 'an unknown version';
  onWarning(
    new CliNotFoundError(
      `No Claude Code CLI is bundled with Warden (${platformPackageNames().join(' / ')} is not installed; ` +
        `was it installed with --omit=optional?): using ${where}, ${found.path}, version ${version}.`,
    ),
  );
  return found;
}

export function resolveClaudeExecutable(options: ResolveClaudeOptions = {}): string {
  return locateClaudeExecutable(options).path;
}

/**
 * The version of an installed CLI, read from disk without running it: the versioned file or directory name
 * the native installer uses, or the `package.json` of the npm package it belongs to (an agent-sdk platform
 * package's version is the SDK's, and is labelled so). Undefined when neither says.
 */
const VERSION = /^\d+\.\d+\.\d+(?:-[\w.]+)?$/;

export function installedClaudeVersion(path: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return undefined;
  }
  const named = [basename(real), basename(dirname(real))].find((name) => VERSION.test(name));
  if (named !== undefined) return named;
  let dir = dirname(real);
  for (let depth = 0; depth < 3; depth += 1, dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (typeof manifest.version !== 'string') continue;
      // The agent-sdk platform packages carry the SDK's version, not the CLI's: say whose it is.
      if (typeof manifest.name === 'string' && manifest.name.startsWith(`${SDK_PACKAGE}-`))
        return `${manifest.version} (${manifest.name})`;
      return manifest.version;
    } catch {
      // No manifest here; look one level up.
    }
  }
  return undefined;
}

/** Selects the CLI the tests run: a version of an installed `claude-code-<version>` package, or a path. */
export const TEST_CLI_VARIABLE = 'WARDEN_TEST_CLI';

/**
 * The binary tests should run, ignoring PATH and CLAUDE_CODE_EXECUTABLE so the pinned version wins over
 * whatever `claude` the machine has: the agent-sdk platform package Warden depends on (else one resolved from
 * `cwd`). `WARDEN_TEST_CLI` picks another: a path, or a version `V` naming an installed package
 * `claude-code-V` (an npm alias of an agent-sdk platform package, e.g. `claude-code-2.1.328`).
 */
export function pinnedClaudePath(
  cwd: string = process.cwd(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const chosen = env[TEST_CLI_VARIABLE];
  if (chosen !== undefined && chosen !== '') return testCliPath(chosen, cwd);
  const found = fromPlatformPackage(wardenRequire) ?? fromPlatformPackage(cwdRequire(cwd));
  if (found !== undefined) return found;
  throw new CliNotFoundError(
    `The pinned Claude Code binary (${platformPackageNames().join(' / ')}) is not installed. ` +
      'Run `npm install` without --omit=optional: Warden depends on it optionally.',
  );
}

function testCliPath(chosen: string, cwd: string): string {
  if (chosen.includes('/') || chosen.includes('\\'))
    return checkChosen(resolve(cwd, chosen), TEST_CLI_VARIABLE);
  if (!/^[\w.-]+$/.test(chosen))
    throw new CliNotFoundError(`${TEST_CLI_VARIABLE}=${chosen} is neither a path nor a version.`);
  const name = `claude-code-${chosen}`;
  for (const require of [wardenRequire, cwdRequire(cwd)]) {
    const path = tryResolve(require, `${name}/${binaryName()}`);
    if (path !== undefined && isExecutableFile(path)) return path;
  }
  throw new CliNotFoundError(
    `${TEST_CLI_VARIABLE}=${chosen}: no installed package ${name} with a ${binaryName()} binary. Add it as a ` +
      `devDependency (an alias of the agent-sdk platform package of that release) or give a path.`,
  );
}
