import type { PropertyRecordInput } from '@opp/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/database.ts';
import { clients } from '../../apps/server/src/db/schema.ts';
import { buildClient, createContacts, createStoredImage, publishRoll } from './seed.ts';

/*
 * Hand-written, deterministic data for the public browser tests:
 * - Harrison, Maine: 120 parcels (3 pages of 50), contacts, a payment link; no banner (so the heading
 *   reads "Harrison, Maine"). Parcel 1000 is the showcase: two photos, a GIS link, exemptions, two sales,
 *   land lines, a residence, a commercial building, additions, user-defined values and tax outstanding.
 * - Bridgton, Maine: a banner image, no payment link, and two parcels: account 1 with no data in any
 *   section, and account 1000 (tax outstanding).
 * - Lyme, New Hampshire: one parcel (a second region on the home page).
 */

export const HARRISON = { state: 'Maine', city: 'Harrison', parcels: 120 } as const;
export const BRIDGTON = { state: 'Maine', city: 'Bridgton' } as const;
export const LYME = { state: 'New Hampshire', city: 'Lyme' } as const;
export const PAYMENT_LINK = 'pay.harrison.example/tax?acct=';

const LAST = [
  'ADAMS',
  'BAKER',
  'CLARK',
  'DAVIS',
  'EVANS',
  'FOSTER',
  'GRANT',
  'HAYES',
  'IRWIN',
  'JONES',
  'KELLY',
  'LEWIS',
  'MOORE',
  'NOLAN',
  'OWENS',
  'PRICE',
  'QUINN',
  'REED',
  'SMITH',
  'TURNER',
];
const FIRST = [
  'ALICE',
  'BRUCE',
  'CAROL',
  'DAVID',
  'EMMA',
  'FRANK',
  'GRACE',
  'HENRY',
  'IRIS',
  'JACK',
  'KATE',
  'LIAM',
  'MAYA',
];
const STREETS = ['MAIN ST', 'ELM ST', 'LAKE RD', 'HARRISON RD', 'NAPLES RD', 'BOLSTERS MILLS RD'];
const LAND_TYPES = ['House Lot', 'Waterfront', 'Rear Land'];
const STYLES = ['Cape', 'Ranch', 'Colonial', 'Contemporary'];

/** Parcel i (0-based) of Harrison. Every value is a pure function of i. */
export function harrisonParcel(i: number, images: string[] = []): PropertyRecordInput {
  const account = String(1000 + i);
  const owners = [
    {
      OwnerName: `${LAST[i % LAST.length]}, ${FIRST[i % FIRST.length]}`,
      Address1: `PO BOX ${100 + i}`,
      City: 'HARRISON',
      State: 'ME',
      ZipCode: '04040',
    },
  ];
  if (i % 3 === 0)
    owners.push({
      OwnerName: `${LAST[(i + 7) % LAST.length]}, ${FIRST[(i + 5) % FIRST.length]}`,
      Address1: `${i} SECOND AVE`,
      City: 'PORTLAND',
      State: 'ME',
      ZipCode: '04101',
    });
  if (i === 0)
    owners.push({ OwnerName: 'THIRD OWNER TRUST', Address1: '', City: '', State: '', ZipCode: '' });
  const showcase = i === 0;
  return {
    Account: account,
    StreetNumber: String(10 + i * 2),
    Apartment: i % 25 === 5 ? 'B' : '',
    StreetName: STREETS[i % STREETS.length],
    GISLink: showcase ? 'maps.harrison.example/parcel/1000' : '',
    MapLot: `${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + Math.floor(i / 12)).padStart(3, '0')}`,
    Book: String(3000 + i),
    Page: String(10 + (i % 90)),
    DateUpdated: '2025-03-14',
    LandValue: 20_000 + i * 500,
    TotalBuildingValue: i % 5 === 4 ? null : 100_000 + i * 1_000,
    TotalExemption: showcase ? 31_000 : 0,
    Taxable: 120_000 + i * 1_500,
    TotalAcres: 0.25 + (i % 10) * 0.5,
    TotalTaxOutstanding: showcase ? 1234.56 : i === 1 ? 50 : 0,
    LandCode: '10',
    BuildingCode: i % 10 === 0 ? '20' : '11',
    Neighborhood: 'Village',
    Zone: 'R1',
    StreetType: 'Paved',
    TopographyDescription1: 'Level',
    UtilitiesDescription1: 'Public Water',
    Images: images,
    Owners: owners,
    Exemptions: showcase
      ? [
          { ExemptionID: 'HS', Description: 'Homestead', Value: 25_000 },
          { ExemptionID: 'VET', Description: 'Veteran', Value: 6_000 },
        ]
      : [],
    Sales: [
      {
        SaleDate: `20${String(10 + (i % 14)).padStart(2, '0')}-0${1 + (i % 9)}-15`,
        SalePrice: i % 4 === 3 ? 0 : 150_000 + i * 1_000,
        Book: String(2000 + i),
        Page: '1',
        SaleParty: `${LAST[(i + 3) % LAST.length]}, ${FIRST[(i + 2) % FIRST.length]}`,
        SaleType: 'Arms Length',
      },
      ...(showcase
        ? [
            {
              SaleDate: '2001-06-30',
              SalePrice: 89_500.5,
              Book: '1500',
              Page: '22',
              SaleParty: 'OLD OWNER',
              SaleType: 'Estate',
            },
          ]
        : []),
    ],
    Land: [
      {
        LandCode: '10',
        LandDescription: LAND_TYPES[i % LAND_TYPES.length],
        UnitType: 'Acres',
        InfluenceDescription: 'None',
        InfluencePercentage: 100,
        Amount: 20_000 + i * 500,
      },
    ],
    Buildings:
      i % 7 === 6
        ? []
        : [
            {
              BuildingType: STYLES[i % STYLES.length],
              Area: 1_200 + i * 10,
              Bedrooms: 2 + (i % 3),
              FullBaths: 1 + (i % 2),
              HalfBaths: i % 2,
              Rooms: 5 + (i % 4),
              YearBuilt: 1900 + i,
              Condition: 'Average',
              HeatType: 'Hot Water',
              Foundation: 'Concrete',
              BuildingValue: 100_000 + i * 1_000,
            },
          ],
    CommercialBuildings:
      i % 10 === 0
        ? [
            {
              OccupancyCode: 'Retail',
              Class: 'C',
              Quality: 'Average',
              Stories: 1,
              BaseFloorArea: 2_400,
              YearBuilt: 1985,
              Value: 55_000,
            },
          ]
        : [],
    BuildingAdditions: showcase
      ? [
          {
            AdditionType: 'Open Porch',
            YearBuilt: 1990,
            Units: 120,
            Grade: 'C',
            Condition: 'Good',
            PhysicalPercent: 85,
            AdditionValue: 3_200,
          },
        ]
      : [],
    Taxes: [
      {
        TaxYear: 2024,
        Rate: 0.01875,
        LandValue: 20_000 + i * 500,
        BuildingValue: 100_000 + i * 1_000,
        ExemptionValue: showcase ? 31_000 : 0,
        TaxableValue: 120_000 + i * 1_500,
        OriginalTaxAmount: 2250.5 + i,
        OutstandingTaxBalance: showcase ? 1234.56 : 0,
        EffectiveDate: '2024-07-01',
      },
      ...(showcase
        ? [
            {
              TaxYear: 2023,
              Rate: 0.0162,
              LandValue: 19_000,
              BuildingValue: 98_000,
              ExemptionValue: 31_000,
              TaxableValue: 86_000,
              OriginalTaxAmount: 1393.2,
              OutstandingTaxBalance: 0,
              EffectiveDate: '2023-07-01',
            },
          ]
        : []),
    ],
    ValueHistory: showcase
      ? [
          { Year: 2022, LandValue: 18_500, BuildingValue: 95_000, TotalValue: 113_500 },
          { Year: 2023, LandValue: 19_000, BuildingValue: 98_000, TotalValue: 117_000 },
        ]
      : [],
    TreeGrowthYear: showcase ? { Description: 'Tree Growth Year', UserDefinedValue: '2015' } : null,
    Reference1: showcase ? { Description: 'Deed Reference', UserDefinedValue: 'B3000 P10' } : null,
  };
}

