import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../db/database.ts';
import { cliHarness } from '../../test/cli-harness.ts';

/*
 * `portal import` reading a town's own export: --list-formats, --format, --mapping, --dry-run and
 * --preview, run in-process as a person runs them, against the configured database.
 */

const { portal, withDb, file, dir } = cliHarness('import-cli');

const REM =
  'REM_ACCT_NUM,REM_PID,REM_MBLU_MAP,REM_MBLU_BLOCK,REM_MBLU_LOT,REM_MBLU_UNIT,REM_PRCL_LOCN_NUM,REM_PRCL_LOCN_STREET,PRC_TTL_LAND_VAL,PRC_TTL_BLDG_VAL,PRC_TTL_ASSESS,PRC_TTL_ACRES,OWN_NAME1,VISION_EXTRA\n' +
  '1042,11,R03,012,,,12,MAIN ST,"45,000","155,500","200,500",1.5,"PINE COVE HOLDINGS LLC",x\n' +
  '1043,12,R03,013,,,0,POND RD,21000,0,21000,0.25,,y\n';
const SLH = 'REM_ACCT_NUM,SLH_SALE_DATE,SLH_SALE_PRICE\n1042,5/1/2019,"$245,000"\n1042,20010102,1000\n';

describe('portal import with formats and mappings', () => {
  it('lists the built-in formats, one a line', async () => {
    const run = await portal(['import', '--list-formats']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(['massgis-l3', 'maine-geolibrary', 'vision']);
    expect(lines[2]).toMatch(/^vision\s+Vision \(VGSI\) database columns/);
  });

  it('a dry run prints count, fill rates, unused columns and writes nothing', async () => {
    const run = await portal([
      'import',
      '--format',
      'vision',
      '--dry-run',
      file('rem.csv', REM),
      file('slh.csv', SLH),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^rem\.csv, slh\.csv \(format vision\): 2 records$/m);
    expect(run.stdout).toMatch(/^ {2}Account\s+2 of 2 \(100%\)$/m);
    expect(run.stdout).toMatch(/^ {2}StreetNumber\s+1 of 2 \(50\.0%\)$/m);
    expect(run.stdout).toMatch(/^ {2}Sales\.SalePrice\s+2 of 2 \(100%\)$/m);
    expect(run.stdout).toMatch(/^ {2}rem\.csv: VISION_EXTRA$/m);
    expect(run.stdout).toMatch(/^Optional columns the files do not have: .*REM_PRCL_LOCN_APT \(Apartment\)/m);
    expect(run.stdout).toMatch(/Nothing was written\.$/m);
  }, 60_000);

  it('a dry run refuses a file whose values would all be empty, and names doubtful values as warnings', async () => {
    const run = await portal([
      'import',
      '--format',
      'vision',
      '--dry-run',
      file('rem-empty.csv', REM.replace('PRC_TTL_LAND_VAL', 'LAND_VALUE')),
      file('slh-old.csv', 'REM_ACCT_NUM,SLH_SALE_DATE,SLH_SALE_PRICE\n1042,07/23/0987,1000\n1043,,500\n'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^2 warnings \(values published as given\):$/m);
    expect(run.stdout).toMatch(
      /^ {2}line 2: Sales\[0\]\.SaleDate \(column "SLH_SALE_DATE" of slh-old\.csv line 2\): the year 0987 is unlikely; published as given$/m,
    );
    expect(run.stderr).toMatch(/^every record's land value \(LandValue\) came out empty/m);
    expect(run.stderr).toMatch(/would be rejected: 1 problem in 2 records\. Nothing was written\.$/m);
  }, 60_000);

  it('a dry run that finds problems names line, field and column, and exits 1', async () => {
    const run = await portal([
      'import',
      '--format',
      'vision',
      '--dry-run',
      file('rem-bad.csv', REM.replace('"200,500"', 'N/A')),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^line 2: Taxable \(column "PRC_TTL_ASSESS"\): expected a number, got "N\/A"$/m,
    );
    expect(run.stderr).toMatch(/would be rejected: 1 problem in 2 records\. Nothing was written\.$/m);
  }, 60_000);

  it('--preview prints the first records as JSON Lines', async () => {
    const run = await portal([
      'import',
      '--format',
      'vision',
      '--preview',
      '1',
      path.join(dir, 'rem.csv'),
      path.join(dir, 'slh.csv'),
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      Account: '1042',
      MapLot: 'R03-12',
      Taxable: 200500,
      Owners: [{ OwnerName: 'PINE COVE HOLDINGS LLC' }],
      Sales: [
        { SaleDate: '2019-05-01', SalePrice: 245000 },
        { SaleDate: '2001-01-02', SalePrice: 1000 },
      ],
    });
  }, 60_000);

  it('a dry run also checks a roll in the portal’s own format, with numbers given as text taken as numbers', async () => {
    const roll = file(
      'own.jsonl',
      `${JSON.stringify({ Account: '1', LandValue: '45,000' })}\n${JSON.stringify({ Account: '1', StreetNumber: 12 })}\n`,
    );
    const run = await portal(['import', '--dry-run', roll]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^own\.jsonl: 2 records$/m);
    expect(run.stdout).toMatch(/^ {2}LandValue\s+1 of 2 \(50\.0%\)$/m);
    expect(run.stderr).toMatch(/^line 2: Account: 1 appears again \(first on line 1\)$/m);
  }, 60_000);

  it('a town’s export given as the portal’s own format is refused by its header, without a count of records', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${i},8-${i},${i} CANAL PK,100,1,2,3`).join('\n');
    const run = await portal([
      'import',
      '--dry-run',
      file(
        'taxfy14.csv',
        `PID,ML,Location,LandArea,TotalAppraisedLandValue,TotalAppraisedImprovements,TotalAppraisedParcelValue\n${rows}\n`,
      ),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^portal import: the files do not fit the portal’s own format; nothing was changed$/m,
    );
    expect(run.stderr).toMatch(
      /^portal import: taxfy14\.csv is not in the portal's own CSV format: 7 of its 7 columns are not fields of the record \(PID, ML, Location, LandArea, TotalAppraisedLandValue, TotalAppraisedImprovements, …\), and it has no Account column\. A town's own export is read through a built-in format or a mapping file \(examples in docs\/examples\)$/m,
    );
    expect(run.stderr).not.toMatch(/records/);
  });

  it('a missing column, an unknown format or a broken mapping is one clear message before anything is read', async () => {
    const missing = await portal([
      'import',
      '--format',
      'maine-geolibrary',
      '--dry-run',
      file('me.csv', 'STATE_ID,PROP_LOC\n1,2 MAIN ST\n'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'portal import: the files do not fit the format maine-geolibrary; nothing was changed\n' +
        'portal import: me.csv has no column "MAP_BK_LOT" (the mapping reads it for Account, MapLot)\n',
    );
    const unknown = await portal(['import', '--format', 'trio', '--dry-run', path.join(dir, 'me.csv')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /--format trio: no such format \(the formats are massgis-l3, maine-geolibrary, vision/,
    );
    const broken = await portal([
      'import',
      '--mapping',
      file('town.json', '{"fields":{"Account":"A","TotalAcres":{"column":"L","transform":"acre"}}}'),
      '--dry-run',
      path.join(dir, 'me.csv'),
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^portal import: the mapping town\.json cannot be used\n/);
    expect(broken.stderr).toMatch(/fields\.TotalAcres\.transform: unknown transform "acre"/);
    const both = await portal(['import', '--format', 'vision', '--mapping', 'x.json', '--dry-run', 'a.csv']);
    expect(both.code).toBe(2);
  });

  it('publishes through a format, and the import run keeps the files and the format', async () => {
    expect((await portal(['client', 'add', '--state', 'ME', '--city', 'Harrison'])).code).toBe(0);
    const run = await portal([
      'import',
      '--state',
      'ME',
      '--city',
      'Harrison',
      '--format',
      'vision',
      path.join(dir, 'rem.csv'),
      path.join(dir, 'slh.csv'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Imported 2 records into Harrison, Maine in /m);
    const rows = await withDb(({ db }) =>
      queryRows<{ file_name: string; status: string; accounts: string[] }>(
        db,
        sql`select r.file_name, r.status,
                   (select array_agg(p.account order by p.account) from properties p where p.roll_id = r.id) as accounts
              from import_runs r order by r.id desc limit 1`,
      ),
    );
    expect(rows[0]).toEqual({
      file_name: 'rem.csv, slh.csv (format vision)',
      status: 'succeeded',
      accounts: ['1042', '1043'],
    });
    // The run keeps its origin as the console's upload does, and the console lists it.
    const origin = await withDb(({ db }) =>
      queryRows<{ source_format: string; source_mapping: string | null; source_files: string[] }>(
        db,
        sql`select source_format, source_mapping, source_files from import_runs order by id desc limit 1`,
      ),
    );
    expect(origin[0]).toEqual({
      source_format: 'vision',
      source_mapping: null,
      source_files: ['rem.csv', 'slh.csv'],
    });
  }, 120_000);

  it('--fiscal-year and --valuation-date date the roll’s values; a bad one is refused before anything is read', async () => {
    const bad = await portal([
      'import',
      '--state',
      'ME',
      '--city',
      'Harrison',
      '--format',
      'vision',
      '--valuation-date',
      '1/1/2013',
      file('rem.csv', REM),
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--valuation-date: Valuation date must be a date such as 2013-01-01/);
    const run = await portal([
      'import',
      '--state',
      'ME',
      '--city',
      'Harrison',
      '--format',
      'vision',
      '--fiscal-year',
      '2014',
      '--valuation-date',
      '2013-01-01',
      file('rem.csv', REM),
      file('slh.csv', SLH),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const rows = await withDb(({ db }) =>
      queryRows<{ tax_year: number; valuation_date: string }>(
        db,
        sql`select tax_year, valuation_date::text from import_runs order by id desc limit 1`,
      ),
    );
    expect(rows[0]).toEqual({ tax_year: 2014, valuation_date: '2013-01-01' });
  }, 120_000);
});
