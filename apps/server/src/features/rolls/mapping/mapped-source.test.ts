import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../roll-rows.ts';
import { dryRun } from './dry-run.ts';
import { builtInFormat, listFormats } from './formats.ts';
import { globMatch, mappingColumns, openMappedSource } from './mapped-source.ts';
import { MappingError, readMapping, type Mapping } from './mapping-file.ts';

/*
 * The mapping engine on small files written the way real exports are: joins, grouping, code tables,
 * constants, the built-in formats' column checks, and problems that name line, field and column.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-mapping-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): { path: string; name: string } {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return { path: p, name };
}

async function recordsOf(mapping: Mapping, files: Array<{ path: string; name: string }>) {
  const input = await openMappedSource(mapping, files);
  const out: SourceRecord[] = [];
  for await (const r of input.source()) out.push(r);
  return { records: out, input };
}

const values = (records: SourceRecord[]) =>
  records.map((r) => ('value' in r ? r.value : r)) as Array<Record<string, unknown>>;

async function mappingError(work: () => Promise<unknown>): Promise<MappingError> {
  try {
    await work();
  } catch (err) {
    if (err instanceof MappingError) return err;
    throw err;
  }
  throw new Error('expected a MappingError');
}

describe('mapping engine', () => {
  it('joins files by key, groups many rows per key, sorts, looks codes up and sets constants', async () => {
    const mapping = readMapping(
      {
        files: [
          { id: 'parcels', name: 'parcels*.csv', key: 'PID' },
          { id: 'sales', name: 'sales*.csv', key: 'PID' },
          { id: 'codes', name: 'codes.csv', header: false },
        ],
        emptyValues: ['NULL'],
        codeTables: { use: { file: 'codes', code: 1, value: 2, wildcard: 'X' } },
        fields: {
          Account: 'PID',
          StreetNumber: { column: 'Location', transform: 'streetNumber' },
          StreetName: { column: 'Location', transform: 'streetName' },
          Apartment: { column: 'Location', transform: 'unit' },
          TotalAcres: { column: 'Area', transform: 'acres', units: 'squareFeet' },
          LandCode: 'Use',
          PropertyCode: { column: 'Use', lookup: 'use', label: 'Use' },
          Open1: { constant: 'Town export 2025', label: 'Source' },
          Owners: {
            items: [
              { fields: { OwnerName: 'Owner', ZipCode: { column: 'Zip', transform: 'zip' } } },
              { fields: { OwnerName: 'CoOwner', ZipCode: { column: 'Zip', transform: 'zip' } } },
            ],
          },
          Sales: {
            items: [
              {
                rows: 'sales',
                fields: {
                  SaleDate: 'Date',
                  SalePrice: 'Price',
                  Book: { column: 'BookPage', transform: 'book' },
                  Page: { column: 'BookPage', transform: 'page' },
                },
              },
            ],
            sort: 'SaleDate desc',
          },
        },
      },
      'test mapping',
    );
    const { records, input } = await recordsOf(mapping, [
      file(
        'parcels-2025.csv',
        'PID,Location,Area,Use,Owner,CoOwner,Zip,Unused\n7,4 CANAL PK #PH10,"43,560",1010,"LIBBY, SARAH",NULL,4040,x\n8,0 OFF GOOSE POND RD,21780,9XX1,TOWN OF LYME,,,y\n',
      ),
      file(
        'sales-2025.csv',
        'PID,Date,Price,BookPage\n7,5/1/2019,"$245,000", 40018/ 542\n8,,,\n7,20010102,1000,2013/0352\n',
      ),
      file('codes.csv', '1010,Single family\n9XX1,Town land\n'),
    ]);
    expect(values(records)).toEqual([
      {
        Account: '7',
        StreetNumber: '4',
        StreetName: 'CANAL PK',
        Apartment: 'PH10',
        TotalAcres: 1,
        LandCode: '1010',
        PropertyCode: { Description: 'Use', UserDefinedValue: 'Single family' },
        Open1: { Description: 'Source', UserDefinedValue: 'Town export 2025' },
        Owners: [{ OwnerName: 'LIBBY, SARAH', ZipCode: '04040' }],
        Sales: [
          { SaleDate: '2019-05-01', SalePrice: 245000, Book: '40018', Page: '542' },
          { SaleDate: '2001-01-02', SalePrice: 1000, Book: '2013', Page: '352' },
        ],
      },
      {
        Account: '8',
        StreetName: 'OFF GOOSE POND RD',
        TotalAcres: 0.5,
        LandCode: '9XX1',
        PropertyCode: { Description: 'Use', UserDefinedValue: 'Town land' },
        Open1: { Description: 'Source', UserDefinedValue: 'Town export 2025' },
        Owners: [{ OwnerName: 'TOWN OF LYME' }],
      },
    ]);
    expect(records.map((r) => r.line)).toEqual([2, 3]);
    expect(input.unusedColumns).toEqual([
      { file: 'parcels-2025.csv', columns: ['Unused'], count: 1 },
      { file: 'sales-2025.csv', columns: [], count: 0 },
      { file: 'codes.csv', columns: [], count: 0 },
    ]);
  });

  it('groups the rows of one key in the main file into one property with several buildings', async () => {
    const mapping = readMapping(
      {
        key: 'PID',
        fields: {
          Account: 'PID',
          Taxable: 'Value',
          Buildings: {
            items: [
              {
                rows: 'roll',
                fields: { BuildingType: 'Style', YearBuilt: { column: 'Year', empty: ['0'] } },
              },
            ],
          },
        },
      },
      'grouping',
    );
    const { records } = await recordsOf(mapping, [
      file('fy.csv', 'PID,Value,Style,Year\n1,100,CAPE,1978\n1,100,BARN,0\n2,50,,0\n'),
    ]);
    expect(values(records)).toEqual([
      {
        Account: '1',
        Taxable: 100,
        Buildings: [{ BuildingType: 'CAPE', YearBuilt: 1978 }, { BuildingType: 'BARN' }],
      },
      { Account: '2', Taxable: 50 },
    ]);
  });

  it('computes tax as rate × taxable, numbers repeated accounts and fills flags', async () => {
    const mapping = readMapping(
      {
        repeatedAccounts: 'number',
        fields: {
          Account: { template: '{ML}-{Location|unit}', transform: 'account' },
          Exemptions: {
            items: [
              {
                when: { column: 'ResEx', flag: true },
                fields: {
                  ExemptionID: { constant: 'RES' },
                  Description: { constant: 'Residential exemption' },
                },
              },
            ],
          },
          Taxes: {
            items: [
              {
                fields: {
                  TaxYear: { constant: 2025 },
                  Rate: { column: 'MillRate', transform: 'perThousand' },
                  TaxableValue: 'Total',
                  OriginalTaxAmount: { transform: 'taxAmount' },
                },
              },
            ],
          },
        },
      },
      'tax',
    );
    const { records } = await recordsOf(mapping, [
      file(
        'tax.csv',
        'ML,Location,ResEx,MillRate,Total\n8-61,4 CANAL PK #PH10,True,23.98,"1,359,700"\n8-61,4 CANAL PK #PH10,N,12.2,200500\n9-1,2 A ST,0,,10\n',
      ),
    ]);
    expect(values(records)).toEqual([
      {
        Account: '8-61-PH10',
        Exemptions: [{ ExemptionID: 'RES', Description: 'Residential exemption' }],
        Taxes: [{ TaxYear: 2025, Rate: 0.02398, TaxableValue: 1359700, OriginalTaxAmount: 32605.61 }],
      },
      {
        Account: '8-61-PH10.2',
        Taxes: [{ TaxYear: 2025, Rate: 0.0122, TaxableValue: 200500, OriginalTaxAmount: 2446.1 }],
      },
      { Account: '9-1', Taxes: [{ TaxYear: 2025, TaxableValue: 10 }] },
    ]);
  });

  it('names the line, the portal field and the source column of a value it cannot take', async () => {
    const mapping = builtInFormat('massgis-l3');
    const header =
      'PROP_ID,LOC_ID,BLDG_VAL,LAND_VAL,OTHER_VAL,TOTAL_VAL,FY,LOT_SIZE,LOT_UNITS,LS_DATE,LS_PRICE,LS_BOOK,LS_PAGE,USE_CODE,SITE_ADDR,LOCATION,CITY,ZIP,OWNER1,OWN_ADDR,OWN_CITY,OWN_STATE,OWN_ZIP,OWN_CO,ZONING,YEAR_BUILT,BLD_AREA,UNITS,RES_AREA,STYLE,STORIES,NUM_ROOMS,MAP_PAR_ID,REG_ID\n';
    const { records } = await recordsOf(mapping, [
      file(
        'l3.csv',
        header +
          '8_61_PH10,F_1_2,"180,500",45000,0,225500,2025,2.5,A,20190501,245000,35123,118,101,12 MAIN ST,,CAMBRIDGE,02138,"LIBBY, SARAH",12 MAIN ST,CAMBRIDGE,MA,2138,,R1,1978,2000,1,1650,Cape,1.5,7,8-61,\n' +
          '9,F_3,N/A,1,0,1,2025,10890,S,2019-13-01,0,,,101,14 MAIN ST,,,,,,,,,,,0,0,0,0,,,,,\n',
      ),
    ]);
    expect(values(records)[0]).toMatchObject({
      Account: '8_61_PH10',
      MapLot: '8-61',
      StreetNumber: '12',
      StreetName: 'MAIN ST',
      TotalBuildingValue: 180500,
      TotalAcres: 2.5,
      Reference1: { Description: 'MassGIS LOC_ID', UserDefinedValue: 'F_1_2' },
      Owners: [{ OwnerName: 'LIBBY, SARAH', City: 'CAMBRIDGE', ZipCode: '02138' }],
      Sales: [{ SaleDate: '2019-05-01', SalePrice: 245000, Book: '35123', Page: '118' }],
      Buildings: [{ BuildingType: 'Cape', Area: 1650, BuildingStories: 1.5, Rooms: 7, YearBuilt: 1978 }],
      Taxes: [{ TaxYear: 2025, LandValue: 45000, BuildingValue: 180500, TaxableValue: 225500 }],
    });
    expect(records[1]).toMatchObject({
      line: 3,
      error:
        'TotalBuildingValue (column "BLDG_VAL"): expected a number, got "N/A"; Sales[0].SaleDate (column "LS_DATE"): "2019-13-01" is not a real date; Taxes[0].BuildingValue (column "BLDG_VAL"): expected a number, got "N/A"',
      // What could be read still counts in the fill rates; the conversion is noted.
      partial: { Account: '9', LandValue: 1, TotalAcres: 0.25 },
      notes: [{ field: 'TotalAcres', kind: 'unit', text: '"10890" square feet → 0.25 acres' }],
    });
  });

  it('reports every missing required column of a format as one clear message, and ignores extra columns', async () => {
    const err = await mappingError(() =>
      openMappedSource(builtInFormat('maine-geolibrary'), [
        file('me.csv', 'STATE_ID,PROP_LOC,EXTRA\n1,2 MAIN ST,x\n'),
      ]),
    );
    expect(err.problems).toEqual([
      'me.csv has no column "MAP_BK_LOT" (the mapping reads it for Account, MapLot)',
    ]);
    const ok = await recordsOf(builtInFormat('maine-geolibrary'), [
      file(
        'me2.csv',
        'STATE_ID,MAP_BK_LOT,PROP_LOC,EXTRA,LOT_SIZE,SIZE_UNITS\n23001-R03,R03-012,12 MAIN ST,x,"43,560",SqFt\n',
      ),
    ]);
    expect(values(ok.records)).toEqual([
      {
        Account: 'R03-012',
        MapLot: 'R03-012',
        StreetNumber: '12',
        StreetName: 'MAIN ST',
        TotalAcres: 1,
        Reference1: { Description: 'State parcel ID', UserDefinedValue: '23001-R03' },
      },
    ]);
    expect(ok.input.unusedColumns[0]!.columns).toEqual(['EXTRA']);
  });

  it('reads a Vision export in several files: MBLU to map/lot (raw kept), sale and building rows grouped, suppressed owners flagged', async () => {
    const { records } = await recordsOf(builtInFormat('vision'), [
      file(
        'rem.csv',
        'REM_PID,REM_ACCT_NUM,REM_MBLU_MAP,REM_MBLU_BLOCK,REM_MBLU_LOT,REM_MBLU_UNIT,REM_PRCL_LOCN_NUM,REM_PRCL_LOCN_STREET,REM_INET_SUPPRESS,OWN_NAME1,OWN_NAME2,MAD_MAIL_ZIP,PRC_LAND_VAL,PRC_TTL_ASSESS\n' +
          '101,A-1,020,003,082,,12,MAIN ST,N,"LIBBY, SARAH","LIBBY, PAUL",4040,45000,200500\n' +
          '102,A-2,020,003,083,,0,POND RD,Y,"SECRET, ANN",,4040,21000,21000\n',
      ),
      file(
        'slh.csv',
        'REM_ACCT_NUM,SLH_SALE_DATE,SLH_SALE_PRICE,SLH_BOOK,SLH_PAGE,SLH_GRANTEE\nA-1,1/2/2001,1000,10,20,"LIBBY, SARAH"\nA-1,5/1/2019,245000,35123,118,"LIBBY, SARAH"\nA-2,5/1/2020,5000,1,2,"SECRET, ANN"\n',
      ),
      file(
        'cns.csv',
        'REM_ACCT_NUM,CNS_AYB,CNS_STYLE_DESC,CNS_NUM_BEDRM,CNS_NUM_BATHS,CNS_STORIES\nA-1,1978,Cape,3,2,1 1/2\nA-1,1990,Barn,,,1\n',
      ),
    ]);
    expect(values(records)).toEqual([
      {
        Account: 'A-1',
        MapLot: '20-3-82',
        Reference2: { Description: 'Vision MBLU', UserDefinedValue: '020/003/082//' },
        Reference1: { Description: 'Vision PID', UserDefinedValue: '101' },
        StreetNumber: '12',
        StreetName: 'MAIN ST',
        LandValue: 45000,
        Taxable: 200500,
        SuppressOwner: false,
        Owners: [
          { OwnerName: 'LIBBY, SARAH', ZipCode: '04040' },
          { OwnerName: 'LIBBY, PAUL', ZipCode: '04040' },
        ],
        Sales: [
          {
            SaleDate: '2019-05-01',
            SalePrice: 245000,
            Book: '35123',
            Page: '118',
            SaleParty: 'LIBBY, SARAH',
          },
          { SaleDate: '2001-01-02', SalePrice: 1000, Book: '10', Page: '20', SaleParty: 'LIBBY, SARAH' },
        ],
        Buildings: [
          { YearBuilt: 1978, BuildingType: 'Cape', Bedrooms: 3, FullBaths: 2, BuildingStories: 1.5 },
          { YearBuilt: 1990, BuildingType: 'Barn', BuildingStories: 1 },
        ],
      },
      {
        Account: 'A-2',
        MapLot: '20-3-83',
        Reference2: { Description: 'Vision MBLU', UserDefinedValue: '020/003/083//' },
        Reference1: { Description: 'Vision PID', UserDefinedValue: '102' },
        StreetName: 'POND RD',
        LandValue: 21000,
        Taxable: 21000,
        // Kept in the roll and flagged: the server withholds them on every public path (owner-privacy.ts).
        SuppressOwner: true,
        Owners: [{ OwnerName: 'SECRET, ANN', ZipCode: '04040' }],
        Sales: [{ SaleDate: '2020-05-01', SalePrice: 5000, Book: '1', Page: '2', SaleParty: 'SECRET, ANN' }],
      },
    ]);
  });
});

/** A dBASE III table as MassGIS ships them: character fields, one record marked deleted. */
function dbf(
  name: string,
  fields: Array<[string, number]>,
  records: Array<{ cells: string[]; deleted?: boolean }>,
) {
  const headerLength = 32 + 32 * fields.length + 1;
  const recordLength = 1 + fields.reduce((n, [, len]) => n + len, 0);
  const buf = Buffer.alloc(headerLength + recordLength * records.length + 1, 0x20);
  buf.fill(0, 0, headerLength);
  buf[0] = 0x03;
  buf.writeUInt32LE(records.length, 4);
  buf.writeUInt16LE(headerLength, 8);
  buf.writeUInt16LE(recordLength, 10);
  fields.forEach(([field, len], i) => {
    buf.write(field, 32 + 32 * i, 'latin1');
    buf[32 + 32 * i + 11] = 'C'.charCodeAt(0);
    buf[32 + 32 * i + 16] = len;
  });
  buf[headerLength - 1] = 0x0d;
  records.forEach((r, n) => {
    let at = headerLength + n * recordLength;
    buf[at++] = r.deleted ? 0x2a : 0x20;
    r.cells.forEach((c, i) => {
      buf.write(c.padEnd(fields[i]![1]), at, 'latin1');
      at += fields[i]![1];
    });
  });
  buf[buf.length - 1] = 0x1a;
  const p = path.join(dir, name);
  fs.writeFileSync(p, buf);
  return { path: p, name };
}

