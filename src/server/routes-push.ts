// Web Push from the UI: `GET /api/push/key` (the server's VAPID public key, for `pushManager.subscribe`),
// and the devices subscribed — listed, added, removed. Behind the API's guard like every /api route (token
// or session; Origin on changes). Exists only while Web Push is on; else these are 404s and the UI says so.
import { Hono } from 'hono';
import { z } from 'zod';

import { readJsonBody } from './body.js';
import { callerOf } from './caller.js';
import { OWNER } from './deciders.js';
import { ApiError } from './http-error.js';
import type { PushChannel } from './notify/push-channel.js';
import { PUSH_SHOW, type PushSubscriptions, type StoredSubscription } from './notify/push-subscriptions.js';

const SubscribeRequest = z.strictObject({
  /** `PushSubscription.toJSON()` as the browser gives it. */
  subscription: z.object({
    endpoint: z.string().min(1).max(4096),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
  }),
  show: z.enum(PUSH_SHOW).optional(),
});

export interface PushRouteDeps {
  publicKey: string;
  subscriptions: PushSubscriptions;
  channel: PushChannel;
}

export function pushRoutes(deps: PushRouteDeps): Hono {
  const app = new Hono();
  app.get('/key', (c) => c.json({ publicKey: deps.publicKey }));
  app.get('/subscriptions', (c) => c.json({ subscriptions: deps.subscriptions.list().map(describe) }));
  app.post('/subscriptions', async (c) => {
    const { subscription, show } = await readJsonBody(c.req.raw, SubscribeRequest);
    // The device is told of what its decider may answer (approval-feed.ts).
    const { decider } = callerOf(c.req.raw);
    const stored = deps.subscriptions.add({
      ...(decider === OWNER ? {} : { decider }),
      endpoint: subscription.endpoint,
      keys: subscription.keys,
      ...(show === undefined ? {} : { show }),
    });
    return c.json({ subscription: describe(stored) }, 201);
  });
  app.delete('/subscriptions/:id', (c) => {
    const id = c.req.param('id');
    if (!deps.subscriptions.remove(id)) throw new ApiError(404, 'NOT_FOUND', `No subscription ${id}`);
    deps.channel.forget(id);
    return c.body(null, 204);
  });
  return app;
}

/** What the API shows of a subscription: never its keys, and of the endpoint only the push service. */
function describe(subscription: StoredSubscription) {
  return {
    id: subscription.id,
    service: new URL(subscription.endpoint).origin,
    show: subscription.show,
    createdAt: subscription.createdAt,
    decider: subscription.decider ?? OWNER,
  };
}
