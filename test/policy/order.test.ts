// The decision order is data (src/policy/order.ts): each step's examples, the ones docs/policy.md shows,
// are decided by that step and no earlier one, with the verdict the table says.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import {
  MODE_DOCS,
  POLICY_ORDER,
  THREAD_MODES,
  compilePolicy,
  decidingStep,
} from '../../src/policy/index.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-order-')));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'repo');
mkdirSync(join(cwd, 'src'), { recursive: true });

describe('the decision order', () => {
  for (const [index, step] of POLICY_ORDER.entries())
    for (const example of step.examples)
      it(`${index + 1}. ${step.id}: ${example.mode} ${example.toolName} ${JSON.stringify(example.input)} → ${example.behavior}`, () => {
        const rules = { allow: [...(example.rules?.allow ?? [])], deny: [...(example.rules?.deny ?? [])] };
        const decided = decidingStep(
          compilePolicy(example.mode, rules, cwd),
          example.toolName,
          example.input,
          example.cli,
        );
        assert.equal(decided.step, step.id, decided.verdict.reason);
        assert.equal(decided.verdict.behavior, example.behavior, decided.verdict.reason);
      });

  it('has each step once, every step an example, and the mode last', () => {
    const ids = POLICY_ORDER.map((step) => step.id);
    assert.deepEqual(ids, ['deny-rule', 'protected-write', 'unseeable-under-deny', 'allow-rule', 'mode']);
    for (const step of POLICY_ORDER) assert.ok(step.examples.length > 0, step.id);
    const modes = POLICY_ORDER.at(-1)!.examples.map((example) => example.mode);
    for (const mode of THREAD_MODES) {
      assert.ok(modes.includes(mode), `an example of ${mode}`);
      assert.ok(MODE_DOCS[mode].length > 0, mode);
    }
  });
});
