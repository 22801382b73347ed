import type { PropertyRecordInput } from '@opp/contracts';

/*
 * A ten-parcel town whose every search, filter and sort can be checked by hand. The comments give the
 * derived values the search reads (last sale, Building + Land, bathrooms with halves as 0.5).
 *
 *  acct map/lot    first owner        address           B+L     acres  last sale           land types               residential (style area bd ba)  comm
 *  1    R01-002-A  SMITH, JOHN (+MARY) 12 Elm St         150000  1.5    2021-06-15 250000   Residential              Colonial 2000 3 2.5             -
 *  2    R01-010    O'BRIEN, PATRICK   9 Main St          120000  0.5    2018-03-01 150000   Residential, Waterfront  Cape 1500 2 1                   -
 *  3    R02-001    JOSÉ ÁLVAREZ       10 Main St #2B     400000  0.25   2020-01-10 500000   Commercial               -                               yes
 *  4    R010-005   SMITHSON, ALICE    100 Oak Ave        20000   10     -                   Woodland                 -                               -
 *  5    2-10       BROWN TRUST        14 Elm St          200000  1.5    2021-06-15 250000   Residential              Ranch 1800 3 1.5                -
 *  6    10-1       ADAMS, ZOE         -                  -       -      -                   -                        -                               -
 *  7    -          (no owner)         2 Main St          75000   0.5    2015-07-04 0        Residential              Cape 900 1 1                    -
 *  8    R01-002-B  SMITH, JOHN        12 Main St         260000  1.5    2022-02-02 400000   Residential, Commercial  Colonial 2400 4 3               yes
 *  9    R03-100    ÉMILE DUPONT       9 Main St #A       120000  2      2017-09-09 175000   Residential              Colonial 1600 2 1.5             -
 *  10   R03-020    ZIMMER, KARL       9 Main St #B       120000  0.5    2017-09-09 175000   Residential              Ranch 1600 2 2                  -
 */

const owner = (OwnerName: string) => ({ OwnerName, Address1: '1 Post Rd', City: 'Testville', State: 'ME' });
const sale = (SaleDate: string, SalePrice: number) => ({ SaleDate, SalePrice, Book: '', Page: '' });
const land = (...types: string[]) => types.map((LandDescription) => ({ LandDescription, Amount: 1 }));
const house = (
  BuildingType: string,
  Area: number,
  Bedrooms: number,
  FullBaths: number,
  HalfBaths: number,
) => ({
  BuildingType,
  Area,
  Bedrooms,
  FullBaths,
  HalfBaths,
});
const shop = { OccupancyCode: 'Retail', Value: 1000 };

export const TEST_TOWN: PropertyRecordInput[] = [
  {
    Account: '1',
    MapLot: 'R01-002-A',
    Book: '1234',
    Page: '56',
    Owners: [owner('SMITH, JOHN'), owner('SMITH, MARY')],
    StreetNumber: '12',
    StreetName: 'Elm St',
    TotalBuildingValue: 100000,
    LandValue: 50000,
    TotalAcres: 1.5,
    Sales: [sale('2019-05-01', 200000), sale('2021-06-15', 250000)],
    Land: land('Residential'),
    Buildings: [house('Colonial', 2000, 3, 2, 1)],
    Images: ['/api/files/image/p1.jpg'],
  },
  {
    Account: '2',
    MapLot: 'R01-010',
    Owners: [owner("O'BRIEN, PATRICK")],
    StreetNumber: '9',
    StreetName: 'Main St',
    TotalBuildingValue: 80000,
    LandValue: 40000,
    TotalAcres: 0.5,
    Sales: [sale('2018-03-01', 150000)],
    Land: land('Residential', 'Waterfront'),
    Buildings: [house('Cape', 1500, 2, 1, 0)],
  },
  {
    Account: '3',
    MapLot: 'R02-001',
    Owners: [owner('JOSÉ ÁLVAREZ')],
    StreetNumber: '10',
    Apartment: '2B',
    StreetName: 'Main St',
    TotalBuildingValue: 300000,
    LandValue: 100000,
    TotalAcres: 0.25,
    Sales: [sale('2020-01-10', 500000)],
    Land: land('Commercial'),
    CommercialBuildings: [shop],
  },
  {
    Account: '4',
    MapLot: 'R010-005',
    Owners: [owner('SMITHSON, ALICE')],
    StreetNumber: '100',
    StreetName: 'Oak Ave',
    LandValue: 20000,
    TotalAcres: 10,
    Land: land('Woodland'),
  },
  {
    Account: '5',
    MapLot: '2-10',
    Owners: [owner('BROWN TRUST')],
    StreetNumber: '14',
    StreetName: 'Elm St',
    TotalBuildingValue: 150000,
    LandValue: 50000,
    TotalAcres: 1.5,
    Sales: [sale('2021-06-15', 250000)],
    Land: land('Residential'),
    Buildings: [house('Ranch', 1800, 3, 1, 1)],
  },
  { Account: '6', MapLot: '10-1', Owners: [owner('ADAMS, ZOE')] },
  {
    Account: '7',
    StreetNumber: '2',
    StreetName: 'Main St',
    TotalBuildingValue: 50000,
    LandValue: 25000,
    TotalAcres: 0.5,
    Sales: [sale('2015-07-04', 0)],
    Land: land('Residential'),
    Buildings: [house('Cape', 900, 1, 1, 0)],
  },
  {
    Account: '8',
    MapLot: 'R01-002-B',
    Owners: [owner('SMITH, JOHN')],
    StreetNumber: '12',
    StreetName: 'Main St',
    TotalBuildingValue: 200000,
    LandValue: 60000,
    TotalAcres: 1.5,
    Sales: [sale('2022-02-02', 400000)],
    Land: land('Residential', 'Commercial'),
    Buildings: [house('Colonial', 2400, 4, 3, 0)],
    CommercialBuildings: [shop],
  },
  {
    Account: '9',
    MapLot: 'R03-100',
    Owners: [owner('ÉMILE DUPONT')],
    StreetNumber: '9',
    Apartment: 'A',
    StreetName: 'Main St',
    TotalBuildingValue: 90000,
    LandValue: 30000,
    TotalAcres: 2,
    Sales: [sale('2017-09-09', 175000)],
    Land: land('Residential'),
    Buildings: [house('Colonial', 1600, 2, 1, 1)],
  },
  {
    Account: '10',
    MapLot: 'R03-020',
    Owners: [owner('ZIMMER, KARL')],
    StreetNumber: '9',
    Apartment: 'B',
    StreetName: 'Main St',
    TotalBuildingValue: 90000,
    LandValue: 30000,
    TotalAcres: 0.5,
    Sales: [sale('2017-09-09', 175000)],
    Land: land('Residential'),
    Buildings: [house('Ranch', 1600, 2, 2, 0)],
  },
];

/** Every account of the town, in account order. */
export const ALL_ACCOUNTS = TEST_TOWN.map((r) => String(r.Account));
