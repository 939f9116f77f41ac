// What the page leaves out of agent text, checked on what the real CLI wrote: the Agent tool's launch
// note (recorded transcripts), the report-then-metadata shape of a finished subagent's result, and
// routing markers at the start of a prompt. Nothing else is touched.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { agentReport, promptForDisplay } from '../../web/agent-text.js';

const report = agentReport;
const prompt = promptForDisplay;

/** The text of every Agent tool result in a recorded transcript. */
function agentResults(name: string): string[] {
  const lines = readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url), 'utf8').split('\n');
  const out: string[] = [];
  for (const line of lines) {
    if (!line.includes('internal metadata')) continue;
    const message = (JSON.parse(line) as { msg?: { message?: { content?: unknown } } }).msg?.message;
    for (const block of Array.isArray(message?.content) ? (message.content as Record<string, unknown>[]) : [])
      if (block.type === 'tool_result' && Array.isArray(block.content))
        out.push((block.content as { text?: string }[]).map((part) => part.text ?? '').join(''));
  }
  return out;
}

describe('agent text for display', () => {
  it('drops the background launch note the CLI writes for the model', () => {
    const texts = ['Q1.jsonl', 'Q2-noperm-pta.jsonl', 'S3-close.jsonl'].flatMap(agentResults);
    assert.ok(texts.length >= 3, 'the transcripts hold launch notes');
    for (const text of texts) {
      assert.match(text, /agentId: \w+/);
      assert.equal(report(text), '');
    }
  });

  it("keeps a finished subagent's report and drops the agentId and <usage> that follow it", () => {
    const text =
      '## Findings\nThe host is **fine**.\n' +
      "agentId: a1b2c3d4e5 (for resuming to continue this agent's work if needed)\n" +
      '<usage>total_tokens: 1234\ntool_uses: 2\nduration_ms: 950</usage>';
    assert.equal(report(text), '## Findings\nThe host is **fine**.');
    // The CLI joins its text blocks without a newline.
    assert.equal(report('Done.agentId: abc (internal ID - do not mention)'), 'Done.');
    assert.equal(report('No metadata here: agent ids are words.'), 'No metadata here: agent ids are words.');
  });

  it('drops routing markers at the start of a prompt only', () => {
    assert.equal(prompt('[[bg]] Check the disk'), 'Check the disk');
    assert.equal(prompt('  [[a]][[b-2]]  Two markers\nsecond [[c]]'), 'Two markers\nsecond [[c]]');
    assert.equal(prompt('Keep [[this]] inside'), 'Keep [[this]] inside');
    assert.equal(prompt('[[not a marker]] stays'), '[[not a marker]] stays');
  });
});
