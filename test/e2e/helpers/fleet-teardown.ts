// What a fleet test started, ended at teardown even when the test failed: the host processes are
// SIGKILLed (a host killed for real cannot clean up), the supervisors the test opened are closed with
// their agents stopped, a CLI the killed hosts left in the scratch home is killed, the mock model is
// closed; then no process of the scratch home is left, and the scratch is removed.
import type { TestContext } from 'node:test';

import type { Supervisor } from '../../../src/supervisor/index.js';
import type { Scratch } from '../../../src/testing/index.js';
import { processesUsingHome } from './sdk-session.js';
import { waitForNoProcess } from './supervisor-session.js';

/** A host in a process of its own (host-process.ts, serve-process.ts): anything with its child process. */
interface KillableHost {
  readonly child: { exitCode: number | null; kill(signal: NodeJS.Signals): boolean };
}

export interface FleetTeardown<Host extends KillableHost> {
  /** Host processes to kill at the end. */
  readonly hosts: Host[];
  /** Supervisors opened in the test process, closed in reverse order. */
  readonly supervisors: Supervisor[];
}

export function fleetTeardown<Host extends KillableHost = KillableHost>(
  t: TestContext,
  scratch: Scratch,
  mock: { close(): Promise<void> },
): FleetTeardown<Host> {
  const ended: FleetTeardown<Host> = { hosts: [], supervisors: [] };
  t.after(async () => {
    try {
      for (const host of ended.hosts) if (host.child.exitCode === null) host.child.kill('SIGKILL');
      for (const sup of [...ended.supervisors].reverse()) await sup.close({ stopAgents: true });
      for (const pid of processesUsingHome(scratch.home)) process.kill(pid, 'SIGKILL');
      await mock.close();
      await waitForNoProcess(scratch.home);
    } finally {
      scratch.cleanup();
    }
  });
  return ended;
}
