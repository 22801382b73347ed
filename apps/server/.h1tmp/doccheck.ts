import { PropertyRecord } from '@opp/contracts';
import { recordSourceFor } from '../src/features/imports/record-sources.ts';
import { formatIssue } from '../src/features/imports/import.service.ts';
for (const f of ['/tmp/h1scratch/doc0.jsonl', '/tmp/h1scratch/doc1.csv', '/tmp/h1scratch/doc2.csv']) {
  for await (const item of recordSourceFor(f)()) {
    if ('error' in item) { console.log(f, item.line, item.error); continue; }
    const p = PropertyRecord.safeParse(item.value);
    if (!p.success) for (const i of p.error.issues) console.log(f, formatIssue(item.line, i.path, i.message, item.field?.(i.path)));
    else console.log(f, 'ok', item.line, p.data.Account, p.data.Owners.length, p.data.Taxes.length, JSON.stringify(p.data.PropertyCode));
  }
}
