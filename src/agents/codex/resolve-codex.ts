// Finds the Codex CLI's native binary. Order: the explicit option, WARDEN_CODEX_EXECUTABLE, then the binary
// in the platform package of the pinned `@openai/codex` (its launcher, bin/codex.js, only spawns that
// binary: running it directly spares a Node process and keeps signals on the process Warden watches).
// Nothing is looked up on PATH: a Codex CLI of another version speaks another protocol.
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { CliNotFoundError } from '../../protocol/errors.js';

export const CODEX_PACKAGE = '@openai/codex';
export const CODEX_EXECUTABLE_VARIABLE = 'WARDEN_CODEX_EXECUTABLE';

/** The Rust target triple the launcher picks per platform, and the package that carries it. */
const TARGETS: Readonly<Record<string, { triple: string; suffix: string }>> = {
  'linux-x64': { triple: 'x86_64-unknown-linux-musl', suffix: 'linux-x64' },
  'linux-arm64': { triple: 'aarch64-unknown-linux-musl', suffix: 'linux-arm64' },
  'darwin-x64': { triple: 'x86_64-apple-darwin', suffix: 'darwin-x64' },
  'darwin-arm64': { triple: 'aarch64-apple-darwin', suffix: 'darwin-arm64' },
  'win32-x64': { triple: 'x86_64-pc-windows-msvc', suffix: 'win32-x64' },
  'win32-arm64': { triple: 'aarch64-pc-windows-msvc', suffix: 'win32-arm64' },
};

const wardenRequire = createRequire(import.meta.url);

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The native binary of the installed @openai/codex, or undefined with the reason. */
function bundledCodex(): { path?: string; missing: string } {
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (target === undefined)
    return { missing: `the Codex CLI has no binary for ${process.platform}-${process.arch}` };
  let launcher: string;
  try {
    launcher = wardenRequire.resolve(`${CODEX_PACKAGE}/package.json`);
  } catch {
    return { missing: `${CODEX_PACKAGE} is not installed` };
  }
  const platformPackage = `${CODEX_PACKAGE}-${target.suffix}`;
  let root: string;
  try {
    root = dirname(createRequire(launcher).resolve(`${platformPackage}/package.json`));
  } catch {
    return { missing: `${CODEX_PACKAGE} is installed but its platform package ${platformPackage} is not` };
  }
  const name = process.platform === 'win32' ? 'codex.exe' : 'codex';
  const path = join(root, 'vendor', target.triple, 'bin', name);
  return isExecutableFile(path) ? { path, missing: '' } : { missing: `${path} is no executable file` };
}

/**
 * The path of the Codex binary to run. Throws CliNotFoundError, naming what is missing and how to install
 * it, when none is found.
 */
export function resolveCodexExecutable(
  options: { explicit?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): string {
  const chosen = options.explicit ?? (options.env ?? process.env)[CODEX_EXECUTABLE_VARIABLE];
  if (chosen !== undefined && chosen !== '') {
    if (isExecutableFile(chosen)) return chosen;
    throw new CliNotFoundError(`The Codex CLI at ${chosen} is no executable file.`);
  }
  const bundled = bundledCodex();
  if (bundled.path !== undefined) return bundled.path;
  throw new CliNotFoundError(
    `No Codex CLI: ${bundled.missing}. Install it (\`npm install ${CODEX_PACKAGE}@0.171.0\`, without ` +
      `--omit=optional so that its platform package comes too), or point ${CODEX_EXECUTABLE_VARIABLE} at ` +
      'the codex binary.',
  );
}
