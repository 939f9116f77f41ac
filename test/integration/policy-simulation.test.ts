// A policy change simulated over a recorded log of 1,200 permission requests (a scripted CLI asks them of
// the real supervisor, a person answers the asks) says, request by request, what the policy then says
// when the same requests are asked live of a thread that has the change: the simulation and the live
// gate put each request to the same function.
import assert from 'node:assert/strict';
import { it } from 'node:test';

import type { PermissionResult } from '../../src/protocol/control.js';
import type { Supervisor } from '../../src/supervisor/index.js';
import { openFakeSupervisor, startTurn, type FakeQuery } from '../fixtures/supervisor-fake-query.js';

interface Asked {
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly extra?: { decisionReason?: string; blockedPath?: string };
}

const TEMPLATES: readonly ((i: number) => Asked)[] = [
  (i) => ({ toolName: 'Bash', input: { command: `git status --short dir${i}` } }),
  (i) => ({ toolName: 'Bash', input: { command: `git log --oneline -${i % 9}` } }),
  () => ({ toolName: 'Bash', input: { command: 'npm test' } }),
  (i) => ({ toolName: 'Bash', input: { command: `rm -rf build${i}` } }),
  (i) => ({ toolName: 'Bash', input: { command: `echo ${i} > .git/config` } }),
  (i) => ({ toolName: 'Bash', input: { command: `make target${i}` } }),
  (i) => ({ toolName: 'Bash', input: { command: `ls -la src/${i} && cat a${i}.txt` } }),
  (i) => ({ toolName: 'Write', input: { file_path: `src/file${i}.ts`, content: 'x' } }),
  (i) => ({ toolName: 'Write', input: { file_path: `docs/n${i}.md`, content: 'x' } }),
  (i) => ({
    toolName: 'Edit',
    input: { file_path: `.vscode/tasks${i}.json`, old_string: 'a', new_string: 'b' },
  }),
  (i) => ({
    toolName: 'Edit',
    input: { file_path: `notes${i}.txt`, old_string: 'a', new_string: 'b' },
    extra: {
      decisionReason: `Claude requested permissions to edit notes${i}.txt which is a sensitive file.`,
    },
  }),
  (i) => ({ toolName: 'Read', input: { file_path: `/etc/host${i}` } }),
  (i) => ({ toolName: 'WebFetch', input: { url: `https://example.com/${i}`, prompt: 'read' } }),
  (i) => ({ toolName: 'AskUserQuestion', input: { questions: [{ question: `q${i}?`, options: [] }] } }),
  (i) => ({ toolName: 'mcp__db__query', input: { sql: `select ${i}` } }),
];
const REQUESTS: readonly Asked[] = Array.from({ length: 1200 }, (_, i) => {
  const template = TEMPLATES[i % TEMPLATES.length];
  if (template === undefined) throw new Error('no template');
  return template(i);
});
const RULES = { allow: ['Bash(git status:*)', 'Bash(ls:*)', 'Bash(cat:*)'], deny: ['Bash(rm:*)'] };
const CHANGE = {
  allow: ['Bash(npm test)', 'Write(src/**)', 'mcp__db__*', 'Bash(make:*)'],
  deny: ['WebFetch'],
  remove: ['Bash(cat:*)'],
  mode: 'auto-edits' as const,
};

/**
 * Asks every request in turn; a person answers each ask (allow, then deny, …; a question for a person is
 * denied: an allow needs its answers). What each one became.
 */
async function askAll(sup: Supervisor, fake: FakeQuery): Promise<('allow' | 'deny' | 'ask')[]> {
  const controller = new AbortController();
  let asks = 0;
  const answering = (async () => {
    for await (const event of sup.events({ signal: controller.signal, since: sup.lastSeq() }))
      if (event.type === 'approval.requested') {
        const allow = asks++ % 2 === 0 && event.data.toolName !== 'AskUserQuestion';
        await sup.decide(event.data.approvalId, allow ? { behavior: 'allow' } : { behavior: 'deny' });
      }
  })();
  const outcomes: ('allow' | 'deny' | 'ask')[] = [];
  for (const { toolName, input, extra } of REQUESTS) {
    const before = asks;
    const result: PermissionResult = await fake.ask(toolName, input, extra).result;
    outcomes.push(asks > before ? 'ask' : result.behavior);
  }
  controller.abort();
  await answering.catch((error: unknown) => {
    if (!controller.signal.aborted || !(error instanceof Error && error.name === 'AbortError')) throw error;
  });
  return outcomes;
}

it(
  'a simulated change matches, request by request, the live verdicts after it',
  { timeout: 120_000 },
  async (t) => {
    const { sup, made, thread, cwd } = await openFakeSupervisor(t, { mode: 'supervised', rules: RULES });
    const { fake } = await startTurn(sup, made, thread.id, 'record');
    const then = await askAll(sup, fake);
    assert.ok(then.includes('ask') && then.includes('allow') && then.includes('deny'));

    const simulation = sup.simulatePolicy({ scope: { threadId: thread.id }, change: CHANGE });
    assert.equal(simulation.summary.requests, REQUESTS.length);
    assert.deepEqual(
      simulation.requests.map((row) => row.then),
      then,
      'each recorded request is read back with what was decided then',
    );
    assert.ok(simulation.summary.changed > 0);
    assert.equal(simulation.summary.protectedAffected, 0);

    // The same requests asked live of a thread with the change.
    const changed = await sup.createThread({
      cwd,
      mode: CHANGE.mode,
      rules: {
        allow: [...RULES.allow.filter((rule) => !CHANGE.remove.includes(rule)), ...CHANGE.allow],
        deny: [...RULES.deny, ...CHANGE.deny],
      },
    });
    const live = await askAll(sup, (await startTurn(sup, made, changed.id, 'live')).fake);
    const differing = simulation.requests.flatMap((row, i) =>
      row.now === live[i]
        ? []
        : [`${i}: ${row.toolName} ${JSON.stringify(row.input)} simulated ${row.now}, live ${live[i]}`],
    );
    assert.deepEqual(differing, [], 'simulation and live agree on every request');
    assert.match(simulation.text, /^Of 1200 recorded requests, \d+ would be decided otherwise: /u);
    t.diagnostic(simulation.text);
  },
);

it('refuses a malformed request, naming the field', async (t) => {
  const { sup } = await openFakeSupervisor(t);
  assert.throws(() => sup.simulatePolicy({ scope: 'all', change: { allow: ['Bash('] } }), {
    name: 'ValidationError',
    field: 'rules.allow[0]',
  });
  assert.throws(() => sup.simulatePolicy({ scope: 'all', change: { mode: 'yolo' as 'supervised' } }), {
    field: 'change.mode',
  });
  assert.throws(() => sup.simulatePolicy({ scope: 'all', change: {}, since: 'yesterday' }), {
    field: 'since',
  });
});
