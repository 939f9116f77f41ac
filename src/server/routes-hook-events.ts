// `POST /api/hook-events {event, payload, waitMs?}`: what `warden hook run` reports of a Claude Code
// session Warden did not start (docs/external-sessions.md). The answer is JSON lines: for a
// PermissionRequest first `{"approvalId"}` once the approval exists (a hook whose connection drops then
// knows to ask again, and finds the same approval), then `{"output"}`: what the hook prints for the CLI,
// or null (print nothing: the CLI asks in its own terminal). The connection ending is the hook going
// away: its approval is closed out (`terminal_moved_on`). An error is `{"error", "retry"}`: `retry` when
// the server is closing and the hook should ask the next one.
import { Hono } from 'hono';
import { z } from 'zod';

import { HostClosingError, type HookAnswer, type Supervisor } from '../supervisor/index.js';
import { readJsonBody } from './body.js';
import { callerOf } from './caller.js';
import { errorReply } from './http-error.js';

/** The longest a hook may wait for a person on one connection (the CLI's own hook timeout is the real bound). */
export const MAX_HOOK_WAIT_MS = 24 * 60 * 60 * 1000;
const DEFAULT_HOOK_WAIT_MS = 55_000;
/** A Write's content is part of what a person reviews: room for large files. */
const MAX_HOOK_BODY_BYTES = 8 * 1024 * 1024;

const HookEventBody = z.strictObject({
  event: z.string().max(64),
  payload: z.record(z.string(), z.unknown()),
  waitMs: z.number().int().min(0).max(MAX_HOOK_WAIT_MS).optional(),
});

/** The hook's stdout for the CLI (hooks reference: PermissionRequest `decision`). */
export function hookOutput(answer: HookAnswer): Record<string, unknown> | null {
  if (answer === null) return null;
  const decision =
    answer.behavior === 'allow'
      ? {
          behavior: 'allow',
          ...(answer.updatedInput === undefined ? {} : { updatedInput: answer.updatedInput }),
        }
      : {
          behavior: 'deny',
          message: answer.message,
          ...(answer.interrupt === true ? { interrupt: true } : {}),
        };
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}

export function hookEventRoutes({
  supervisor,
  onError,
  isClosing = () => false,
}: {
  supervisor: Supervisor;
  onError: (error: unknown) => void;
  isClosing?: () => boolean;
}): Hono {
  const app = new Hono();

  app.post('/', async (c) => {
    const { event, payload, waitMs } = await readJsonBody(c.req.raw, HookEventBody, MAX_HOOK_BODY_BYTES);
    const reporter = callerOf(c.req.raw).decider;
    // The hook went away (not the server, whose close ends every connection): its approval is closed out.
    const { signal: request } = c.req.raw;
    const hookGone = new AbortController();
    const { signal } = hookGone;
    const onEnd = (): void => {
      if (!isClosing()) hookGone.abort();
    };
    if (request.aborted) onEnd();
    else request.addEventListener('abort', onEnd, { once: true });
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const line = (value: unknown): void => {
          // The hook went away meanwhile: nobody reads the line.
          if (request.aborted) return;
          try {
            controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
          } catch {
            // Closed: as above.
          }
        };
        const end = (): void => {
          try {
            controller.close();
          } catch {
            // Already closed by the hook going away.
          }
        };
        supervisor
          .reportHook(event, payload, reporter, {
            signal,
            waitMs: waitMs ?? DEFAULT_HOOK_WAIT_MS,
            onApproval: (approvalId) => line({ approvalId }),
          })
          .then(
            (answer) => line({ output: hookOutput(answer) }),
            (error: unknown) => {
              const reply = errorReply(error);
              if (reply.unexpected) onError(error);
              // Only a wait the server let go of is asked again; any other error is the end of it.
              line({ error: reply.body.error, retry: error instanceof HostClosingError || isClosing() });
            },
          )
          .finally(() => {
            request.removeEventListener('abort', onEnd);
            end();
          });
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
    });
  });

  return app;
}