/** Seeds all three towns; returns the Harrison client id. */
export async function seedPublicTowns(db: Db): Promise<{ harrisonId: number; bridgtonId: number }> {
  const harrison = await buildClient(db, {
    city: HARRISON.city,
    stateProvince: HARRISON.state,
    description: 'Town of Harrison',
    allowPaymentLink: true,
    paymentLink: PAYMENT_LINK,
  });
  const photos = [
    await createStoredImage(db, { name: 'harrison-1000-a.png', clientId: harrison.id, color: '#4f7942' }),
    await createStoredImage(db, { name: 'harrison-1000-b.png', clientId: harrison.id, color: '#8b5a2b' }),
  ];
  const records = Array.from({ length: HARRISON.parcels }, (_, i) =>
    harrisonParcel(i, i === 0 ? photos : []),
  );
  await publishRoll(db, harrison.id, records);
  await createContacts(db, harrison.id, [
    {
      Title: 'Assessing Office',
      ContactUrl: 'www.harrison.example/assessing',
      HoursOfOperation: 'Mon-Thu 8:00-4:00',
      Telephone: '(207) 555-0101',
      ContactEmail: 'assessor@harrison.example',
      FreeFormMessage: 'Appointments are recommended.',
    },
    { Title: 'Tax Collector', Telephone: '(207) 555-0102' },
  ]);

  const bridgton = await buildClient(db, {
    city: BRIDGTON.city,
    stateProvince: BRIDGTON.state,
    description: 'Town of Bridgton',
    allowPaymentLink: false,
  });
  const banner = await createStoredImage(db, {
    name: 'bridgton-banner.png',
    clientId: bridgton.id,
    kind: 'banner',
    color: '#1a4480',
    width: 1200,
    height: 200,
  });
  await db
    .update(clients)
    .set({ bannerImage: banner.split('/').pop()! })
    .where(eq(clients.id, bridgton.id));
  await publishRoll(db, bridgton.id, [
    {
      Account: '1',
      StreetNumber: '1',
      StreetName: 'MAIN ST',
      MapLot: 'A-1',
      Owners: [{ OwnerName: 'EMPTY, RECORD' }],
    },
    // Tax outstanding, but Bridgton allows no payment link: no Pay Now.
    harrisonParcel(0),
  ]);

  const lyme = await buildClient(db, {
    city: LYME.city,
    stateProvince: LYME.state,
    description: 'Town of Lyme',
  });
  await publishRoll(db, lyme.id, [harrisonParcel(7)]);
  return { harrisonId: harrison.id, bridgtonId: bridgton.id };
}
