import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ImportRunDto, RollFormatDto, RollPreviewDto } from '@opp/contracts';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient } from '../../../test/factories.ts';
import { usersRepository } from '../users/users.repository.ts';

/*
 * The provider console's upload of a town's own export (issue 39): a built-in format or a mapping file
 * beside the data, a preview that writes nothing, and the same files then published; the run keeps
 * what the roll was read from.
 */

const ctx = setupTestApp();

let seq = 0;
async function signIn(roleId: 1 | 2) {
  seq++;
  const user = await usersRepository.insert(ctx.db, {
    username: `previewer${seq}_${roleId}`,
    email: `previewer${seq}_${roleId}@example.test`,
    roleId,
    manages: null,
    passwordHash: 'not-a-real-hash',
  });
  const token = await ctx.app.sessions.create(user.id, { ip: null, userAgent: null });
  return { authorization: `Bearer ${token}` };
}

type Part = { name: string; value: string } | { name: string; filename: string; content: string };

/** A multipart/form-data body as a browser's FormData sends it. */
function form(parts: Part[]) {
  const boundary = `----opp${randomBytes(8).toString('hex')}`;
  const chunks = parts.map((p) =>
    'filename' in p
      ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${p.content}\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`,
  );
  return {
    payload: Buffer.from(`${chunks.join('')}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

// A made-up MassGIS Level 3 table (no real people): three parcels, land in acres or square feet.
const L3 =
  'PROP_ID,LOC_ID,BLDG_VAL,LAND_VAL,OTHER_VAL,TOTAL_VAL,FY,LOT_SIZE,LOT_UNITS,LS_DATE,LS_PRICE,LS_BOOK,LS_PAGE,' +
  'USE_CODE,SITE_ADDR,LOCATION,CITY,ZIP,OWNER1,OWN_ADDR,OWN_CITY,OWN_STATE,OWN_ZIP,OWN_CO,ZONING,YEAR_BUILT,' +
  'BLD_AREA,UNITS,RES_AREA,STYLE,STORIES,NUM_ROOMS,MAP_PAR_ID,COUNTY_EXTRA\n' +
  '1-12,L1,"200,000",100000,0,300000,2025,0.5,A,20190501,245000,40018,542,101,12 MAIN ST,,TESTVILLE,01000,' +
  'PINE COVE HOLDINGS LLC,1 HARBOR WAY,TESTVILLE,MA,01000,,R1,1950,1800,1,1500,Colonial,2,7,12-1,x\n' +
  '1-14,L2,0,50000,0,50000,2025,21780,S,0,0,,,130,14 MAIN ST,,TESTVILLE,01000,' +
  'MAPLE TRUST,PO BOX 9,TESTVILLE,MA,01000,,R1,0,0,0,0,,0,0,12-2,y\n' +
  '1-20,L3,150000,80000,5000,235000,2025,1.25,A,20010102,1000,2013,0352,101,20 OAK RD,2,TESTVILLE,01000,' +
  'BIRCH HOLDINGS INC,20 OAK RD,TESTVILLE,MA,01000,,R2,1988,1200,1,1100,Ranch,1,5,,z\n';

const l3Upload = (extra: Part[] = [], csv = L3) =>
  form([
    { name: 'format', value: 'massgis-l3' },
    ...extra,
    { name: 'file', filename: 'town-l3.csv', content: csv },
  ]);

async function post(url: string, headers: Record<string, string>, body: ReturnType<typeof form>) {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
}

/** Everything a preview must not have written: no run, no roll, no audit entry. */
async function written(clientId: number) {
  const [row] = await queryRows<{ runs: number; rows: number; active: number | null; audit: number }>(
    ctx.db,
    sql`select (select count(*)::int from import_runs where client_id = ${clientId}) as runs,
               (select count(*)::int from properties where client_id = ${clientId}) as rows,
               (select active_roll_id from clients where id = ${clientId}) as active,
               (select count(*)::int from audit_log where client_id = ${clientId} and action = 'roll.publish') as audit`,
  );
  return row!;
}

async function waitForRun(clientId: number, runId: number, headers: Record<string, string>) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/rolls/${clientId}/runs/${runId}`, headers });
    const run = res.json() as ImportRunDto;
    if (run.Status === 'succeeded' || run.Status === 'failed') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.Status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('built-in formats', () => {
  it('lists them for the console (providers only)', async () => {
    const provider = await signIn(1);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/roll-formats', headers: provider });
    expect(res.statusCode).toBe(200);
    const formats = res.json() as RollFormatDto[];
    expect(formats.map((f) => f.Name)).toEqual(['massgis-l3', 'maine-geolibrary', 'vision']);
    expect(formats[0]!.Description).toMatch(/Massachusetts Level 3/);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/roll-formats' })).statusCode).toBe(401);
    const admin = await signIn(2);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/roll-formats', headers: admin })).statusCode,
    ).toBe(403);
  });
});

describe('preview, then publish', () => {
  it('a preview shows counts, fill rates, unused columns and the first records, and writes nothing', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const res = await post(`/api/rolls/${client.id}/preview`, provider, l3Upload());
    expect(res.statusCode).toBe(200);
    const preview = res.json() as RollPreviewDto;
    expect(preview).toMatchObject({
      SourceFiles: ['town-l3.csv'],
      Format: 'massgis-l3',
      Mapping: null,
      Records: 3,
      ProblemCount: 0,
      Problems: [],
      UnusedColumns: [
        { File: 'town-l3.csv', Columns: expect.arrayContaining(['COUNTY_EXTRA']), Count: expect.any(Number) },
      ],
    });
    const fill = Object.fromEntries(preview.Fill.map((f) => [f.Field, `${f.Filled}/${f.Of}`]));
    expect(fill).toMatchObject({ Account: '3/3', StreetNumber: '3/3', Apartment: '1/3', TotalAcres: '3/3' });
    // The records as mapped, values read from the source file.
    expect(preview.Sample.map((s) => s.Line)).toEqual([2, 3, 4]);
    expect(preview.Sample[0]!.Record).toMatchObject({
      Account: '1-12',
      StreetNumber: '12',
      StreetName: 'MAIN ST',
      MapLot: '12-1',
      LandValue: 100000,
      TotalBuildingValue: 200000,
      TotalAcres: 0.5,
    });
    // 21,780 square feet is half an acre.
    expect(preview.Sample[1]!.Record).toMatchObject({ Account: '1-14', TotalAcres: 0.5 });
    expect(preview.Sample[2]!.Record).toMatchObject({
      Account: '1-20',
      StreetName: 'OAK RD',
      Apartment: '2',
    });
    expect(await written(client.id)).toEqual({ runs: 0, rows: 0, active: null, audit: 0 });
  });

  it('a preview lists the problems by line, portal field and source column, and still writes nothing', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const res = await post(
      `/api/rolls/${client.id}/preview`,
      provider,
      l3Upload([], L3.replace('150000,80000', 'N/A,80000')),
    );
    expect(res.statusCode).toBe(200);
    const preview = res.json() as RollPreviewDto;
    expect(preview.Records).toBe(3);
    expect(preview.ProblemCount).toBe(1);
    expect(preview.Problems[0]).toMatch(
      /^line 4: TotalBuildingValue \(column "BLDG_VAL"\): expected a number/,
    );
    expect(await written(client.id)).toEqual({ runs: 0, rows: 0, active: null, audit: 0 });
  });

  it('confirming publishes the same files; the run keeps the format and the file names', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const res = await post(`/api/rolls/${client.id}`, provider, l3Upload());
    expect(res.statusCode).toBe(202);
    const started = res.json() as ImportRunDto;
    const run = await waitForRun(client.id, started.RunID, provider);
    expect(run).toMatchObject({
      Status: 'succeeded',
      TotalRecords: 3,
      FileName: 'town-l3.csv (format massgis-l3)',
      Format: 'massgis-l3',
      Mapping: null,
      SourceFiles: ['town-l3.csv'],
    });
    const accounts = await queryRows<{ account: string }>(
      ctx.db,
      sql`select p.account from properties p join clients c on c.active_roll_id = p.roll_id
           where c.id = ${client.id} order by p.account`,
    );
    expect(accounts.map((a) => a.account)).toEqual(['1-12', '1-14', '1-20']);
    const history = await ctx.app.inject({
      method: 'GET',
      url: `/api/rolls/${client.id}`,
      headers: provider,
    });
    expect((history.json() as ImportRunDto[])[0]).toMatchObject({
      Format: 'massgis-l3',
      SourceFiles: ['town-l3.csv'],
    });
  });

  it('the run knows from its start how many records the confirmed preview counted', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const preview = (await post(`/api/rolls/${client.id}/preview`, provider, l3Upload())).json() as {
      Records: number;
    };
    expect(preview.Records).toBe(3);
    const res = await post(
      `/api/rolls/${client.id}`,
      provider,
      l3Upload([{ name: 'records', value: String(preview.Records) }]),
    );
    expect(res.statusCode).toBe(202);
    const started = res.json() as ImportRunDto;
    // Known in the answer that starts the run, before any record is read.
    expect(started).toMatchObject({ Status: 'validating', ExpectedRecords: 3, TotalRecords: 0 });
    const run = await waitForRun(client.id, started.RunID, provider);
    expect(run).toMatchObject({ Status: 'succeeded', TotalRecords: 3, ExpectedRecords: 3 });

    // Without a preview's count (the command line, an older console) the run says it does not know.
    const other = await buildClient(ctx.db);
    const plain = (await post(`/api/rolls/${other.id}`, provider, l3Upload())).json() as ImportRunDto;
    expect(plain.ExpectedRecords).toBeNull();
    await waitForRun(other.id, plain.RunID, provider);
  });

  it('a record count that is not a whole number is a 400 naming it; nothing is started', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    for (const value of ['-1', 'lots', '2.5', '99999999999']) {
      const res = await post(`/api/rolls/${client.id}`, provider, l3Upload([{ name: 'records', value }]));
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[0]).toMatchObject({ field: 'records' });
      expect(res.json().fields[0].message).toMatch(/whole number of records/);
    }
    expect(await written(client.id)).toMatchObject({ runs: 0 });
  });

  it('a mapping file uploaded beside the data is used, and the run keeps its name and content', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const mapping = JSON.stringify({
      fields: {
        Account: 'ACCT',
        StreetName: 'STREET',
        TotalAcres: { column: 'SQFT', transform: 'acres', units: 'squareFeet' },
      },
    });
    const data = 'ACCT,STREET,SQFT,NOTE\nA-1,ELM ST,43560,a\nA-2,ELM ST,21780,b\n';
    const body = () =>
      form([
        { name: 'file', filename: 'parcels.csv', content: data },
        { name: 'mapping', filename: 'our-town.json', content: mapping },
      ]);
    const preview = (
      await post(`/api/rolls/${client.id}/preview`, provider, body())
    ).json() as RollPreviewDto;
    expect(preview).toMatchObject({ Mapping: 'our-town.json', Format: null, Records: 2, ProblemCount: 0 });
    expect(preview.Sample.map((s) => s.Record.TotalAcres)).toEqual([1, 0.5]);
    expect(preview.UnusedColumns).toEqual([{ File: 'parcels.csv', Columns: ['NOTE'], Count: 1 }]);

    const res = await post(`/api/rolls/${client.id}`, provider, body());
    expect(res.statusCode).toBe(202);
    const run = await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider);
    expect(run).toMatchObject({
      Status: 'succeeded',
      Mapping: 'our-town.json',
      SourceFiles: ['parcels.csv'],
    });
    const [kept] = await queryRows<{ mapping: { fields: Record<string, unknown> } }>(
      ctx.db,
      sql`select source_mapping_json as mapping from import_runs where id = ${run.RunID}`,
    );
    expect(Object.keys(kept!.mapping.fields)).toEqual(['Account', 'StreetName', 'TotalAcres']);
  });

  it('a published run keeps the warnings and changed values its preview showed, in the run and the history', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const mapping = JSON.stringify({
      fields: {
        Account: 'ACCT',
        StreetName: 'STREET',
        LandValue: { column: 'LAND', invalid: 'empty' },
        Sales: { items: [{ fields: { SaleDate: 'SOLD', SalePrice: 'PRICE' } }] },
      },
    });
    // Line 2: a sale in 0987; line 3: a price with no date and a land value the field cannot take;
    // line 4: the same price with no date again.
    const data =
      'ACCT,STREET,LAND,SOLD,PRICE\nA-1,ELM ST,1000,0987-05-01,1000\nA-2,ELM ST,N/A,,5000\nA-3,ELM ST,2000,,7000\n';
    const body = () =>
      form([
        { name: 'file', filename: 'parcels.csv', content: data },
        { name: 'mapping', filename: 'our-town.json', content: mapping },
      ]);
    const preview = (
      await post(`/api/rolls/${client.id}/preview`, provider, body())
    ).json() as RollPreviewDto;
    expect(preview.ProblemCount).toBe(0);
    expect(preview.WarningCount).toBe(3);
    expect(preview.WarningFields).toEqual([
      { Field: 'Sales.SalePrice', Count: 2 },
      { Field: 'Sales.SaleDate', Count: 1 },
    ]);
    expect(preview.Warnings[0]).toMatch(/^line 2: .*SaleDate.*0987 is unlikely; published as given$/);
    expect(preview.Adjusted).toMatchObject([{ Field: 'LandValue', Count: 1 }]);

    const res = await post(`/api/rolls/${client.id}`, provider, body());
    const run = await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider);
    expect(run.Status).toBe('succeeded');
    const notes = (r: ImportRunDto | RollPreviewDto) => ({
      WarningCount: r.WarningCount,
      Warnings: r.Warnings,
      WarningFields: r.WarningFields,
      Adjusted: r.Adjusted,
    });
    expect(notes(run)).toEqual(notes(preview));
    const history = (
      await ctx.app.inject({ method: 'GET', url: `/api/rolls/${client.id}`, headers: provider })
    ).json() as ImportRunDto[];
    expect(notes(history[0]!)).toEqual(notes(preview));
  });

  it('a rejected run keeps no warnings: its problems come first', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const jsonl =
      '{"Account":"7","StreetName":"Pond Rd","Sales":[{"SaleDate":"0987-01-01"}]}\n{"Account":"7","StreetName":"Pond Rd"}\n';
    const res = await post(
      `/api/rolls/${client.id}`,
      provider,
      form([{ name: 'file', filename: 'roll.jsonl', content: jsonl }]),
    );
    const run = await waitForRun(client.id, (res.json() as ImportRunDto).RunID, provider);
    expect(run).toMatchObject({ Status: 'failed', ErrorCount: 1, WarningCount: 0, Warnings: [] });
  });

  it('a file in the portal’s own format is previewed the same way', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const jsonl = '{"Account":"7","StreetName":"Pond Rd"}\n{"Account":"8","LandValue":"1,234"}\n';
    const res = await post(
      `/api/rolls/${client.id}/preview`,
      provider,
      form([{ name: 'file', filename: 'roll.jsonl', content: jsonl }]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      Format: null,
      Mapping: null,
      SourceFiles: ['roll.jsonl'],
      Records: 2,
      ProblemCount: 0,
    });
  });
});

describe('what cannot be read is one clear 400, before anything is written', () => {
  it('a mapping file that cannot be used names the problem', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const body = () =>
      form([
        { name: 'file', filename: 'parcels.csv', content: 'A,L\n1,2\n' },
        {
          name: 'mapping',
          filename: 'town.json',
          content: '{"fields":{"Account":"A","TotalAcres":{"column":"L","transform":"acre"}}}',
        },
      ]);
    for (const url of [`/api/rolls/${client.id}/preview`, `/api/rolls/${client.id}`]) {
      const res = await post(url, provider, body());
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([
        {
          field: 'mapping',
          message: expect.stringMatching(
            /^The mapping file town\.json cannot be used: .*fields\.TotalAcres\.transform: unknown transform "acre"/,
          ),
        },
      ]);
    }
    const notJson = await post(
      `/api/rolls/${client.id}/preview`,
      provider,
      form([
        { name: 'file', filename: 'parcels.csv', content: 'A\n1\n' },
        { name: 'mapping', filename: 'town.json', content: '{"fields":' },
      ]),
    );
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().fields[0].message).toMatch(/town\.json cannot be used: not valid JSON/);
    expect(await written(client.id)).toEqual({ runs: 0, rows: 0, active: null, audit: 0 });
  });

  it('a missing required column is one error naming it', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const withoutPropId = L3.replace(/^PROP_ID,/, 'PARCEL,');
    for (const url of [`/api/rolls/${client.id}/preview`, `/api/rolls/${client.id}`]) {
      const res = await post(url, provider, l3Upload([], withoutPropId));
      expect(res.statusCode).toBe(400);
      const fields = res.json().fields as Array<{ field: string; message: string }>;
      expect(fields).toHaveLength(1);
      expect(fields[0]!.field).toBe('file');
      expect(fields[0]!.message).toBe(
        'The files do not fit the format massgis-l3: town-l3.csv has no column "PROP_ID" (the mapping reads it for Account)',
      );
    }
    expect(await written(client.id)).toEqual({ runs: 0, rows: 0, active: null, audit: 0 });
  });

  it('an unknown format, or a format and a mapping together, names the choice', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const unknown = await post(
      `/api/rolls/${client.id}/preview`,
      provider,
      form([
        { name: 'format', value: 'trio' },
        { name: 'file', filename: 't.csv', content: 'A\n1\n' },
      ]),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields[0]).toMatchObject({
      field: 'format',
      message: expect.stringMatching(
        /^The format trio cannot be used: no such format \(the formats are massgis-l3, maine-geolibrary, vision/,
      ),
    });
    const both = await post(
      `/api/rolls/${client.id}/preview`,
      provider,
      l3Upload([{ name: 'mapping', filename: 'm.json', content: '{}' }]),
    );
    expect(both.statusCode).toBe(400);
    expect(both.json().fields[0]).toMatchObject({
      field: 'mapping',
      message: 'Choose a format or send a mapping file, not both.',
    });
    const none = await post(
      `/api/rolls/${client.id}/preview`,
      provider,
      form([{ name: 'format', value: 'vision' }]),
    );
    expect(none.statusCode).toBe(400);
    expect(none.json().fields[0]).toMatchObject({ field: 'file', message: 'Choose a roll file to publish.' });
  });

  it('a file name that is no file name is refused or kept as its own, never used as a path', async () => {
    const provider = await signIn(1);
    const client = await buildClient(ctx.db);
    const dots = await post(
      `/api/rolls/${client.id}/preview`,
      provider,
      form([{ name: 'file', filename: '..', content: '{"Account":"1"}\n' }]),
    );
    expect(dots.statusCode).toBe(400);
    expect(dots.json().fields[0]).toMatchObject({ field: 'file' });
    const long = `${'é'.repeat(190)}.jsonl`;
    const res = await post(
      `/api/rolls/${client.id}/preview`,
      provider,
      form([{ name: 'file', filename: long, content: '{"Account":"1"}\n' }]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ SourceFiles: [long], Records: 1, ProblemCount: 0 });
  });

  it('404 for an unknown client; 401 and 403 before anything is received', async () => {
    const provider = await signIn(1);
    expect((await post('/api/rolls/999999/preview', provider, l3Upload())).statusCode).toBe(404);
    const client = await buildClient(ctx.db);
    expect((await post(`/api/rolls/${client.id}/preview`, {}, l3Upload())).statusCode).toBe(401);
    expect((await post(`/api/rolls/${client.id}/preview`, await signIn(2), l3Upload())).statusCode).toBe(403);
  });
});

describe('API docs', () => {
  it('list the formats and the preview with their response schemas', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { description?: string; responses?: Record<string, unknown> }>>;
    }>();
    expect(doc.paths['/api/roll-formats']?.get?.responses).toHaveProperty('200');
    const preview = doc.paths['/api/rolls/{clientId}/preview']?.post;
    expect(Object.keys(preview?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '404']));
    expect(preview?.description).toMatch(/Nothing is kept/);
    expect(doc.paths['/api/rolls/{clientId}']?.post?.description).toMatch(/`mapping` \(a mapping file/);
  });
});
