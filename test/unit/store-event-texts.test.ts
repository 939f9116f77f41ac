// readEventTexts gives each event as JSON.stringify gives it, whatever the store and wherever the event is
// read from: the edge of the log (built from the rows committed last, without parsing them) or further
// back (read from the database), for every query the readers make. The live feed sends these texts as
// they are, so a text that differed would reach every client.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import { decided, requested, threadDrafts } from '../../bench/lib/decision-drafts.js';
import { describeEachStore } from '../helpers/store-backends.js';
import { titled } from '../helpers/store-drafts.js';

describeEachStore('event texts', (backend) => {
  it('are the events as JSON, at the edge of the log and further back', async (t) => {
    const store = await backend.open(t);
    store.commit('t', threadDrafts('t'));
    store.commit('u', threadDrafts('u'));
    for (let i = 0; i < 20; i += 1) {
      const thread = i % 3 === 0 ? 'u' : 't';
      store.commit(thread, [requested(i, thread), titled(`quote " and \\ and ✓ ${i}`)]);
      store.commit(thread, [decided(i, thread)]);
    }
    const queries = [
      {},
      { after: 10 },
      { after: 10, limit: 4 },
      { threadId: 'u' },
      { threadId: 't', after: 30, limit: 5 },
      { types: ['approval.decided' as const] },
      { after: 1000 },
    ];
    for (const query of queries) {
      const events = store.readEvents(query);
      assert.deepEqual(
        store.readEventTexts(query),
        events.map((event) => ({ seq: event.seq, threadId: event.threadId, json: JSON.stringify(event) })),
        JSON.stringify(query),
      );
    }
    assert.equal(store.readEventTexts().length, 64);
  });
});
