import {
  COMPARABLE_AGE_SPAN_YEARS,
  COMPARABLE_SCORE_WEIGHTS,
  MAX_COMPARABLES,
  type Comparable,
  type ComparablesQuery,
  type ComparablesResponse,
  type Sale,
} from '@opp/contracts';
import type { Executor } from '../../db/database.ts';
import { publicRecord, type PublicRecordOwners } from '../properties/owner-privacy.ts';
import { recordAt, recordCount, type ParcelIndex } from '../parcels/parcel-index.ts';
import type { ParcelsService } from '../parcels/parcels.service.ts';
import { comparablesRepository } from './comparables.repository.ts';
import { lonLatCentroid, planarCentroid } from '../parcels/centroids.ts';
import { hasSaleSince, saleFactsOf } from './sale-facts.ts';
import { dateOf, dayOf, notArmsLength, propertyClassOf, yearsBefore } from './sale-rules.ts';

/*
 * Comparable sales (issue 49): the sales, within a period, of other parcels of the subject's class whose
 * centroids lie within a distance of its centroid and whose living area is near its own; arm's-length
 * sales only unless asked, ranked by a similarity score (docs/comparable-sales.md).
 *
 * Fast on a county: the parcel index's tree gives the shapes whose boxes meet the square around the
 * subject's centroid (a centroid lies inside its shape's box), the centroids' distance and the sale
 * facts (sale-facts.ts: latest sale day, living area) sift them without reading anything, and only the
 * records left, a few dozen, are read in full (their sales, use code and owners).
 */

const FEET_PER_MILE = 5280;

type FullRecord = PublicRecordOwners & {
  Account: string;
  LandCode?: string;
  PropertyCode?: { UserDefinedValue?: string } | null;
};

