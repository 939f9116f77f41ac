// Time from Supervisor.open() to every approval answerable again, after a host with N detached CLIs was
// SIGKILLed (real CLI, mock model): the re-attach of benchmark 7 (`npm run bench -- durable`), alone and
// once per size, printed as a table. Usage: node --import tsx bench/durable-reattach.ts [--sessions 1,10,50]
import { parseArgs } from 'node:util';

import { reattachOnce } from './durable/reattach.js';

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '1,10,50' } } });
const SIZES = (values.sessions ?? '1,10,50').split(',').map(Number);

console.log('sessions  open()  all answerable  host CPU  all runs completed after allow');
for (const sessions of SIZES) {
  const s = await reattachOnce(sessions, new AbortController().signal);
  console.log(
    `${String(sessions).padStart(8)}  ${s.openMs.toFixed(0).padStart(5)} ms  ${s.answerableMs.toFixed(0).padStart(11)} ms  ` +
      `${s.answerableCpuMs.toFixed(0).padStart(5)} ms  ${s.allDoneMs.toFixed(0).padStart(10)} ms`,
  );
}