describe('exports as they come', () => {
  const vision = builtInFormat('vision');
  const MASTER =
    'REM_MBLU_MAP,REM_MBLU_BLOCK,REM_MBLU_LOT,REM_MBLU_UNIT,REM_PRCL_LOCN,REM_OWN_NAME,MAD_MAIL_ADDR1,MAD_MAIL_CITY,MAD_MAIL_STATE,MAD_MAIL_ZIP,REM_USE_CODE,PRC_TTL_LND_AREA_ACRES,PRC_TTL_ASSESS_LND,PRC_TTL_ASSESS_BLDG,PRC_TTL_ASSESS\n';
  const ROWS =
    '      1,      3,    100,       ,23 FARAWAY LN,"LUNTER, M",23 FARAWAY LN,WEST LEBANON,NH,03784,1010,1.560000,161800,359600,521900\n' +
    '      4,     23,    906,       ,20 MORGAN DR Unit 21,"SMITH, A",PO BOX 1,LEBANON,NH,03766,1020,2.3e-05,0,435100,452700\n';
  const expected = [
    {
      Account: '1-3-100',
      MapLot: '1-3-100',
      Reference2: { Description: 'Vision MBLU', UserDefinedValue: '1/3/100//' },
      StreetNumber: '23',
      StreetName: 'FARAWAY LN',
      LandCode: '1010',
      PropertyCode: { Description: 'Use code', UserDefinedValue: '1010' },
      LandValue: 161800,
      TotalBuildingValue: 359600,
      Taxable: 521900,
      TotalAcres: 1.56,
      Owners: [
        {
          OwnerName: 'LUNTER, M',
          Address1: '23 FARAWAY LN',
          City: 'WEST LEBANON',
          State: 'NH',
          ZipCode: '03784',
        },
      ],
    },
    {
      Account: '4-23-906',
      MapLot: '4-23-906',
      Reference2: { Description: 'Vision MBLU', UserDefinedValue: '4/23/906//' },
      StreetNumber: '20',
      StreetName: 'MORGAN DR',
      Apartment: '21',
      LandCode: '1020',
      PropertyCode: { Description: 'Use code', UserDefinedValue: '1020' },
      LandValue: 0,
      TotalBuildingValue: 435100,
      Taxable: 452700,
      TotalAcres: 0.000023,
      Owners: [
        { OwnerName: 'SMITH, A', Address1: 'PO BOX 1', City: 'LEBANON', State: 'NH', ZipCode: '03766' },
      ],
    },
  ];

  it('reads a Vision master export with no account column: the Account is its map-block-lot-unit', async () => {
    const { records, input } = await recordsOf(vision, [file('Parcel Master Export.csv', MASTER + ROWS)]);
    expect(values(records)).toEqual(expected);
    expect(records.map((r) => r.line)).toEqual([2, 3]);
    expect(input.headerLines).toEqual([]);
    expect(input.unusedColumns[0]).toEqual({ file: 'Parcel Master Export.csv', columns: [], count: 0 });
  });

  it('finds the header below a junk line and matches column names whatever their case, spaces or underscores', async () => {
    const junk = `${MASTER.split(',')
      .map((_, i) => `Unnamed: ${i}`)
      .join(',')}\n`;
    const saved = junk + MASTER.toLowerCase().replace(/_/g, ' ') + ROWS;
    const { records, input } = await recordsOf(vision, [file('saved.csv', saved)]);
    expect(values(records)).toEqual(expected);
    expect(records.map((r) => r.line)).toEqual([3, 4]);
    expect(input.headerLines).toEqual([{ file: 'saved.csv', line: 2 }]);
  });

  it('joins files on a key of several columns', async () => {
    const mapping = readMapping(
      {
        files: [
          { id: 'roll', name: 'roll.csv', key: [['MAP', 'LOT']] },
          { id: 'extra', name: 'extra.csv', key: [['Map', 'Lot']] },
        ],
        fields: {
          Account: { columns: ['MAP', 'LOT'], transform: 'mapLot' },
          StreetName: 'STREET',
          Zone: { column: 'ZONE', file: 'extra' },
        },
      },
      'several',
    );
    const { records } = await recordsOf(mapping, [
      file('roll.csv', 'MAP,LOT,STREET\n1,2,MAIN ST\n1,3,POND RD\n12,,ELM ST\n'),
      file('extra.csv', 'Map,Lot,ZONE\n1,3,R1\n1,2,R2\n1,23,R9\n'),
    ]);
    expect(values(records)).toEqual([
      { Account: '1-2', StreetName: 'MAIN ST', Zone: 'R2' },
      { Account: '1-3', StreetName: 'POND RD', Zone: 'R1' },
      { Account: '12', StreetName: 'ELM ST' },
    ]);
  });

  it('reads a DBF table as it reads a CSV, through a format', async () => {
    const fields: Array<[string, number]> = [
      ['REM_MBLU_MA', 7],
      ['REM_MBLU_BL', 7],
      ['REM_PRCL_LO', 30],
      ['PRC_TTL_ASS', 10],
    ];
    const mapping = readMapping(
      {
        fields: {
          Account: { columns: ['REM_MBLU_MA', 'REM_MBLU_BL'], transform: 'mapLot' },
          StreetNumber: { column: 'REM_PRCL_LO', transform: 'streetNumber' },
          StreetName: { column: 'REM_PRCL_LO', transform: 'streetName' },
          Taxable: 'PRC_TTL_ASS',
        },
      },
      'dbf',
    );
    const { records } = await recordsOf(mapping, [
      dbf('assess.dbf', fields, [
        { cells: ['      1', '      1', '17 FARAWAY LN', '461900'] },
        { cells: ['      9', '      9', 'GONE RD', '1'], deleted: true },
        { cells: ['      2', '     15', '434 N MAIN ST', '   2.3e-05'] },
      ]),
    ]);
    expect(values(records)).toEqual([
      { Account: '1-1', StreetNumber: '17', StreetName: 'FARAWAY LN', Taxable: 461900 },
      { Account: '2-15', StreetNumber: '434', StreetName: 'N MAIN ST', Taxable: 0.000023 },
    ]);
    expect(records.map((r) => r.line)).toEqual([2, 4]);
  });

  it('puts MassGIS OWN_CO in the owner’s country, not the address', async () => {
    const l3 = builtInFormat('massgis-l3');
    const columns = [...mappingColumns(l3)].map((c) => c.toUpperCase().replace(/ /g, '_'));
    const row = (cells: Record<string, string>) => columns.map((c) => cells[c] ?? '').join(',');
    const { records } = await recordsOf(l3, [
      file(
        'l3.csv',
        [
          columns.join(','),
          row({ PROP_ID: '1', OWNER1: 'A', OWN_ADDR: '1 MAIN ST', OWN_CO: 'USA' }),
          row({ PROP_ID: '2', OWNER1: 'B', OWN_ADDR: '2 RUE X', OWN_CO: 'CANADA' }),
        ].join('\n'),
      ),
    ]);
    expect(values(records).map((r) => r.Owners)).toEqual([
      [{ OwnerName: 'A', Address1: '1 MAIN ST', Country: 'USA' }],
      [{ OwnerName: 'B', Address1: '2 RUE X', Country: 'CANADA' }],
    ]);
  });
});

