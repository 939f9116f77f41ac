// The session functions that change things, written against the official SDK's API and run after the
// conversation scenarios: fork the resumed session after its first answer, resume the fork with the real
// CLI (the model must see the copied history), then rename, tag, untag and delete it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { scenario } from '../../../../src/testing/index.js';
import { drain, type RunEnv, type TwinScenario } from '../harness.js';
import { describeError, normaliseContentOf } from '../normalise.js';
import { inWorld } from '../session-checks.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

/** The last lines of a session's transcript, with the session id replaced: what a mutation appended. */
function tail(env: RunEnv, sessionId: string, lines: number): unknown[] {
  const projects = join(env.world.configDir, 'projects');
  for (const project of readdirSync(projects)) {
    const file = join(projects, project, `${sessionId}.jsonl`);
    try {
      const text = readFileSync(file, 'utf8').replaceAll(sessionId, '<session>');
      return text
        .trimEnd()
        .split('\n')
        .slice(-lines)
        .map((line) => JSON.parse(line) as unknown);
    } catch {
      // not in this project
    }
  }
  return [];
}

async function settle(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return describeError(error)?.message;
  }
}

export const forkResumeAndMutate: TwinScenario = {
  name: 'fork, resume the fork, rename, tag, delete',
  async run(env) {
    const { sdk, world } = env;
    const dir = world.scratch.cwd;
    const inHere = <T>(fn: () => Promise<T>) => inWorld(world, fn);

    const sessions = await inHere(() => sdk.listSessions({ dir }));
    const source = sessions.find((s) => s.firstPrompt === '[[first]] remember 42');
    if (source === undefined) throw new Error('the resume scenario left no session to fork');
    const history = await inHere(() => sdk.getSessionMessages(source.sessionId, { dir }));
    const firstAnswer = history.find((m) => m.type === 'assistant');
    if (firstAnswer === undefined) throw new Error('no answer to fork at');
    const { sessionId: forkId } = await inHere(() =>
      sdk.forkSession(source.sessionId, { dir, upToMessageId: firstAnswer.uuid }),
    );
    const forked = await inHere(() => sdk.getSessionInfo(forkId, { dir }));
    const forkedMessages = await inHere(() => sdk.getSessionMessages(forkId, { dir }));

    const script = scenario()
      .on('second')
      .thenAnswer((ctx) =>
        ctx.firstUserText.includes('remember 42') ? 'Fork resumed with history.' : 'No history.',
      )
      .build();
    const options = await env.start(script);
    const resumed = await drain(
      sdk.query({ prompt: '[[second]] what was it?', options: { ...options, resume: forkId } }),
    );

    await inHere(() => sdk.renameSession(forkId, '  Second try  '));
    await inHere(() => sdk.tagSession(forkId, 'experiment', { dir }));
    const renamed = await inHere(() => sdk.getSessionInfo(forkId));
    const appended = tail(env, forkId, 2);
    await inHere(() => sdk.tagSession(forkId, null));
    const untagged = await inHere(() => sdk.getSessionInfo(forkId));
    await inHere(() => sdk.deleteSession(forkId, { dir }));
    const afterDelete = {
      listed: (await inHere(() => sdk.listSessions({ dir }))).some((s) => s.sessionId === forkId),
      info: (await inHere(() => sdk.getSessionInfo(forkId))) ?? 'undefined',
      messages: (await inHere(() => sdk.getSessionMessages(forkId))).length,
    };
    return {
      ...resumed,
      facts: {
        forked: {
          summary: forked?.summary,
          customTitle: forked?.customTitle,
          firstPrompt: forked?.firstPrompt,
        },
        forkedMessages: forkedMessages.map((m) => ({ type: m.type, content: normaliseContentOf(m.message) })),
        resumedTheFork: resumed.messages.findLast((m) => m.type === 'result')?.session_id === forkId,
        renamed: { summary: renamed?.summary, customTitle: renamed?.customTitle, tag: renamed?.tag },
        appended,
        untaggedTag: untagged?.tag ?? 'none',
        afterDelete,
        deleteAgain: await inHere(() => settle(sdk.deleteSession(forkId))),
        renameMissing: await inHere(() => settle(sdk.renameSession(MISSING, 'x', { dir }))),
        forkAtMissingMessage: await inHere(() =>
          settle(sdk.forkSession(source.sessionId, { upToMessageId: MISSING })),
        ),
        infoOfMissing: (await inHere(() => sdk.getSessionInfo(MISSING))) ?? 'undefined',
        messagesOfMissing: (await inHere(() => sdk.getSessionMessages(MISSING))).length,
        badId: await inHere(() => settle(sdk.tagSession('../escape', 'x'))),
      },
    };
  },
};
