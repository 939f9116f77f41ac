// Where a new thread of a fleet runs: on a live host whose workspace roots contain its cwd and that has
// room for one more CLI — this host first, else the one with the most room — or on the host named at
// creation. The cwd and the roots are compared as real paths, so `..` or a symlink cannot carry a thread
// outside the roots a host declared. A host's load is its CLIs at its last heartbeat (this host's: now)
// plus the threads placed on it since; the supervisor then reserves the chosen slot compare-and-set
// (HostRegistry.reservePlacement) and chooses again if another host took it first.
import { ConflictError } from '../../protocol/errors.js';
import type { HostRecord } from '../../store/host-registry.js';
import { realOrSelf, within } from '../../policy/real-paths.js';

export interface PlacementRequest {
  /** The thread's cwd (absolute). */
  readonly cwd: string;
  /** The host named at creation, if any. */
  readonly host?: string | undefined;
  /** This host's name and how many CLIs it runs now (its heartbeat may be a few seconds old). */
  readonly me: string;
  readonly liveHere: number;
}

/** The name of the host to run the thread; a ConflictError says why none can. */
export function placeThread(hosts: readonly HostRecord[], request: PlacementRequest): string {
  const cwd = realOrSelf(request.cwd);
  const unfit = (host: HostRecord): string | null => {
    if (!host.live)
      return `${host.name} is unreachable (no heartbeat for ${Math.round(host.msSinceHeartbeat / 1000)} s)`;
    if (host.roots.length > 0 && !host.roots.some((root) => within(realOrSelf(root), cwd)))
      return `${host.name} does not reach ${cwd} (roots ${host.roots.join(', ')})`;
    const load = (host.name === request.me ? request.liveHere : host.liveClis) + host.placed;
    if (host.capacity !== null && load >= host.capacity)
      return `${host.name} is at capacity (${load} of ${host.capacity} CLIs)`;
    return null;
  };
  if (request.host !== undefined) {
    const named = hosts.find((host) => host.name === request.host);
    if (named === undefined) throw new ConflictError(`No host ${request.host} in the fleet`);
    const why = unfit(named);
    if (why !== null) throw new ConflictError(`Cannot place the thread on host ${named.name}: ${why}`);
    return named.name;
  }
  const here = hosts.find((host) => host.name === request.me);
  if (here !== undefined && unfit(here) === null) return here.name;
  const room = (host: HostRecord): number =>
    host.capacity === null ? Number.MAX_SAFE_INTEGER : host.capacity - host.liveClis - host.placed;
  const fit = hosts.filter((host) => host.name !== request.me && unfit(host) === null);
  fit.sort((a, b) => room(b) - room(a) || a.name.localeCompare(b.name));
  const chosen = fit[0];
  if (chosen !== undefined) return chosen.name;
  const reasons = hosts.map((host) => unfit(host)).filter((why): why is string => why !== null);
  throw new ConflictError(`No live host can run a thread in ${cwd}: ${reasons.join('; ')}`);
}