describe('a format that does not fit the file', () => {
  it('says so in one line, with what the file’s columns look like, needed columns apart from optional ones', async () => {
    const err = await mappingError(() =>
      openMappedSource(builtInFormat('vision'), [
        file(
          'cambridge.csv',
          'PID,ML,Location,LandArea,TotalAppraisedLandValue,TotalAppraisedImprovements,TotalAppraisedParcelValue,SaleDate,SalePrice\n1,8-61,4 CANAL PK,100,1,2,3,,\n',
        ),
      ]),
    );
    expect(err.problems[0]).toBe(
      'this file has none of the columns vision needs: its columns look like PID, ML, Location, LandArea, TotalAppraisedLandValue, TotalAppraisedImprovements, TotalAppraisedParcelValue, SaleDate, …',
    );
    expect(err.problems[1]).toBe(
      'columns it needs: REM_ACCT_NUM, REM_PID, REM_MBLU_MAP, REM_MBLU_BLOCK, REM_MBLU_LOT, REM_MBLU_UNIT, REM_PRCL_LOCN_NUM, REM_PRCL_LOCN, REM_PRCL_LOCN_STREET',
    );
    expect(err.problems[2]).toMatch(
      /^columns it reads when present: REM_PRCL_LOCN_APT, .*PRC_TTL_ASSESS_LND, .*REM_OWN_NAME/,
    );
    expect(err.problems[3]).toMatch(/docs\/examples/);
    expect(err.problems).toHaveLength(4);
  });
});

