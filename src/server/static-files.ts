// The browser UI: plain files from the web root (no build step), served without the token — they hold no
// data; the page gets its data from the API with the cookie the login link set. Paths are confined to the
// root, and every page is served with headers that keep it from being framed or leaking the login link.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Headers for every page and asset: no framing (clickjacking an Allow button), no inline script. */
export function pageHeaders(host: string): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'self'",
      `connect-src 'self' ws://${host}`,
      "img-src 'self' data:",
      "style-src 'self' 'unsafe-inline'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
}

export interface StaticFile {
  body: Buffer;
  type: string;
}

/** The file for a URL path, or undefined (missing, outside the root, not a file). */
export async function readStaticFile(webRoot: string, urlPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const root = resolve(webRoot);
  let path = resolve(join(root, decoded));
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
    const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    return { body: await readFile(path), type };
  } catch {
    return undefined;
  }
}

/** Served at `/` when the web root has no index.html: the API works without the UI. */
export const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Warden</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>Warden</h1>
<p>The server is running, but the web UI is not installed next to it (no <code>web/index.html</code>).</p>
<p>The API works: <a href="/api/threads">/api/threads</a>, <a href="/api/approvals?status=pending">/api/approvals?status=pending</a>
(open the login link the server printed first). See docs/server.md.</p>
</body>
</html>
`;
