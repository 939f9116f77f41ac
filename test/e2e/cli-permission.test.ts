// A Bash call the CLI does not auto-allow (writing a file in an untrusted cwd) becomes a can_use_tool
// control request; a hand-written allow reply runs the tool, and the mock sees the tool result.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { scenario } from '../../src/testing/index.js';
import { assertCleanEnd, assistantText } from './helpers/assertions.js';
import { startOfflineCli } from './helpers/offline-cli.js';

void test(
  'a Bash call that needs permission is asked for, allowed and run',
  { timeout: 90_000 },
  async (t) => {
    const command = 'touch made-by-bash.txt && echo created';
    const script = scenario()
      .on('perm')
      .callTool('Bash', { command, description: 'Create a file' }, { text: 'Creating the file.' })
      .thenAnswer((ctx) => `tool said: ${ctx.toolResults[0]?.text ?? '(nothing)'}`)
      .build();
    const { cli, mock, scratch } = await startOfflineCli(t, {
      script,
      args: ['--permission-prompt-tool=stdio'],
    });

    await cli.initialize();
    await cli.sendUserText('[[perm]] create a file');

    const ask = await cli.waitFor(
      (f) => f.type === 'control_request' && f.request?.subtype === 'can_use_tool',
    );
    assert.equal(ask.request.tool_name, 'Bash');
    assert.deepEqual(ask.request.input, { command, description: 'Create a file' });
    assert.equal(existsSync(join(scratch.cwd, 'made-by-bash.txt')), false, 'nothing runs before the answer');
    await cli.send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: ask.request_id,
        response: { behavior: 'allow', updatedInput: ask.request.input, toolUseID: ask.request.tool_use_id },
      },
    });

    const toolResult = await cli.waitFor(
      (f) => f.type === 'user' && f.message?.content?.[0]?.tool_use_id === ask.request.tool_use_id,
    );
    assert.equal(toolResult.message.content[0].is_error, false);
    const result = await cli.waitFor((f) => f.type === 'result');
    assert.equal(result.subtype, 'success');
    assert.equal(result.result, 'tool said: created');
    assert.equal(assistantText(cli.frames.findLast((f) => f.type === 'assistant')!), 'tool said: created');
    assert.equal(existsSync(join(scratch.cwd, 'made-by-bash.txt')), true);
    assert.deepEqual(result.permission_denials, []);

    const followUp = mock.requests.find((r) => r.kind === 'main' && r.rounds === 1);
    assert.deepEqual(
      followUp?.toolResults?.map(({ toolUseId, text, isError }) => ({ toolUseId, text, isError })),
      [{ toolUseId: ask.request.tool_use_id, text: 'created', isError: false }],
    );
    await assertCleanEnd(cli, scratch);
  },
);
