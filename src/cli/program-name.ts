// How to run this very `warden` again from a shell, for the commands it prints (`… login --data-dir …`,
// `… inbox --data-dir …`), so that each works as printed, from any directory: `warden` when the `warden`
// on PATH is this program (an installed package); otherwise the node command line this process was started
// with, made absolute — `node --import file:///…/tsx/dist/loader.mjs /…/src/cli/main.ts` in a checkout
// (what `npm start` runs), `node /…/dist/cli/main.js` for a build. Not `npx warden`: outside the checkout
// that would fetch whatever package of that name the registry has.
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The words that start this program, shell-quoted and joined: append a subcommand and its flags. */
export function wardenProgram(): string {
  const script = process.argv[1];
  if (script === undefined) return 'warden';
  const self = realOrNull(resolve(script));
  if (self !== null && onPath('warden') === self) return 'warden';
  const node = onPath('node') === realOrNull(process.execPath) ? 'node' : process.execPath;
  return [node, ...absoluteExecArgv(process.execArgv), resolve(script)].map(shellQuote).join(' ');
}

/** A word as the shell must see it: as it is when plain, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[\w./:@%+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Node's own flags, with the modules `--import`/`--require`/`--loader` name resolved where they were. */
function absoluteExecArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const joined = /^(--import|--require|-r|--loader|--experimental-loader)=(.*)$/s.exec(arg);
    if (joined !== null) {
      out.push(`${joined[1] ?? ''}=${absoluteModule(joined[2] ?? '')}`);
    } else if (/^(--import|--require|-r|--loader|--experimental-loader)$/.test(arg) && i + 1 < argv.length) {
      out.push(arg, absoluteModule(argv[++i] ?? ''));
    } else out.push(arg);
  }
  return out;
}

/** A module specifier as an absolute file URL (a bare name resolved from here: the checkout's node_modules). */
function absoluteModule(specifier: string): string {
  if (/^[a-z]+:/i.test(specifier)) return specifier;
  if (specifier.startsWith('.') || isAbsolute(specifier)) return pathToFileURL(resolve(specifier)).href;
  try {
    return import.meta.resolve(specifier);
  } catch {
    return specifier;
  }
}

/** The real path of the executable `name` on PATH, leaving out the node_modules/.bin folders that npm
 * adds for its scripts (a person's own shell does not have them). */
function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || dir.endsWith(`${sep}node_modules${sep}.bin`)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    return realOrNull(candidate);
  }
  return null;
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
