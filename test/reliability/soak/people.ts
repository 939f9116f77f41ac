// Simulated people answering the approval inbox over HTTP: each pending approval is taken by one person
// after a random delay, or — a quarter of the time — by two or three people at the same moment, who race:
// one gets 200, the others 409. Every answer is recorded per approval, to be checked against the log.
import { between, type Random } from './random.js';

export interface Api {
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

export interface DecisionOutcome {
  readonly behavior: 'allow' | 'deny';
  /** HTTP status; 0 when the host was unreachable (killed meanwhile). */
  readonly status: number;
}

export interface PeopleStats {
  decisions: number;
  ok: number;
  conflicts: number;
  unreachable: number;
  otherStatus: number;
  races: number;
  /** Races in which exactly one person got 200 and every other one 409. */
  racesOneWinner: number;
  /** Races in which nobody got 200 (the approval had been settled another way, or the host died). */
  racesNoWinner: number;
}

export class People {
  readonly outcomes = new Map<string, DecisionOutcome[]>();
  readonly violations: string[] = [];
  readonly stats: PeopleStats = {
    decisions: 0,
    ok: 0,
    conflicts: 0,
    unreachable: 0,
    otherStatus: 0,
    races: 0,
    racesOneWinner: 0,
    racesNoWinner: 0,
  };
  readonly #taken = new Set<string>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #random: Random;
  readonly #maxDelayMs: number;

  constructor(random: Random, maxDelayMs: number) {
    this.#random = random;
    this.#maxDelayMs = maxDelayMs;
  }

  /** Looks at the inbox once and hands every approval nobody has taken to someone. */
  async poll(api: Api): Promise<void> {
    const { status, body } = await api.request('GET', '/api/approvals?status=pending');
    if (status !== 200) return;
    for (const approval of (body as { approvals: { id: string }[] }).approvals) {
      if (this.#taken.has(approval.id)) continue;
      this.#taken.add(approval.id);
      const done = this.#answer(api, approval.id).finally(() => this.#inFlight.delete(done));
      this.#inFlight.add(done);
    }
  }

  /** Waits for every decision under way. */
  async settle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }

  async #answer(api: Api, id: string): Promise<void> {
    const random = this.#random;
    await new Promise((resolve) => setTimeout(resolve, between(random, 20, this.#maxDelayMs)));
    const racers = random() < 0.25 ? between(random, 2, 3) : 1;
    const decisions = Array.from({ length: racers }, () =>
      this.#decide(api, id, random() < 0.7 ? 'allow' : 'deny'),
    );
    const outcomes = await Promise.all(decisions);
    // Nobody reached the host (it was being killed): the approval may still be pending after the reopen.
    if (outcomes.every((o) => o.status !== 200 && o.status !== 409)) this.#taken.delete(id);
    if (racers > 1) {
      this.stats.races += 1;
      const winners = outcomes.filter((o) => o.status === 200).length;
      if (winners > 1)
        this.violations.push(`approval ${id}: ${winners} of ${racers} racing decisions got 200`);
      if (winners === 1 && outcomes.every((o) => o.status === 200 || o.status === 409))
        this.stats.racesOneWinner += 1;
      if (winners === 0) this.stats.racesNoWinner += 1;
    }
  }

  async #decide(api: Api, id: string, behavior: 'allow' | 'deny'): Promise<DecisionOutcome> {
    const { status } = await api.request('POST', `/api/approvals/${id}/decision`, { behavior });
    const outcome = { behavior, status };
    this.outcomes.set(id, [...(this.outcomes.get(id) ?? []), outcome]);
    this.stats.decisions += 1;
    if (status === 200) this.stats.ok += 1;
    else if (status === 409) this.stats.conflicts += 1;
    else if (status === 0) this.stats.unreachable += 1;
    else this.stats.otherStatus += 1;
    if (status !== 200 && status !== 409 && status !== 0 && status !== 503)
      this.violations.push(`approval ${id}: a decision got HTTP ${status}`);
    return outcome;
  }
}
