// What every event log must hold, however many writers it had: the global seq runs 1, 2, 3… with each
// event once, and each thread's threadSeq does the same.
import assert from 'node:assert/strict';

export function assertContiguousLog(
  events: readonly { seq: number; threadId: string; threadSeq: number }[],
): void {
  assert.deepEqual(
    events.map((e) => e.seq),
    events.map((_, i) => i + 1),
    'global seq contiguous, each event once',
  );
  const perThread = new Map<string, number[]>();
  for (const event of events)
    perThread.set(event.threadId, [...(perThread.get(event.threadId) ?? []), event.threadSeq]);
  for (const [threadId, seqs] of perThread)
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i + 1),
      `threadSeq of ${threadId} contiguous`,
    );
}
