// The CLI's transcript of a thread's session is gone (deleted, or never flushed because the CLI was killed
// at once): the resume fails before the message reaches the model. The supervisor records why, forgets the
// session id, and sends the message again in a new session, so the thread keeps working.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import {
  allEvents,
  assertContiguous,
  startSupervisorSession,
  transcriptPath,
  waitForEvent,
  waitForTranscript,
} from './helpers/supervisor-session.js';

describe('supervisor: a resume whose CLI transcript is gone', { timeout: 120_000 }, () => {
  it('sends the message again in a new session and says the history was lost', async (t) => {
    const script = scenario()
      .on('first')
      .thenAnswer('First answer.')
      .on('second')
      .thenAnswer((ctx) => (ctx.firstUserText.includes('[[first]]') ? 'With history.' : 'Fresh start.'))
      .build();
    const { sup, scratch, thread, warnings } = await startSupervisorSession(t, script);

    const first = await sup.send(thread.id, '[[first]] hello');
    const firstEnded = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === first.id);
    assert.equal(firstEnded.data.status, 'completed');
    const sessionId = sup.getThread(thread.id).thread.sessionId;
    assert.ok(sessionId !== null, 'the thread knows its CLI session');
    const transcript = transcriptPath(scratch.home, scratch.cwd, sessionId);
    await waitForTranscript(transcript, 'First answer.');
    await sup.stop(thread.id);
    rmSync(transcript);

    const second = await sup.send(thread.id, '[[second]] still there?');
    const failed = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === second.id);
    assert.equal(failed.data.status, 'failed');
    assert.match(failed.data.result?.text ?? '', /No conversation found with session ID/);
    const resumeFailed = await waitForEvent(sup, 'session.resume_failed');
    assert.equal(resumeFailed.data.sessionId, sessionId);
    assert.equal(resumeFailed.data.generation, 2);

    const retry = await waitForEvent(sup, 'run.created', (e) => e.data.retryOf === second.id);
    assert.equal(retry.data.trigger, 'history_lost');
    assert.equal(retry.data.prompt, '[[second]] still there?');
    const fresh = await waitForEvent(sup, 'session.started', (e) => e.data.generation === 3);
    assert.equal(fresh.data.resume, null, 'the new session does not try the lost one again');
    const retried = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === retry.data.runId);
    assert.equal(retried.data.status, 'completed');
    assert.equal(retried.data.result?.text, 'Fresh start.');

    const view = sup.getThread(thread.id);
    assert.notEqual(view.thread.sessionId, sessionId, 'the thread follows the new CLI session');
    assert.ok(view.thread.sessionId !== null);
    assert.deepEqual(
      view.runs.map((r) => [r.id, r.status, r.trigger]),
      [
        [first.id, 'completed', 'human'],
        [second.id, 'failed', 'human'],
        [retry.data.runId, 'completed', 'history_lost'],
      ],
    );
    assertContiguous(await allEvents(sup));
    assert.deepEqual(warnings, []);
  });
});
