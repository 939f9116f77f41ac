// Whole databases on a PostgreSQL server, created and dropped by name (a throwaway test cluster hands one
// to each test). A name is an identifier spliced into the statement (CREATE DATABASE takes no
// parameters), so only plain lower-case identifiers are accepted.

function checkedName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
    throw new TypeError(`${JSON.stringify(name)} is not a plain database name`);
  return name;
}

export function createDatabaseSql(name: string): string {
  return `CREATE DATABASE ${checkedName(name)}`;
}

/** Drops the database, cutting whatever is still connected to it. */
export function dropDatabaseSql(name: string): string {
  return `DROP DATABASE IF EXISTS ${checkedName(name)} WITH (FORCE)`;
}
