// Brings a SQLite log to one schema version with the migrations of the commit this file is copied into
// (make-upgrade-corpus.ts): for a version that was never the newest of any commit (4: the commit that
// added it added 5 too), the log of the version before it is stepped up by that commit's own migration.
// Usage: step-schema.ts <file> <version>
import Database from 'better-sqlite3';

import { MIGRATIONS, migrate } from '../../src/store/migrations.js';

const [file, target] = process.argv.slice(2);
if (file === undefined || target === undefined) throw new Error('usage: step-schema.ts <file> <version>');
const db = new Database(file);
console.log(
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= Number(target)),
  ),
);
db.close();
