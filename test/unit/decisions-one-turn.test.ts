// People's decisions of one turn of the event loop go to the store together (Store.commitMany, one
// transaction, as the turn's permission requests do), and each is still its own compare-and-set: a second
// answer to an approval already answered in the same turn is refused alone, with a ConflictError, and the
// CLI hears only the first.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { ConflictError } from '../../src/protocol/errors.js';
import { SqliteStore } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openFakeSupervisor, startTurn } from '../fixtures/supervisor-fake-query.js';
import { waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { describeEachStore } from '../helpers/store-backends.js';

describeEachStore('decisions of one turn', () => {
  it('are committed together; a second answer to the same approval is refused alone', async (t) => {
    const { sup, made, thread } = await openFakeSupervisor(t);
    const { fake } = await startTurn(sup, made, thread.id, 'two calls');
    const first = fake.ask('Bash', { command: 'touch a', description: 'a' });
    const second = fake.ask('Bash', { command: 'touch b', description: 'b' });
    await waitForEvent(sup, 'approval.requested', (e) => e.data.input['command'] === 'touch b');
    const [a, b] = ['touch a', 'touch b'].map(
      (command) => sup.listApprovals().find((approval) => approval.input['command'] === command)!.id,
    );

    // What each commitMany of the store is given (the method itself still runs).
    const spies = [SqliteStore.prototype, PostgresStore.prototype].map(
      (prototype) => t.mock.method(prototype, 'commitMany').mock,
    );
    const batches = (): string[][][] =>
      spies.flatMap((spy) =>
        spy.calls.map(({ arguments: [commits] }) =>
          commits.map(({ drafts }) => drafts.map((draft) => draft.type)),
        ),
      );

    // One turn: an allow, a deny, and another answer to the first approval.
    const allowed = sup.decide(a!, { behavior: 'allow' });
    const denied = sup.decide(b!, { behavior: 'deny', message: 'not b' });
    const late = sup.decide(a!, { behavior: 'deny', message: 'too late' });

    assert.equal((await allowed).status, 'allowed');
    assert.equal((await denied).status, 'denied');
    await assert.rejects(
      late,
      (error) =>
        error instanceof ConflictError && /is allowed; that change no longer applies/.test(error.message),
    );
    assert.deepEqual(batches(), [[['approval.decided'], ['approval.decided'], ['approval.decided']]]);
    assert.deepEqual(await first.result, {
      behavior: 'allow',
      updatedInput: { command: 'touch a', description: 'a' },
    });
    assert.deepEqual(await second.result, { behavior: 'deny', message: 'not b' });
    const decided = sup.listApprovals().map((approval) => [approval.input['command'], approval.status]);
    assert.deepEqual(decided, [
      ['touch a', 'allowed'],
      ['touch b', 'denied'],
    ]);
  });
});
