// The package's version, for GET /api/info and `warden --version`. Read from package.json next to the
// source (src/) or the build (dist/): both sit one level below the package root.
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const version = (JSON.parse(text) as { version?: unknown }).version;
    cached = typeof version === 'string' ? version : '0.0.0';
  } catch {
    cached = '0.0.0';
  }
  return cached;
}
