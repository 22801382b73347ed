import { describe, expect, it } from 'vitest';
import {
  noticeLabels,
  noticeRule,
  noticeTitle,
  recordsWithoutOwnerName,
  type NoticeList,
} from './abutters-notice.ts';

const owner = (OwnerName: string, Address1: string) => ({
  OwnerName,
  Address1,
  City: 'Testville',
  State: 'ME',
  ZipCode: '04330',
});

const LIST: NoticeList = {
  Subject: { Account: '1', MapLot: '12-34', Location: '10 MAIN ST' },
  DistanceFeet: 1000,
  MapDate: '2026-03-01',
  Town: { City: 'Harrison', State: 'ME' },
  Abutters: [
    {
      Account: '2',
      MapLot: 'A-1',
      Location: '1 ELM ST',
      Owners: [
        owner('SMITH JOHN', '9 Far Rd'),
        owner('Smith  John', '9 far rd'),
        owner('SMITH MARY', '9 FAR RD'),
        owner('SMITH JR', '2 Near Rd'),
      ],
    },
    {
      Account: '3',
      MapLot: 'A-2',
      Location: '2 ELM ST',
      Owners: [owner('SMITH JOHN', '9 Far Rd'), owner('SMITH MARY', '9 Far Rd')],
    },
    { Account: '4', MapLot: 'A-3', Location: '3 ELM ST', Owners: [] },
    { Account: '5', MapLot: '', Location: '', Owners: [{ OwnerName: 'NO ADDRESS' }] },
    {
      Account: '6',
      MapLot: 'A-5',
      Location: '5 ELM ST',
      Owners: [owner('HIDDEN', '1 Secret Ln')],
      SuppressOwner: true,
    },
  ],
};

const lines = (r: ReturnType<typeof noticeLabels>) =>
  r.labels.map((l) => `${l.kind}: ${l.lines.join(' / ')} [${l.parcels.join(', ')}]`);

describe('an abutters notice', () => {
  it('names the subject, the distance and the rule', () => {
    expect(noticeTitle(LIST)).toBe('Abutters within 1,000 ft of 10 MAIN ST (Map/Lot 12-34)');
    expect(noticeRule(LIST)).toBe(
      "Measured from this parcel's boundary, using the town's parcel map of 03/01/2026; the map is a reference, not a survey.",
    );
    expect(recordsWithoutOwnerName(LIST)).toBe(1);
  });

  it('gives one label per household, naming each owner once; per owner on request', () => {
    const household = noticeLabels(LIST, { perOwner: false, dedupe: false, occupants: false });
    expect(lines(household)).toEqual([
      'owner: SMITH JOHN / SMITH MARY / 9 Far Rd / Testville, ME 04330 [A-1]',
      'owner: SMITH JR / 2 Near Rd / Testville, ME 04330 [A-1]',
      'owner: SMITH JOHN / SMITH MARY / 9 Far Rd / Testville, ME 04330 [A-2]',
    ]);
    expect(household).toMatchObject({ owners: 3, occupants: 0, withoutAddress: 3, withoutLocation: 1 });
    expect(noticeLabels(LIST, { perOwner: true, dedupe: false, occupants: false }).owners).toBe(6);
  });

  it('merges the same household across parcels, and addresses Current Occupant where there is no address', () => {
    const merged = noticeLabels(LIST, { perOwner: false, dedupe: true, occupants: true });
    expect(lines(merged)).toEqual([
      'owner: SMITH JOHN / SMITH MARY / 9 Far Rd / Testville, ME 04330 [A-1, A-2]',
      'owner: SMITH JR / 2 Near Rd / Testville, ME 04330 [A-1]',
      'occupant: Current Occupant / 3 ELM ST / Harrison, ME [A-3]',
      'occupant: Current Occupant / 5 ELM ST / Harrison, ME [A-5]',
    ]);
    expect(merged).toMatchObject({ owners: 2, occupants: 2, withoutAddress: 3, withoutLocation: 1 });
  });
});
