// A full garbage collection between runs, so that one host's garbage is not collected on the other's
// clock. `npm run bench` starts Node without --expose-gc, so the flag is turned on at run time.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function collectGarbage(): void {
  gc();
}
