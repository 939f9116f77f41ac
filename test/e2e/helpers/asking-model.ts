// The mock model's script of the fleet tests: a prompt marked `[[ask]]` makes the CLI ask to run `touch <file>`
// (a call that waits for a person), then the model answers. It counts the requests that carry a tool
// result — the CLI ran the tool and reports back — so a test can tell a decision reached the CLI once.
import { scenario, type MockScript } from '../../../src/testing/index.js';

export function askingScript(file: string): { script: MockScript; toolResults: () => number } {
  let toolResults = 0;
  const inner = scenario()
    .on('ask')
    .callTool('Bash', { command: `touch ${file}`, description: 'Create a file' })
    .thenAnswer('The file is there.')
    .build();
  const script: MockScript = (ctx) => {
    if (JSON.stringify(ctx.body).includes('"tool_result"')) toolResults += 1;
    return inner(ctx);
  };
  return { script, toolResults: () => toolResults };
}
