// A host that exits must not leave CLIs behind. Children are detached (their own process group and
// session), so nothing else delivers a signal to them when the host goes away; one 'exit' hook, installed
// on first use, SIGKILLs every tree that is still tracked. 'exit' handlers run synchronously, hence the
// synchronous /proc scan.

import {
  findLeftoversSync,
  groupIsTheCli,
  signalGroup,
  signalProcess,
  type ProcessTree,
} from './process-tree.js';

const liveTrees = new Set<ProcessTree>();
let installed = false;

/** Tracks `tree` until the returned function is called (idempotent). */
export function reapOnHostExit(tree: ProcessTree): () => void {
  if (!installed) {
    process.on('exit', reapAll);
    installed = true;
  }
  liveTrees.add(tree);
  return () => {
    liveTrees.delete(tree);
  };
}

/** How many trees would be killed if the host exited now. */
export function trackedTreeCount(): number {
  return liveTrees.size;
}

function reapAll(): void {
  if (liveTrees.size === 0) return;
  const trees = [...liveTrees];
  liveTrees.clear();
  for (const tree of trees) if (groupIsTheCli(tree)) signalGroup(tree.pgid, 'SIGKILL');
  for (const pid of findLeftoversSync(trees)) signalProcess(pid, 'SIGKILL');
}
