// Control methods written against the official SDK's API: interrupt() while canUseTool waits for a
// person who never answers, then setPermissionMode() before the next turn of the same query.
import { scenario } from '../../../../src/testing/index.js';
import { heldInput } from '../../helpers/sdk-session.js';
import { drain, type TwinScenario } from '../harness.js';
import { replyEnded } from './permissions.js';

export const interruptThenMode: TwinScenario = {
  name: 'interrupt, then setPermissionMode',
  async run(env) {
    const script = scenario()
      .on('ask')
      .callTool('Bash', { command: 'touch interrupted.txt', description: 'Create a file' })
      // The CLI sends the interrupted call's error result and the next prompt in one user message.
      .thenAnswer((ctx) => (ctx.lastUserText.includes('[[next]]') ? 'Second turn answered.' : 'unexpected'))
      .build();
    const options = await env.start(script);
    const held = heldInput();
    const calls: unknown[] = [];
    let asked: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    const q = env.sdk.query({
      prompt: held.input,
      options: {
        ...options,
        canUseTool: (toolName, _input, { signal }) => {
          calls.push({ toolName });
          asked();
          // A person who never answers: only the abort ends the wait.
          return new Promise((resolve) =>
            signal.addEventListener(
              'abort',
              () => {
                calls.push({ aborted: signal.aborted });
                resolve({ behavior: 'deny', message: 'aborted' });
              },
              { once: true },
            ),
          );
        },
      },
    });
    held.send('[[ask]] make a file');
    let results = 0;
    const modeSet: unknown[] = [];
    const observed = drain(q, (message) => {
      if (message.type !== 'result') return;
      results += 1;
      if (results === 1)
        void q.setPermissionMode('acceptEdits').then(
          () => {
            modeSet.push('resolved');
            held.send('[[next]] carry on');
          },
          (error: unknown) => modeSet.push(String(error)),
        );
      if (results === 2) held.end();
    });
    await waiting;
    await replyEnded(env.mock);
    await q.interrupt();
    const seen = await observed;
    return { ...seen, calls, facts: { modeSet } };
  },
};
