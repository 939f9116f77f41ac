// The fleet the verify runner drives: one throwaway PostgreSQL server, and for each host a TCP proxy to it
// and a real `warden serve` process (its store URL points at its proxy), each on a fixed port so a
// restarted host answers where its clients expect it. A host can be SIGKILLed and started again, paused
// (SIGSTOP) and resumed; its link can be cut, delayed, reset or made to drop NOTIFY; the server restarted.
// `preload` adds `--import <module>` to every host (the proof runs break a host on purpose with it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { PostgresCluster } from '../../src/testing/postgres-cluster.js';
import type { TestWorld } from '../../src/testing/index.js';
import { spawnWarden, REPO_ROOT, type WardenProcess } from '../e2e/helpers/server-command.js';
import { freePort } from '../e2e/helpers/serve-process.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface FleetHost {
  readonly name: string;
  readonly url: string;
  readonly proxy: TcpProxy;
  /** The token of the host's owner (read from its data dir once it is up). */
  token: string;
  process: WardenProcess;
  /** false from a SIGKILL until it is up again, and while it is paused. */
  up: boolean;
}

export interface FleetOptions {
  readonly world: TestWorld;
  readonly cluster: PostgresCluster;
  readonly hostCount: number;
  readonly preload?: string;
}

export interface Fleet {
  readonly hosts: readonly FleetHost[];
  readonly database: string;
  restart(host: FleetHost): Promise<void>;
  kill(host: FleetHost): Promise<void>;
  /** Ends every host (SIGTERM, so each stops the CLIs it owns) and the proxies. */
  stop(): Promise<void>;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const { world, cluster } = options;
  const storeUrl = await cluster.createDatabase();
  const database = new URL(storeUrl).pathname.slice(1);
  const pgPort = Number(new URL(storeUrl).port);
  const env = { ...world.env, CLAUDE_CODE_EXECUTABLE: world.claudePath, WARDEN_SANDBOX: 'off' };
  const launch = async (name: string, port: number, proxy: TcpProxy): Promise<WardenProcess> => {
    const url = new URL(storeUrl);
    url.port = String(proxy.port);
    const dataDir = join(world.scratch.dir, `data-${name}`);
    const args = ['serve', '--port', String(port), '--data-dir', dataDir];
    args.push('--store', url.toString(), '--host-name', name, '--stop-agents');
    const imports = options.preload === undefined ? [] : ['--import', options.preload];
    const child = spawnWarden(args, env, {
      command: {
        file: process.execPath,
        args: ['--import', 'tsx', ...imports, join(REPO_ROOT, 'src/cli/main.ts'), ...args],
      },
    });
    world.track(child.child.pid);
    world.defer(() => {
      if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    });
    await child.waitFor('stdout', /Press Ctrl-C to stop\./);
    return child;
  };
  const tokenOf = (name: string): string =>
    readFileSync(join(world.scratch.dir, `data-${name}`, 'server-token'), 'utf8').trim();
  const hosts = await Promise.all(
    Array.from({ length: options.hostCount }, async (_, i): Promise<FleetHost> => {
      const name = `host-${String.fromCharCode(97 + i)}`;
      const port = await freePort();
      const proxy = await startTcpProxy(pgPort);
      const child = await launch(name, port, proxy);
      return { name, url: `http://127.0.0.1:${port}`, proxy, token: tokenOf(name), process: child, up: true };
    }),
  );
  const kill = async (host: FleetHost): Promise<void> => {
    host.up = false;
    host.process.child.kill('SIGCONT');
    host.process.child.kill('SIGKILL');
    await host.process.exited;
  };
  return {
    hosts,
    database,
    kill,
    // A host that cannot open its store at start exits (PostgreSQL busy or still coming back); it is
    // started again, as a service manager would, a few times before the run gives up.
    async restart(host) {
      for (let attempt = 1; ; attempt++) {
        try {
          host.process = await launch(host.name, Number(new URL(host.url).port), host.proxy);
          break;
        } catch (error) {
          if (attempt === 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
      host.token = tokenOf(host.name);
      host.up = true;
    },
    async stop() {
      for (const host of hosts) {
        host.process.child.kill('SIGCONT');
        host.process.child.kill('SIGTERM');
      }
      await Promise.all(hosts.map((host) => host.process.exited));
      await Promise.all(hosts.map((host) => host.proxy.close()));
    },
  };
}
