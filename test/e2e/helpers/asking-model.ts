// The mock model of the fleet tests: a prompt marked `[[ask]]` makes the CLI ask to run `touch <file>`
// (a call that waits for a person), then the model answers. It counts the requests that carry a tool
// result — the CLI ran the tool and reports back — so a test can tell a decision reached the CLI once.
import { scenario, startMockModel, type MockModel } from '../../../src/testing/index.js';

export async function startAskingModel(
  file: string,
): Promise<{ mock: MockModel; toolResults: () => number }> {
  let toolResults = 0;
  const inner = scenario()
    .on('ask')
    .callTool('Bash', { command: `touch ${file}`, description: 'Create a file' })
    .thenAnswer('The file is there.')
    .build();
  const mock = await startMockModel({
    script: (ctx) => {
      if (JSON.stringify(ctx.body).includes('"tool_result"')) toolResults += 1;
      return inner(ctx);
    },
  });
  return { mock, toolResults: () => toolResults };
}
