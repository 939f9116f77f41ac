// Fuzzing the HTTP API: random JSON (and some raw text) as the body of every POST, PATCH, PUT and DELETE
// route, and random query strings on the GET routes, with real and stray ids in the path. Every answer must
// be 2xx or 4xx, a 4xx must carry `{ error: { code, message } }`, nothing may be reported as unexpected,
// and no request may hang. Bounded for `npm test`; WARDEN_FUZZ_RUNS raises the number of requests.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { startFuzzServer, type FuzzServer } from './fuzz-server.js';

const RUNS = Number(process.env.WARDEN_FUZZ_RUNS ?? 400);
const SECONDS = Number(process.env.WARDEN_FUZZ_SECONDS ?? (process.env.WARDEN_FUZZ_RUNS ? 3600 : 8));
const HANG_MS = 10_000;

type IdKind = 'thread' | 'approval' | 'subagent' | 'name';
interface Route {
  method: string;
  /** `{thread}`, `{approval}`, `{subagent}`, `{name}` are replaced by an id. */
  path: string;
}

const BODY_ROUTES: Route[] = [
  { method: 'POST', path: '/api/threads' },
  { method: 'PATCH', path: '/api/threads/{thread}' },
  { method: 'POST', path: '/api/threads/{thread}/messages' },
  { method: 'POST', path: '/api/threads/{thread}/interrupt' },
  { method: 'POST', path: '/api/threads/{thread}/stop' },
  { method: 'POST', path: '/api/threads/{thread}/subagents/{subagent}/stop' },
  { method: 'DELETE', path: '/api/threads/{thread}/rules' },
  { method: 'PUT', path: '/api/threads/{thread}/deadlines' },
  { method: 'POST', path: '/api/approvals/{approval}/decision' },
  { method: 'POST', path: '/api/approvals/batch/preview' },
  { method: 'POST', path: '/api/approvals/batch' },
  { method: 'POST', path: '/api/tokens' },
  { method: 'DELETE', path: '/api/tokens/{name}' },
  { method: 'POST', path: '/api/session' },
  { method: 'DELETE', path: '/api/session' },
  { method: 'DELETE', path: '/api/sessions' },
];

const QUERY_ROUTES: Route[] = [
  { method: 'GET', path: '/api/threads' },
  { method: 'GET', path: '/api/threads/{thread}' },
  { method: 'GET', path: '/api/threads/{thread}/events' },
  { method: 'GET', path: '/api/approvals' },
  { method: 'GET', path: '/api/audit' },
  { method: 'GET', path: '/api/audit/verify' },
  { method: 'GET', path: '/api/tokens' },
  { method: 'GET', path: '/api/info' },
];

/** Members the routes read, so random bodies often get past "not an object" and into the fields. */
const FIELDS = [
  'text',
  'title',
  'mode',
  'cwd',
  'model',
  'rules',
  'rule',
  'scope',
  'behavior',
  'message',
  'interrupt',
  'updatedInput',
  'answers',
  'deadlines',
  'afterMs',
  'approvalIds',
  'threadId',
  'subagentId',
  'name',
  'ticket',
  'plan',
  'allow',
  'deny',
];
const QUERY_KEYS = [
  'status',
  'threadId',
  'after',
  'limit',
  'since',
  'before',
  'type',
  'decider',
  'format',
  'id',
];

const scalar = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'allow',
    'deny',
    'allow_always',
    'thread',
    'session',
    'project',
    'supervised',
    'full-access',
    'pending',
    '-1',
    '0',
    '1e309',
    '',
    '../..',
    '/',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  { arbitrary: scalar, weight: 4 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);
const shapedBody = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 5 });
const body = fc.oneof(
  { arbitrary: shapedBody.map((b) => JSON.stringify(b)), weight: 6 },
  { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((b) => JSON.stringify(b)), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 64 }), weight: 1 },
  { arbitrary: fc.constant(undefined), weight: 1 },
);
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 6 })),
      fc.oneof(scalar.map(String), fc.string({ unit: 'binary', maxLength: 12 })),
    ),
    {
      maxLength: 4,
    },
  )
  .map((pairs) => new URLSearchParams(pairs).toString());
const idChoice = fc.oneof(
  { arbitrary: fc.constant<'real'>('real'), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 1 },
);

function fillPath(path: string, fuzz: FuzzServer, choice: string): string {
  return path.replace(/\{(thread|approval|subagent|name)\}/g, (_, kind: IdKind) => {
    const real = kind === 'name' ? 'someone' : fuzz.ids[kind];
    return encodeURIComponent(choice === 'real' ? real : choice);
  });
}

async function call(
  fuzz: FuzzServer,
  method: string,
  path: string,
  rawBody: string | undefined,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${fuzz.server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${fuzz.server.token}`,
      ...(rawBody === undefined ? {} : { 'content-type': 'application/json' }),
    },
    redirect: 'manual',
    signal: AbortSignal.timeout(HANG_MS),
    ...(rawBody === undefined ? {} : { body: rawBody }),
  });
  return { status: response.status, text: await response.text() };
}

function assertAnswer(what: string, { status, text }: { status: number; text: string }): void {
  assert.ok(status < 500, `${what} answered ${status}: ${text.slice(0, 300)}`);
  if (status < 400) return;
  const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
  assert.equal(typeof error?.code, 'string', `${what}: a 4xx has error.code (${text.slice(0, 200)})`);
  assert.equal(typeof error?.message, 'string', `${what}: a 4xx has error.message`);
}

test('HTTP fuzz: random bodies and query strings get 2xx or a typed 4xx, never a 5xx or a hang', async (t) => {
  const fuzz = await startFuzzServer(t);
  const started = Date.now();
  const statuses = new Map<number, number>();
  let requests = 0;
  const tally = (status: number): void => {
    requests += 1;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  };
  const routes = fc.oneof(
    fc.record({ route: fc.constantFrom(...BODY_ROUTES), id: idChoice, body, query: fc.constant('') }),
    fc.record({
      route: fc.constantFrom(...QUERY_ROUTES),
      id: idChoice,
      body: fc.constant(undefined),
      query: queryString,
    }),
  );
  await fc.assert(
    fc.asyncProperty(routes, async ({ route, id, body: raw, query }) => {
      const path = fillPath(route.path, fuzz, id) + (query === '' ? '' : `?${query}`);
      const answer = await call(fuzz, route.method, path, raw);
      tally(answer.status);
      assertAnswer(`${route.method} ${path} ${raw ?? ''}`, answer);
      assert.deepEqual(fuzz.unexpected, [], 'nothing was reported as unexpected');
    }),
    { numRuns: RUNS, interruptAfterTimeLimit: SECONDS * 1000 },
  );
  const spread = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}=${n}`)
    .join(' ');
  console.log(
    `[reliability] fuzz http: ${requests} requests over ${BODY_ROUTES.length + QUERY_ROUTES.length} routes (${spread}), ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
