import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  COMPARABLE_DISTANCE,
  COMPARABLE_SIZES,
  COMPARABLE_YEARS,
  ComparablesQuery,
  ComparablesResponse,
  DEFAULT_COMPARABLE_SIZE,
  ErrorBody,
  MAX_COMPARABLES,
  NOMINAL_SALE_PRICE,
  ParcelParams,
} from '@opp/contracts';
import { comparablesCsv } from './comparables-csv.ts';
import { createComparablesService } from './comparables.service.ts';

const tags = ['Public'];

const COMPARABLES_DESCRIPTION =
  "Sales of other parcels like `account`'s, from the town's published roll. A sale is listed when its " +
  `parcel's centroid lies within \`distance\` miles of the subject's (${COMPARABLE_DISTANCE.min} to ` +
  `${COMPARABLE_DISTANCE.max}, default ${COMPARABLE_DISTANCE.default}; measured in feet on a transverse ` +
  "Mercator projection centred on the town's parcel map), its date falls within the last `years` years " +
  `(${COMPARABLE_YEARS.min} to ${COMPARABLE_YEARS.max}, default ${COMPARABLE_YEARS.default}) up to the ` +
  "roll's most recent sale, its parcel has the subject's property class (the group of the town's use " +
  'code: the first three digits of a Massachusetts state class or a Vision use code, a Maine land use ' +
  'code as written), and, where the subject has a living area, its living area is within `size` percent ' +
  `of the subject's (${COMPARABLE_SIZES.join(', ')}; default ${DEFAULT_COMPARABLE_SIZE}). Sales that are ` +
  "not arm's length (a qualification such as Vision's `U`, or no price or a price under " +
  `$${NOMINAL_SALE_PRICE.toLocaleString('en-US')}) are counted by reason in \`NotArmsLength\` and left ` +
  'out unless `allSales=1`, which lists them marked `ArmsLength: false`. Ranked by `Score` (0 to 100: ' +
  'distance 35%, living area 25%, year built 20%, how recent 20%; docs/comparable-sales.md), at most ' +
  `${MAX_COMPARABLES}; \`Total\` counts them all. Sale parties are empty where owner names are withheld. ` +
  '400 names a criterion out of range; 404 when the town has no parcel map or the account has no shape.';

/** Comparable sales of a parcel (issue 49): the list, and the list as CSV. */
export const comparablesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const comparablesService = createComparablesService(app.parcels);

  app.get(
    '/comparables/:clientId/:account',
    {
      // The map's budget (plugins/rate-limit.ts): counted in kilobytes of answer, as the abutters list.
      config: { rateLimit: 'map' },
      schema: {
        tags,
        summary: 'Comparable sales of a parcel',
        description: COMPARABLES_DESCRIPTION,
        params: ParcelParams,
        querystring: ComparablesQuery,
        response: { 200: ComparablesResponse, 400: ErrorBody, 404: ErrorBody },
      },
    },
    // Serialized by the response schema: a field the contract does not declare never leaves.
    async (request) =>
      comparablesService.comparables(db, request.params.clientId, request.params.account, request.query),
  );

  app.get(
    '/comparables/:clientId/:account/comparables.csv',
    {
      config: { rateLimit: 'export' },
      schema: {
        tags,
        summary: 'Comparable sales of a parcel as CSV',
        description:
          'The list of GET /api/comparables/{clientId}/{account} (same criteria) as CSV, one sale a row in ' +
          'rank order, UTF-8 with a byte-order mark and a header row. Every text cell is quoted; one that a ' +
          'spreadsheet could run as a formula starts with an apostrophe.',
        produces: ['text/csv'],
        params: ParcelParams,
        querystring: ComparablesQuery,
        response: { 200: z.string().describe('text/csv'), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { clientId, account } = request.params;
      const list = await comparablesService.comparables(db, clientId, account, request.query);
      const name = `comparables-${account.replace(/[^A-Za-z0-9_-]+/g, '-')}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(comparablesCsv(list));
    },
  );
};
