// Histories the model-based test found failing, shrunk, kept as they were found: each is named after the
// bug it showed and runs on every store backend with the same checks after every step.
import { test } from 'node:test';

import { storeBackends } from '../helpers/store-backends.js';
import { Ask, Race, Send } from './supervisor-commands.js';
import { runHistory } from './supervisor-history.js';

for (const backend of storeBackends()) {
  test(`a CLI that withdraws a request after its decision was committed, before it was on disk, hears the decision, not a withdrawal (${backend.name})`, async () => {
    // Found by the campaign once decisions waited for group commit: the withdrawal ended the call with a
    // deny while the log said allowed.
    await runHistory(backend, [
      new Send(0),
      new Ask(0, 'bash', 'main'),
      new Race(0, 'allow', 'withdraw', false),
    ]);
  });
}
