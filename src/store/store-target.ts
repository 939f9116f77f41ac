// What a store target names: a data directory (SQLite) or a PostgreSQL URL, recognised, checked, and
// described without its password (errors and logs name the server as host:port only); and the names
// hosts of a fleet go by in that database.

/** Whether `store` names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(store: string): boolean {
  return /^postgres(ql)?:\/\//i.test(store);
}

/** What a fleet host's name may be: it is shown in every inbox, so nothing that could pose as other text. */
export const HOST_NAME_RULE = '1-100 letters, digits or . _ : @ - (starting with a letter or digit)';

export function isHostName(name: unknown): name is string {
  return typeof name === 'string' && /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}$/.test(name);
}

/** host:port of a postgres:// URL (a Unix socket directory given as ?host= is named as it is). */
export function describeServer(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('The store URL is not a valid postgres:// URL');
  }
  if (!isPostgresUrl(url)) throw new TypeError('The store URL must start with postgres:// or postgresql://');
  // As the driver reads it: ?host= (a Unix socket directory) wins; a percent-encoded socket path is decoded.
  const host = parsed.searchParams.get('host') ?? (decodeURIComponent(parsed.hostname) || 'localhost');
  const port = parsed.port === '' ? (parsed.searchParams.get('port') ?? '5432') : parsed.port;
  const database = parsed.pathname.replace(/^\//, '');
  return `${host}:${port}${database === '' ? '' : `/${decodeURIComponent(database)}`}`;
}
