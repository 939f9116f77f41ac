// docs/policy.md is generated in part from the tables the policy runs (scripts/generate-policy-doc.ts): the
// page must be what the generator makes of it today, and the pages that mention the policy point at it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { DOC_PATH, renderPolicyDoc } from '../../scripts/generate-policy-doc.js';
import { POLICY_ORDER, PROTECTED_PATHS, UNPROTECTED } from '../../src/policy/index.js';

const docs = join(DOC_PATH, '..');
const page = readFileSync(DOC_PATH, 'utf8');

describe('docs/policy.md', () => {
  it('is up to date with src/policy (run `node --import tsx scripts/generate-policy-doc.ts`)', () => {
    assert.equal(page, renderPolicyDoc(page));
  });

  it('names every step, every protected entry and every deliberately unprotected file', () => {
    for (const step of POLICY_ORDER) assert.ok(page.includes(`\`${step.id}\``), step.id);
    for (const entry of PROTECTED_PATHS)
      assert.ok(page.includes(`\`${entry.path}${entry.kind === 'dir' ? '/' : ''}\``), entry.path);
    for (const entry of UNPROTECTED) assert.ok(page.includes(entry.what), entry.what);
  });

  it('is what security.md, supervisor.md and the README point at', () => {
    for (const file of ['security.md', 'supervisor.md'])
      assert.ok(/\]\(policy\.md(#[a-z-]+)?\)/u.test(readFileSync(join(docs, file), 'utf8')), file);
    assert.ok(readFileSync(join(docs, '..', 'README.md'), 'utf8').includes('](docs/policy.md)'), 'README.md');
  });
});
