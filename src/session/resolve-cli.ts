// Finds the Claude Code executable. Order: the explicit option, CLAUDE_CODE_EXECUTABLE, `claude` on PATH,
// then a binary shipped in an installed npm package (@anthropic-ai/claude-code, or the platform package of
// @anthropic-ai/claude-agent-sdk), resolved from the working directory and from Warden itself.
// The result may be a JavaScript file (older @anthropic-ai/claude-code releases ship cli.js): the spawner
// decides how to run it.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';

import { CliNotFoundError } from '../protocol/errors.js';

export interface ResolveClaudeOptions {
  /** A path (or command name) chosen by the caller; wins over everything else. */
  readonly explicit?: string;
  /** Where CLAUDE_CODE_EXECUTABLE and PATH are read. Defaults to process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where installed packages are looked up first. Defaults to process.cwd(). */
  readonly cwd?: string;
}

const SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';
const CLI_PACKAGE = '@anthropic-ai/claude-code';

const INSTALL_HINT =
  `Install it with \`npm install ${SDK_PACKAGE}\` (the binary comes in its optional platform package, so do not ` +
  `use --omit=optional) or \`npm install -g ${CLI_PACKAGE}\`, or point CLAUDE_CODE_EXECUTABLE (or the ` +
  '`pathToClaudeCodeExecutable` option) at the executable.';

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

function requirers(cwd: string): NodeJS.Require[] {
  return [createRequire(join(resolve(cwd), 'noop.js')), createRequire(import.meta.url)];
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

export function resolveClaudeExecutable(options: ResolveClaudeOptions = {}): string {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('resolveClaudeExecutable: options must be an object');
  const { explicit, env = process.env, cwd = process.cwd() } = options;
  if (explicit !== undefined) {
    if (typeof explicit !== 'string' || explicit === '')
      throw new TypeError('resolveClaudeExecutable: explicit must be a non-empty string');
    return checkChosen(explicit, 'The explicit executable option');
  }
  if (typeof cwd !== 'string' || cwd === '')
    throw new TypeError('resolveClaudeExecutable: cwd must be a non-empty string');
  const fromEnv = env.CLAUDE_CODE_EXECUTABLE;
  if (fromEnv !== undefined && fromEnv !== '') return checkChosen(fromEnv, 'CLAUDE_CODE_EXECUTABLE');
  const onPath = fromPath(env.PATH ?? env.Path);
  if (onPath !== undefined) return onPath;
  for (const require of requirers(cwd)) {
    const found = fromCliPackage(require) ?? fromPlatformPackage(require);
    if (found !== undefined) return found;
  }
  throw new CliNotFoundError(
    `Claude Code CLI not found: no CLAUDE_CODE_EXECUTABLE, no \`claude\` on PATH, and neither ${CLI_PACKAGE} nor ` +
      `${platformPackageNames().join(' / ')} is installed. ${INSTALL_HINT}`,
  );
}

/**
 * The binary of the installed @anthropic-ai/claude-agent-sdk platform package, ignoring PATH and the
 * environment: tests use it so the pinned CLI version wins over whatever `claude` the machine has.
 */
export function pinnedClaudePath(cwd: string = process.cwd()): string {
  for (const require of requirers(cwd)) {
    const found = fromPlatformPackage(require);
    if (found !== undefined) return found;
  }
  throw new CliNotFoundError(
    `The pinned Claude Code binary (${platformPackageNames().join(' / ')}) is not installed. ` +
      `Run \`npm install\` without --omit=optional so ${SDK_PACKAGE} brings its platform package.`,
  );
}
