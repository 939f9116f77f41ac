// For the sandbox tests against the real CLI: a git repository with one commit, and a person who answers.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Decision, Supervisor, SupervisorEvent } from '../../src/supervisor/index.js';
import type { TestWorld } from '../../src/testing/index.js';

export function initRepository(cwd: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@example.com', '-c', 'user.name=A', ...args], { cwd });
  git('init', '-q');
  writeFileSync(join(cwd, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'first');
}

/**
 * A person who answers every approval with `decision` until the world ends, seeing each event as it comes
 * (`onEvent`). A decision the supervisor refuses is kept: `refused()` says it, so a test fails on it
 * instead of waiting for the run to time out.
 */
export function answerEveryApproval(
  sup: Supervisor,
  world: Pick<TestWorld, 'defer'>,
  decision: Decision,
  onEvent: (event: SupervisorEvent) => void = () => undefined,
): { refused(): unknown } {
  const controller = new AbortController();
  world.defer(() => controller.abort());
  let refused: unknown;
  void (async () => {
    for await (const event of sup.events({ signal: controller.signal })) {
      onEvent(event);
      if (event.type === 'approval.requested')
        await sup.decide(event.data.approvalId, decision).catch((error: unknown) => (refused ??= error));
    }
  })().catch(() => undefined);
  return { refused: () => refused };
}
