// A deliberately broken compare-and-set, for the verify runner's proof run only (a host imports it with
// `node --import` before `warden serve` starts; nothing in src/ knows of it): the projector's refusal of a
// second decision on an approval that is no longer pending is swallowed, so a decision that lost the race
// is written to the log and answered as if it had won. The history checker must report it.
import { ConflictError } from '../../src/protocol/errors.js';
import { Projector } from '../../src/store/projector.js';

const apply = Projector.prototype.apply; // eslint-disable-line @typescript-eslint/unbound-method
Projector.prototype.apply = function (this: Projector, ...args: Parameters<Projector['apply']>): void {
  try {
    apply.apply(this, args);
  } catch (error) {
    if (!(error instanceof ConflictError) || args[2].type !== 'approval.decided') throw error;
  }
};
