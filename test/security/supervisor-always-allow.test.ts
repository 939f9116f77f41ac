// "Always allow" against the real CLI: what the approval says it adds is exactly what goes to the CLI, for
// this CLI session only, and no wider than the request. No settings file is written; the same read is not
// asked again in the session, a sibling file still is.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { ValidationError } from '../../src/supervisor/index.js';
import { scenario } from '../../src/testing/index.js';
import { allEvents, waitForEvent } from '../e2e/helpers/supervisor-session.js';
import { openSecuritySession, tappedFrames, writeStdinTap } from './supervisor-helpers.js';

/** Every settings file the CLI could have written for a project or a user. */
function settingsFiles(...dirs: string[]): string[] {
  return dirs.flatMap((dir) => {
    const claude = join(dir, '.claude');
    return existsSync(claude)
      ? readdirSync(claude)
          .filter((name) => name.startsWith('settings'))
          .map((name) => join(claude, name))
      : [];
  });
}

describe('supervisor: allow_always', { timeout: 120_000 }, () => {
  it('adds the exact rules it shows, for the session only, and writes no settings file', async (t) => {
    const paths: { a?: string; b?: string; c?: string } = {};
    const script = scenario()
      .on('read')
      .reply(() => ({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: paths.a } }] }))
      .reply(() => ({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: paths.a } }] }))
      .reply(() => ({ content: [{ type: 'tool_use', name: 'Read', input: { file_path: paths.b } }] }))
      .reply(() => ({
        content: [{ type: 'tool_use', name: 'Bash', input: { command: `cat ${paths.c}`, description: 'c' } }],
      }))
      .reply(() => ({
        content: [{ type: 'tool_use', name: 'Bash', input: { command: `cat ${paths.c}`, description: 'c' } }],
      }))
      .thenAnswer('read them')
      .build();
    let log = '';
    const { sup, scratch, thread, warnings } = await openSecuritySession(t, script, {
      claudePath: (s) => {
        log = join(s.dir, 'stdin.jsonl');
        return writeStdinTap(s.dir, log);
      },
    });
    const outside = join(scratch.dir, 'outside');
    mkdirSync(outside);
    for (const name of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(outside, name), `${name} content\n`);
    Object.assign(paths, { a: join(outside, 'a.txt'), b: join(outside, 'b.txt'), c: join(outside, 'c.txt') });

    // Answers every approval as it comes: the first read of a and the first cat of c always, b once.
    const asked: { what: string; rules: string[] }[] = [];
    const answering = (async () => {
      for await (const event of sup.events({ signal: AbortSignal.timeout(90_000) })) {
        if (event.type === 'run.ended') return;
        if (event.type !== 'approval.requested') continue;
        const { input, approvalId } = event.data;
        const what = String(input.file_path ?? input.command);
        const approval = sup.getApproval(approvalId);
        asked.push({ what, rules: approval.alwaysAllowRules });
        const always = what === paths.a || what === `cat ${paths.c}`;
        await sup.decide(approvalId, { behavior: always ? 'allow_always' : 'allow' });
      }
    })();
    const run = await sup.send(thread.id, '[[read]] read the files');
    await answering;
    const ended = await waitForEvent(sup, 'run.ended', (e) => e.data.runId === run.id);
    assert.equal(ended.data.status, 'completed');

    assert.deepEqual(
      asked,
      [
        { what: paths.a, rules: [`Read(/${paths.a})`] },
        { what: paths.b, rules: [`Read(/${paths.b})`] },
        { what: `cat ${paths.c}`, rules: [`Bash(cat ${paths.c})`, `Read(/${paths.c})`] },
      ],
      'each approval shows the exact rules; the second read of a and the second cat are not asked again',
    );
    const results = (await allEvents(sup)).filter((e) => e.type === 'tool.result');
    assert.equal(results.length, 5);
    for (const result of results)
      if (result.type === 'tool.result') assert.equal(result.data.isError, false, result.data.text);

    assert.deepEqual(settingsFiles(scratch.cwd, scratch.home), [], 'no settings file was written');
    const updates = tappedFrames(log).flatMap((frame) => {
      const response = (frame.response as { response?: { updatedPermissions?: unknown[] } } | undefined)
        ?.response;
      return frame.type === 'control_response' && Array.isArray(response?.updatedPermissions)
        ? response.updatedPermissions
        : [];
    });
    assert.deepEqual(
      updates,
      [
        {
          type: 'addRules',
          rules: [{ toolName: 'Read', ruleContent: `/${paths.a}` }],
          behavior: 'allow',
          destination: 'session',
        },
        {
          type: 'addRules',
          rules: [
            { toolName: 'Bash', ruleContent: `cat ${paths.c}` },
            { toolName: 'Read', ruleContent: `/${paths.c}` },
          ],
          behavior: 'allow',
          destination: 'session',
        },
      ],
      'the CLI received only session rules, exactly those shown',
    );
    assert.deepEqual(warnings, []);
  });

  it('refuses allow_always when no rule is narrow enough to offer', async (t) => {
    const script = scenario()
      .on('fetch')
      .callTool('WebFetch', { url: 'https://example.com/page', prompt: 'summarise' })
      .thenAnswer('fetched')
      .build();
    const { sup, thread } = await openSecuritySession(t, script);
    await sup.send(thread.id, '[[fetch]] fetch a page');
    const requested = await waitForEvent(sup, 'approval.requested');
    assert.deepEqual(sup.getApproval(requested.data.approvalId).alwaysAllowRules, []);
    await assert.rejects(
      sup.decide(requested.data.approvalId, { behavior: 'allow_always' }),
      (error: unknown) =>
        error instanceof ValidationError && error.code === 'VALIDATION' && error.field === 'behavior',
    );
    assert.equal(sup.getApproval(requested.data.approvalId).status, 'pending', 'nothing was written');
    await sup.decide(requested.data.approvalId, { behavior: 'deny' });
    await waitForEvent(sup, 'run.ended');
  });
});
