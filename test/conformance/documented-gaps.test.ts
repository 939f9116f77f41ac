// The reading of docs/compatibility.md's `no` rows that the conformance check relies on.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { documentedGaps } from './documented-gaps.js';

const PAGE = `
| option | status | notes |
| --- | --- | --- |
| \`model\`, \`fallbackModel\` | same | |
| \`sandbox\` (\`{ enabled }\`) | no | needs a seccomp profile |
| \`betas\` | no | |

| method | status | notes |
| --- | --- | --- |
| \`rewindFiles(id)\` | no | checkpoints are not kept |

| export | status | notes |
| --- | --- | --- |
| \`./bridge\` | no | a remote-session transport |
| \`prewarm\` | not yet | soon |

| | official | Warden |
| --- | --- | --- |
| \`query\` | no | a table of another kind |
`;

void test('the leading name of each backticked span of a `no` row with a reason, by table kind; nothing else', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-gaps-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'page.md');
  writeFileSync(file, PAGE);
  assert.deepEqual(
    documentedGaps(file).map(({ kind, name, reason }) => [kind, name, reason]),
    [
      ['option', 'sandbox', 'needs a seccomp profile'],
      ['method', 'rewindFiles', 'checkpoints are not kept'],
      ['export', './bridge', 'a remote-session transport'],
    ],
  );
});
