// The browser UI: plain files from the web root (no build step), served without the token — they hold no
// data; the page gets its data from the API with the session cookie the login page sets. Only what a page
// loads is served: files at the top of the root with a page type (.html, .js, .css, icons), not dotfiles,
// not configuration (tsconfig.json), not links leading out of the root. Every page is served with headers
// that keep it from being framed or leaking where it came from. Two libraries the page imports are served
// from the installed packages under fixed names (VENDOR), never by a path the URL chooses. What a person
// sees of a command or a conversation is decided by one DOM-free module that the server, the terminal and
// the page share: its files are served under `/view/` from the folder beside the server's own (src/view/
// under tsx, dist/view/ once built), only its top-level .js files, with the same checks and headers.
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The types a page loads, and the only ones served. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

/** One name at the top of the root: letters, digits, `_`, `-`, dots inside; never a leading dot. */
const SERVED_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
/** The app icons the manifest names live one level down, in `icons/`. */
const ICON_NAME = /^icons\/[A-Za-z0-9_-][A-Za-z0-9_.-]*\.png$/;

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

/** The shared module's URL prefix, and its folder, found from this file so it holds in src/ and in dist/. */
const VIEW_PREFIX = '/view/';
const VIEW_ROOT = fileURLToPath(new URL('../view/', import.meta.url));

/** The browser (ESM) builds of the Markdown renderer and the HTML sanitizer the page imports. */
const VENDOR: Record<string, string> = {
  '/vendor/marked.js': 'marked',
  '/vendor/purify.js': 'dompurify',
};

async function readVendorFile(urlPath: string): Promise<StaticFile | undefined> {
  const specifier = VENDOR[urlPath];
  if (specifier === undefined) return undefined;
  try {
    // The package's own ESM entry, as Node resolves it for an import.
    return { body: await readFile(fileURLToPath(import.meta.resolve(specifier))), type: TYPES['.js']! };
  } catch {
    return undefined;
  }
}

/** The file for a URL path, or undefined (missing, not on the allow-list, or leading out of the root). */
export async function readStaticFile(webRoot: string, urlPath: string): Promise<StaticFile | undefined> {
  if (Object.hasOwn(VENDOR, urlPath)) return readVendorFile(urlPath);
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.startsWith(VIEW_PREFIX)) {
    const name = decoded.slice(VIEW_PREFIX.length);
    // Only the module's scripts: not its type declarations or source maps (dist/), nothing below it.
    return SERVED_NAME.test(name) && name.endsWith('.js') ? readRootFile(VIEW_ROOT, name) : undefined;
  }
  const name = decoded === '/' ? 'index.html' : decoded.slice(1);
  if (!decoded.startsWith('/') || !(SERVED_NAME.test(name) || ICON_NAME.test(name))) return undefined;
  return readRootFile(webRoot, name);
}

/** `name` (already checked against the allow-list) from `rootDir`, unless it is missing or a link leading out. */
async function readRootFile(rootDir: string, name: string): Promise<StaticFile | undefined> {
  const type = TYPES[extname(name).toLowerCase()];
  if (type === undefined) return undefined;
  try {
    const root = await realpath(resolve(rootDir));
    const path = await realpath(join(root, name));
    // A link in the root may not lead anywhere else (its target must be a file of the root itself).
    if (path !== join(root, name) || !(await stat(path)).isFile()) return undefined;
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