describe('what a mapping cannot do to the server', () => {
  it('refuses field names that are not the record’s own, prototype names included', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const json = JSON.parse(`{"fields":{"Account":"A","${name}":"B"}}`) as unknown;
      expect(() => readMapping(json, 'm.json')).toThrow(
        new MappingError('m.json', [
          `fields.${name}: not a field of the property record (see docs/import-format.md)`,
        ]),
      );
    }
    expect(() => builtInFormat('constructor')).toThrow(/no such format/);
  });

  it('refuses a pattern that could take exponential time, at once', () => {
    const started = performance.now();
    expect(() =>
      readMapping(
        {
          fields: {
            Account: 'A',
            Owners: { items: [{ when: { column: 'T', matches: '^(a+)+$' }, fields: { OwnerName: 'O' } }] },
          },
        },
        'm.json',
      ),
    ).toThrow(/a repeated group may not itself repeat/);
    // Refused by reading the pattern, never by running it (run, it takes seconds per 30 characters).
    expect(performance.now() - started).toBeLessThan(2000);
    // The patterns a condition needs still work.
    expect(() =>
      readMapping(
        {
          fields: {
            Account: 'A',
            Owners: {
              items: [{ when: { column: 'T', matches: '^(R|C)[0-9]+$' }, fields: { OwnerName: 'O' } }],
            },
          },
        },
        'm.json',
      ),
    ).not.toThrow();
  });

  it('matches file-name globs in linear time', () => {
    const started = performance.now();
    expect(globMatch('*a*a*a*a*a*a*a*b', 'a'.repeat(10_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(globMatch('parcels*.CSV', 'Parcels-2025.csv')).toBe(true);
    expect(globMatch('rem?.csv', 'rem12.csv')).toBe(false);
  });

  it('counts 100,000 unused columns instead of echoing them', async () => {
    const wide = `PID,${Array.from({ length: 100_000 }, (_, i) => `C${i}`).join(',')}\n1\n`;
    const input = await openMappedSource(readMapping({ fields: { Account: 'PID' } }, 'm'), [
      file('wide.csv', wide),
    ]);
    expect(input.unusedColumns[0]!.count).toBe(100_000);
    expect(input.unusedColumns[0]!.columns).toHaveLength(50);
  });
});

describe('mapping files', () => {
  it('say clearly what is wrong in a mapping', () => {
    const problems = (json: unknown) => {
      try {
        readMapping(json, 'm.json');
      } catch (err) {
        return (err as MappingError).problems;
      }
      return [];
    };
    expect(problems({ fields: { Acount: 'A' } })).toEqual([
      'fields.Acount: not a field of the property record (see docs/import-format.md)',
      'fields.Account: every mapping must say where the account comes from',
    ]);
    expect(problems({ fields: { Account: { column: 'A', transform: 'acre' } } })[0]).toMatch(
      /^fields\.Account\.transform: unknown transform "acre" \(known: text, number/,
    );
    expect(problems({ fields: { Account: 'A', TotalAcres: { column: 'L', transform: 'acres' } } })).toEqual([
      'fields.TotalAcres: acres needs "units" (acres or squareFeet) or "unitsColumn"',
    ]);
    expect(problems({ fields: { Account: 'A', Owners: 'OWNER' } })).toEqual([
      'fields.Owners: a list; write { "items": [ { "fields": { … } } ] }',
    ]);
  });

  it('the complete example in docs/import-format.md is a valid mapping', () => {
    const doc = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../../../../../docs/import-format.md'),
      'utf8',
    );
    const example = /A complete example[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const mapping = readMapping(JSON.parse(example!), 'docs example');
    expect(Object.keys(mapping.fields)).toContain('Owners');
  });

  it('lists the built-in formats, each a valid mapping', () => {
    expect(listFormats().map((f) => f.name)).toEqual(['massgis-l3', 'maine-geolibrary', 'vision']);
    for (const f of listFormats()) expect(builtInFormat(f.name).fields.Account).toBeDefined();
  });
});

describe('dry run', () => {
  it('reports record count, fill rates and problems by line without writing', async () => {
    const mapping = readMapping(
      { key: 'PID', fields: { Account: 'PID', StreetName: 'Street', LandValue: 'Land', MapLot: 'ML' } },
      'dry',
    );
    const input = await openMappedSource(mapping, [
      file('dry.csv', 'PID,Street,Land,ML\n1,MAIN ST,100,\n2,,lots,\n3,POND RD,5,\n3,,,\n'),
    ]);
    const report = await dryRun(input.source, { mappedFields: Object.keys(mapping.fields) });
    expect(report.records).toBe(3);
    expect(report.problems).toEqual(['line 3: LandValue (column "Land"): expected a number, got "lots"']);
    // Every record counts, the one with a problem included.
    expect(report.fill).toEqual([
      { field: 'Account', filled: 3, of: 3 },
      { field: 'StreetName', filled: 2, of: 3 },
      { field: 'MapLot', filled: 0, of: 3 },
      { field: 'LandValue', filled: 2, of: 3 },
    ]);
  });
});

describe('errors, warnings and what a mapping changes', () => {
  const mapping = readMapping(
    {
      key: 'PID',
      codeTables: { use: { values: { '101': 'Single family' } } },
      fields: {
        Account: 'PID',
        StreetName: 'Street',
        LandValue: { column: 'Land', invalid: 'empty' },
        TotalAcres: { column: 'Area', transform: 'acres', units: 'squareFeet' },
        LandCode: { column: 'Use', lookup: 'use' },
        Zone: { column: 'ZONE', optional: true },
        Sales: {
          items: [
            {
              fields: {
                SaleDate: { column: 'Date', transform: 'date', empty: ['1/1/1901'] },
                SalePrice: 'Price',
              },
            },
          ],
        },
      },
    },
    'notes',
  );
  const CSV =
    'PID,Street,Land,Area,Use,Date,Price\n' +
    '1,MAIN ST,100,43560,101,07/23/0987,1000\n' +
    '2,POND RD,N/A,21780,999,,5000\n' +
    '3,ELM ST,7,,101,1/1/1901,0\n';

  it('reads a doubtful value as given and warns of it; a placeholder is empty; nothing blocks', async () => {
    const input = await openMappedSource(mapping, [file('notes.csv', CSV)]);
    const { records } = await recordsOf(mapping, [file('notes2.csv', CSV)]);
    expect(values(records).map((r) => r.Sales)).toEqual([
      [{ SaleDate: '0987-07-23', SalePrice: 1000 }],
      [{ SalePrice: 5000 }],
      [{ SalePrice: 0 }],
    ]);
    const report = await dryRun(input.source, { mappedFields: Object.keys(mapping.fields) });
    expect(report.problems).toEqual([]);
    expect(report.warningCount).toBe(2);
    expect(report.warnings).toEqual([
      'line 2: Sales[0].SaleDate (column "Date"): the year 0987 is unlikely; published as given',
      'line 3: Sales[0].SalePrice (column "Price"): a sale price (5000) with no sale date; published as given',
    ]);
  });

  it('counts per field the values a mapping left empty or converted, with the first lines', async () => {
    const input = await openMappedSource(mapping, [file('notes3.csv', CSV)]);
    const report = await dryRun(input.source, { mappedFields: Object.keys(mapping.fields) });
    expect(report.adjusted).toEqual([
      {
        field: 'TotalAcres',
        kind: 'unit',
        count: 2,
        examples: ['line 2: "43560" square feet → 1 acres', 'line 3: "21780" square feet → 0.5 acres'],
      },
      { field: 'LandValue', kind: 'invalid', count: 1, examples: ['line 3: expected a number, got "N/A"'] },
      {
        field: 'LandCode',
        kind: 'code',
        count: 1,
        examples: ['line 3: "999" is not in the code table "use"'],
      },
    ]);
    expect(input.absentColumns).toEqual(['ZONE (Zone)']);
  });

  it('refuses a file whose owners, values, area or address are empty on every record, unless the mapping says so', async () => {
    const empty = 'PID,Street,Land,Area,Use,Date,Price\n1,MAIN ST,,,101,,\n2,POND RD,,,101,,\n';
    const input = await openMappedSource(mapping, [file('empty.csv', empty)]);
    const report = await dryRun(input.source, { mappedFields: Object.keys(mapping.fields) });
    expect(report.problems).toEqual([
      `every record's land value (LandValue) came out empty: the file's column for it is missing or empty, so nothing was published. If the town's file has none on purpose, say so in a mapping: "absent": ["LandValue"]`,
      `every record's area (TotalAcres) came out empty: the file's column for it is missing or empty, so nothing was published. If the town's file has none on purpose, say so in a mapping: "absent": ["TotalAcres"]`,
    ]);
    const onPurpose = readMapping({ ...mapping, absent: ['LandValue', 'TotalAcres'] }, 'absent');
    const again = await openMappedSource(onPurpose, [file('empty2.csv', empty)]);
    expect(
      (await dryRun(again.source, { mappedFields: Object.keys(onPurpose.fields), absent: onPurpose.absent }))
        .problems,
    ).toEqual([]);
  });
});
