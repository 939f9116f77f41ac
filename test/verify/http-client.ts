// The clients' side of a host's HTTP API, each call recorded as an operation of the history.
import type { FleetHost } from './fleet.js';
import type { HistoryRecorder } from './history.js';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One call with the host's token; `status` 0 when no answer came (the host is down or paused). */
export async function call(
  host: FleetHost,
  path: string,
  body?: unknown,
  timeoutMs = 10_000,
): Promise<{ status: number; json: Json }> {
  try {
    const response = await fetch(`${host.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
  } catch {
    return { status: 0, json: {} };
  }
}

/** The approvals of a thread as `host` shows them, each status recorded as an observation. */
export async function observeApprovals(
  history: HistoryRecorder,
  client: string,
  host: FleetHost,
  threadId: string,
): Promise<Json[] | undefined> {
  const invokedAt = Date.now();
  const { status, json } = await call(host, `/api/approvals?threadId=${threadId}`);
  if (status !== 200) return undefined;
  const completedAt = Date.now();
  const approvals = (json.approvals ?? []) as Json[];
  for (const approval of approvals)
    history.record({
      kind: 'observe',
      client,
      host: host.name,
      approvalId: String(approval.id),
      status: String(approval.status),
      invokedAt,
      completedAt,
    });
  return approvals;
}

/** A person's decision, recorded with the answer's status of the approval. */
export function decide(
  history: HistoryRecorder,
  client: string,
  host: FleetHost,
  threadId: string,
  approvalId: string,
  behavior: 'allow' | 'deny',
): Promise<unknown> {
  return history.action(
    { kind: 'decide', client, host: host.name, threadId, approvalId, behavior },
    async () => {
      const { status, json } = await call(host, `/api/approvals/${approvalId}/decision`, {
        behavior,
        ...(behavior === 'deny' ? { message: `${client} says no` } : {}),
      });
      const answered = (json.approval as Json | undefined)?.status as string | undefined;
      return { status, ...(answered === undefined ? {} : { answered }) };
    },
  );
}
