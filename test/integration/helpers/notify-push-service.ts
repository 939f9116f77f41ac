// A stand-in for a browser vendor's push service (RFC 8030) on 127.0.0.1, and what a browser does with a
// push: it holds the subscription's P-256 key pair and auth secret, decrypts the aes128gcm body (RFC 8291,
// RFC 8188) and checks the VAPID header (RFC 8292) — written here with node:crypto only, so the server's
// library is checked against the RFCs rather than against itself.
import {
  createECDH,
  createDecipheriv,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Push {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export interface PushService {
  /** The endpoint of one subscription: `http://127.0.0.1:<port>/push/<name>`. */
  endpoint(name: string): string;
  received: Push[];
  /** Resolves once `count` pushes have arrived (to any subscription); rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Push[]>;
}

/** `answer(n, path)` for the n-th push: a status (201 by default), or 'hang' to never answer. */
export async function startPushService(
  t: { after(fn: () => Promise<void> | void): void },
  answer: (n: number, path: string) => number | 'hang' = () => 201,
): Promise<PushService> {
  const received: Push[] = [];
  const hanging: ServerResponse[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      });
      for (const wake of waiters) wake();
      const status = answer(received.length, req.url ?? '');
      if (status === 'hang') hanging.push(res);
      else res.writeHead(status, status === 201 ? { location: `/message/${received.length}` } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: (name) => `http://127.0.0.1:${port}/push/${name}`,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`push service got ${received.length} of ${count} pushes in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const done = (): void => {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          };
          const timer = setTimeout(done, left);
          waiters.add(done);
        });
      }
      return received.slice(0, count);
    },
  };
}

/** A browser's side of a subscription: the key pair and auth secret it keeps, and what it tells the server. */
export interface DeviceKeys {
  ecdh: ECDH;
  auth: Buffer;
  /** As `PushSubscription.toJSON().keys`: base64url. */
  keys: { p256dh: string; auth: string };
}

export function deviceKeys(): DeviceKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  };
}

/**
 * RFC 8291 §3.4 / RFC 8188 §2: the body is `salt(16) | rs(4) | idlen(1) | keyid(= the server's one-time
 * public key)` then one record, AES-128-GCM with the tag at the end; the plaintext ends with the padding
 * delimiter 2 (last record) followed by zero bytes of padding.
 */
export function decryptPush(body: Buffer, device: DeviceKeys): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20] ?? 0;
  const serverPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid is ${idlen} bytes, not an uncompressed P-256 point`);
  if (record.length > rs) throw new Error(`one record expected (${record.length} > rs ${rs})`);
  const ecdhSecret = device.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error(`padding delimiter is ${padded[end]}, not 2 (last record)`);
  return padded.subarray(0, end).toString('utf8');
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256 (raw r||s signature) over
 * `header.claims` with that key, for the push service's origin, expiring within 24 hours. Returns the claims
 * and the key, or throws saying what is wrong.
 */
export function verifyVapid(
  authorization: string | undefined,
  endpoint: string,
): { claims: { aud: string; exp: number; sub: string }; publicKey: string } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (match === null) throw new Error(`not a VAPID header: ${authorization}`);
  const [, jwt = '', k = ''] = match;
  const [header = '', claimsPart = '', signature = ''] = jwt.split('.');
  const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string; typ?: string };
  if (head.alg !== 'ES256') throw new Error(`alg is ${head.alg}`);
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const good = verify(
    'sha256',
    Buffer.from(`${header}.${claimsPart}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!good) throw new Error('the VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString()) as {
    aud: string;
    exp: number;
    sub: string;
  };
  if (claims.aud !== new URL(endpoint).origin) throw new Error(`aud is ${claims.aud}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600))
    throw new Error(`exp ${claims.exp} is not within 24 h`);
  return { claims, publicKey: k };
}
