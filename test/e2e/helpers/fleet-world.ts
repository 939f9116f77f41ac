// The test world of a fleet test, and what it ends at teardown even when the test failed: the host
// processes are SIGKILLed (a host killed for real cannot clean up), the supervisors the test opened are
// closed with their agents stopped; then the world kills a CLI the killed hosts left in the scratch home,
// closes the mock, checks that no process is left and removes the scratch.
import type { TestContext } from 'node:test';

import type { Supervisor } from '../../../src/supervisor/index.js';
import { startTestWorld, type MockedTestWorld, type MockScript } from '../../../src/testing/index.js';

/** A host in a process of its own (host-process.ts, serve-process.ts): anything with its child process. */
interface KillableHost {
  readonly child: {
    pid?: number | undefined;
    exitCode: number | null;
    kill(signal: NodeJS.Signals): boolean;
  };
}

export interface FleetWorld<Host extends KillableHost> extends MockedTestWorld {
  /** Host processes to kill at the end. */
  readonly hosts: Host[];
  /** Supervisors opened in the test process, closed in reverse order. */
  readonly supervisors: Supervisor[];
}

export async function startFleetWorld<Host extends KillableHost = KillableHost>(
  t: TestContext,
  options: { prefix: string; script: MockScript },
): Promise<FleetWorld<Host>> {
  const world = await startTestWorld(t, options);
  const hosts: Host[] = [];
  const supervisors: Supervisor[] = [];
  world.defer(async () => {
    for (const sup of [...supervisors].reverse()) await sup.close({ stopAgents: true });
  });
  world.defer(() => {
    for (const host of hosts) {
      world.track(host.child.pid);
      if (host.child.exitCode === null) host.child.kill('SIGKILL');
    }
  });
  return Object.assign(world, { hosts, supervisors });
}