interface Candidate {
  k: number;
  shape: number;
  feet: number;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The similarity score, 0 (unlike) to 100 (the same parcel, sold on the period's last day). */
export function similarityScore(p: {
  /** Distance as a share of the distance sought. */
  distance: number;
  /** Living-area difference as a share of the subject's (null: either has none). */
  size: number | null;
  /** Difference in year built, in years (null: either has none). */
  ageYears: number | null;
  /** How far back in the period the sale is, as a share of the period. */
  recency: number;
}): number {
  const w = COMPARABLE_SCORE_WEIGHTS;
  // An unknown difference counts as half unlike.
  const size = p.size === null ? 0.5 : Math.min(1, p.size);
  const age = p.ageYears === null ? 0.5 : Math.min(1, p.ageYears / COMPARABLE_AGE_SPAN_YEARS);
  const unlike =
    w.distance * Math.min(1, p.distance) + w.size * size + w.age * age + w.recency * Math.min(1, p.recency);
  return round(100 * (1 - unlike), 1);
}

/** Best first; then the latest sale, then by account (a stable order for equal scores). */
export const byScore = (a: Comparable, b: Comparable) =>
  b.Score - a.Score ||
  (a.SaleDate < b.SaleDate ? 1 : a.SaleDate > b.SaleDate ? -1 : 0) ||
  (a.Account < b.Account ? -1 : a.Account > b.Account ? 1 : 0);

/** The records of shapes whose centroid lies within `feet` of shape `subject`'s, but record `own`. */
function candidatesNear(index: ParcelIndex, subject: number, own: number, feet: number): Candidate[] {
  const [cx, cy] = planarCentroid(index, subject);
  const out: Candidate[] = [];
  for (const s of index.planarTree!.search(cx - feet, cy - feet, cx + feet, cy + feet)) {
    if (recordCount(index, s) === 0) continue;
    const [x, y] = planarCentroid(index, s);
    const d = Math.hypot(x - cx, y - cy);
    if (d > feet) continue;
    for (let k = index.recordStart[s]!; k < index.recordStart[s + 1]!; k++)
      if (k !== own) out.push({ k, shape: s, feet: d });
  }
  return out;
}

export function createComparablesService(parcels: ParcelsService) {
  return {
    /** `GET /api/comparables/{clientId}/{account}`. */
    async comparables(
      db: Executor,
      clientId: number,
      account: string,
      q: ComparablesQuery,
    ): Promise<ComparablesResponse> {
      const { index, town, record: own } = await parcels.recordOnLayer(db, clientId, account);
      const [facts, subjectFacts] = await Promise.all([
        saleFactsOf(db, index),
        comparablesRepository.facts(db, index.rollId, account),
      ]);
      const subjectShape = index.recordShape[own]!;
      const subjectArea = subjectFacts?.livingArea ?? null;
      const subjectYear = subjectFacts?.yearBuilt ?? null;
      const compareArea = q.size !== 'any' && subjectArea !== null && subjectArea > 0;
      const share = compareArea ? Number(q.size) / 100 : 0;
      const minArea = compareArea ? round(subjectArea * (1 - share), 2) : null;
      const maxArea = compareArea ? round(subjectArea * (1 + share), 2) : null;

      // The period ends at the roll's latest sale (a current roll: about today; never in the future).
      const today = Math.floor(Date.now() / 86_400_000);
      const toDay = facts.lastSaleDay === null ? null : Math.min(facts.lastSaleDay, today);
      const fromDay = toDay === null ? null : yearsBefore(toDay, q.years);

      const feet = q.distance * FEET_PER_MILE;
      const candidates =
        fromDay === null
          ? []
          : candidatesNear(index, subjectShape, own, feet).filter(({ k }) => {
              if (!hasSaleSince(facts, k, fromDay)) return false;
              if (!compareArea) return true;
              const area = facts.livingArea[k]!;
              return area >= minArea! && area <= maxArea!;
            });

      const accounts = candidates.map((c) => recordAt(index, c.k).account);
      // Records the importer checked: the contract's record, decoded.
      const records = (await parcels.fullRecords(db, index.rollId, [account, ...accounts])) as unknown as Map<
        string,
        FullRecord
      >;
      const subjectRecord = records.get(account);
      const subjectClass = subjectRecord ? propertyClassOf(subjectRecord) : null;

      const found: { comparable: Comparable; shape: number }[] = [];
      const notArms = { Qualification: 0, NominalPrice: 0 };
      candidates.forEach((c, i) => {
        const full = records.get(accounts[i]!);
        if (!full || (subjectClass !== null && propertyClassOf(full) !== subjectClass)) return;
        const shown = publicRecord(town.owners, full);
        const named = recordAt(index, c.k);
        const area = Number.isNaN(facts.livingArea[c.k]) ? null : facts.livingArea[c.k]!;
        const year = facts.yearBuilt[c.k]! || null;
        (shown.Sales as Sale[]).forEach((sale) => {
          if (!sale.SaleDate) return;
          const day = dayOf(sale.SaleDate);
          if (day < fromDay! || day > toDay!) return;
          const reason = notArmsLength({ SalePrice: sale.SalePrice ?? null, SaleType: sale.SaleType ?? '' });
          if (reason) notArms[reason]++;
          if (reason && !q.allSales) return;
          const price = sale.SalePrice ?? 0;
          const comparable: Comparable = {
            Account: named.account,
            MapLot: named.mapLot,
            Location: named.location,
            SaleDate: sale.SaleDate,
            SalePrice: price,
            PricePerSqFt: area && area > 0 ? round(price / area, 2) : null,
            LivingArea: area,
            YearBuilt: year,
            DistanceMiles: round(c.feet / FEET_PER_MILE, 2),
            Centroid: [0, 0],
            Score: similarityScore({
              distance: c.feet / feet,
              size: subjectArea && area !== null ? Math.abs(area - subjectArea) / subjectArea : null,
              ageYears: subjectYear && year ? Math.abs(year - subjectYear) : null,
              recency: toDay! > fromDay! ? (toDay! - day) / (toDay! - fromDay!) : 0,
            }),
            Book: sale.Book ?? '',
            Page: sale.Page ?? '',
            SaleType: sale.SaleType ?? '',
            SaleParty: sale.SaleParty ?? '',
            ArmsLength: reason === null,
          };
          found.push({ comparable, shape: c.shape });
        });
      });
      found.sort((a, b) => byScore(a.comparable, b.comparable));
      // Centroids in longitude/latitude for the few listed only.
      const listed = found
        .slice(0, MAX_COMPARABLES)
        .map(({ comparable, shape }) => ({ ...comparable, Centroid: lonLatCentroid(index, shape) }));

      const subject = recordAt(index, own);
      return {
        Subject: {
          Account: subject.account,
          MapLot: subject.mapLot,
          Location: subject.location,
          PropertyClass: subjectClass,
          LivingArea: subjectArea,
          YearBuilt: subjectYear,
          Centroid: lonLatCentroid(index, subjectShape),
        },
        Criteria: {
          DistanceMiles: q.distance,
          Years: q.years,
          Size: q.size,
          PeriodFrom: fromDay === null ? null : dateOf(fromDay),
          PeriodTo: toDay === null ? null : dateOf(toDay),
          LivingAreaMin: minArea,
          LivingAreaMax: maxArea,
          AllSales: q.allSales,
        },
        Comparables: listed,
        Total: found.length,
        NotArmsLength: notArms,
        DataAsOf: town.lastUpdated ? town.lastUpdated.toISOString() : null,
      };
    },
  };
}

export type ComparablesService = ReturnType<typeof createComparablesService>;
