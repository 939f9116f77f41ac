// A throwaway server must not outlive the test process that started it, also when that process is killed
// (Ctrl-C, a CI timeout, SIGKILL) and its exit handler never runs. A small detached watcher is started with
// the server: it polls whether the process is still there and, once it is gone, stops the server and
// removes its directory. It ends by itself when the directory is removed the ordinary way.
import { spawn } from 'node:child_process';

/** Checked this often; a leftover server lives at most this long after its test process. */
const POLL_MS = 1000;

const WATCHER = `
const [parent, dir, ...stop] = process.argv.slice(1);
const { existsSync, rmSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const alive = (pid) => { try { process.kill(Number(pid), 0); return true; } catch (e) { return e.code === 'EPERM'; } };
const timer = setInterval(() => {
  if (!existsSync(dir)) return process.exit(0);
  if (alive(parent)) return;
  clearInterval(timer);
  spawnSync(stop[0], stop.slice(1), { stdio: 'ignore', timeout: 60000 });
  rmSync(dir, { recursive: true, force: true });
}, ${POLL_MS});
`;

/**
 * Starts the watcher for the server in `dir`; `stop` is the command (and its arguments) that stops it
 * at once. Its environment is only PATH: nothing the test runner looks for in leftover processes.
 */
export function reapWhenGone(dir: string, stop: [string, string[]]): void {
  const [file, args] = stop;
  const watcher = spawn(process.execPath, ['-e', WATCHER, String(process.pid), dir, file, ...args], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  watcher.unref();
}
