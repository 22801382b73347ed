import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AbuttersResponse } from '@opp/contracts';
import { describe, expect, it } from 'vitest';
import { abuttersFileName, abuttersLabelsPdf } from './abutters-export.ts';

/*
 * The labels PDF on its own (no database): one owner of thousands of parcels, merged into one label
 * (issue 46: trimming that label's "Parcels …" line measured the whole line once for each character cut,
 * and 400 parcels took 99 s).
 */

const OWNER = {
  OwnerName: 'BIG LANDHOLDING TRUST',
  Address1: '1 HARBOR PL',
  Address2: '',
  Address3: '',
  City: 'BOSTON',
  State: 'MA',
  ZipCode: '02110',
  Country: '',
};

function listOf(count: number): AbuttersResponse {
  return {
    Subject: { Account: '1', MapLot: '100-1', Location: '1 MAIN ST' },
    DistanceFeet: 2640,
    MapDate: '2026-03-01',
    Town: { City: 'Cambridge', State: 'MA' },
    Abutters: Array.from({ length: count }, (_, i) => ({
      Account: String(i + 2),
      MapLot: `${200 + Math.floor(i / 100)}-${i % 100}`,
      Location: `${i + 2} MAIN ST`,
      DistanceFeet: i,
      Owners: [OWNER],
    })),
  };
}

function pdfText(bytes: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-labels-'));
  try {
    fs.writeFileSync(path.join(dir, 'l.pdf'), bytes);
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'l.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('mailing labels', () => {
  it("merge one owner's 20,000 parcels into one label whose parcels line says how many more", async () => {
    // 20,000 map/lots make a "Parcels …" line of about 150,000 characters.
    const pdf = await abuttersLabelsPdf(listOf(20_000), { dedupe: true, perOwner: false, occupants: false });
    const text = pdfText(pdf);
    const pages = text.split('\f').filter((p) => p.trim());
    expect(pages).toHaveLength(1);
    expect(text.match(/BIG LANDHOLDING TRUST/g)).toHaveLength(1);
    const parcels = /Parcels (200-0, 200-1, [^\n]*?) and ([\d,]+) more/.exec(text);
    expect(parcels, text).not.toBeNull();
    const shown = parcels![1]!.split(', ').length;
    expect(shown).toBeGreaterThan(2);
    expect(shown + Number(parcels![2]!.replace(/,/g, ''))).toBe(20_000);
    // One label's worth of text, not the whole line drawn outside it.
    expect(pdf.byteLength).toBeLessThan(20_000);
    expect(text.replace(/\s+/g, ' ')).toContain(
      'Abutters within 2,640 ft of 1 MAIN ST (Map/Lot 100-1): 1 owner label. Page 1 of 1.',
    );
  });

  it('name files by distance and subject, in letters a download can carry', () => {
    expect(abuttersFileName(listOf(0), 'csv')).toBe('abutters-2640ft-1-MAIN-ST-map-lot-100-1.csv');
    const odd = { ...listOf(0), Subject: { Account: 'R-7', MapLot: '', Location: 'Ü "x"/y' } };
    expect(abuttersFileName(odd, 'pdf')).toBe('abutters-2640ft-x-y.pdf');
    const bare = { ...listOf(0), Subject: { Account: 'R 7', MapLot: '', Location: '' } };
    expect(abuttersFileName(bare, 'pdf')).toBe('abutters-2640ft-account-R-7.pdf');
  });
});
