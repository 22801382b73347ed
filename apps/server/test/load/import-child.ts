import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { importRoll } from '../../src/features/rolls/import.service.ts';
import { openConfiguredDatabase } from '../../src/server.ts';
import { recordSource } from './support.ts';

/*
 * A roll import in its own process, for the crash test to kill: `import-child.ts CLIENT_ID COUNT GEN`.
 * Prints `progress <phase> <records>` as it goes, so the test knows when it is midway.
 */
const [clientId, count, gen] = process.argv.slice(2);
const database = await openConfiguredDatabase(loadConfig());
await migrate(database);
const outcome = await importRoll(
  database.db,
  { clientId: Number(clientId), userId: null, actor: 'crash test', fileName: 'crash.jsonl' },
  recordSource(Number(count), gen === 'A' ? 'A' : 'B'),
  (p) => process.stdout.write(`progress ${p.phase} ${p.processed}\n`),
);
process.stdout.write(`done ${outcome.ok} ${outcome.total}\n`);
await database.close();
