import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorBody,
  ExportQuerystring,
  IdParam,
  LandBuildingOptions,
  MAX_EXPORT_ROWS,
  MAX_RESULT_POINTS,
  MAX_SUGGESTIONS,
  ResultPoints,
  SearchAliasBody,
  SearchBody,
  SearchQuerystring,
  SearchResponse,
  SuggestQuerystring,
  SuggestResponse,
} from '@opp/contracts';
import { compiledResponses } from '../../lib/response-serializer.ts';
import { isNotModified, rollEtag } from '../../plugins/conditional-get.ts';
import type { ClientRow } from '../clients/clients.repository.ts';
import { ownerSettingsTag } from '../properties/owner-privacy.ts';
import { createSearchService } from './search.service.ts';

const tags = ['Public'];
const ClientParams = z.object({ clientId: IdParam });
const NotModified = z
  .null()
  .describe('Not modified: the copy named by If-None-Match / If-Modified-Since is current');

/**
 * Validators for answers computed from the client's published roll: they change only with the roll and
 * the town's owner settings.
 */
const rollValidators = (kind: string, client: ClientRow) => ({
  etag: rollEtag([
    kind,
    client.id,
    client.activeRollId,
    client.lastUpdated?.getTime() ?? null,
    ownerSettingsTag(client),
  ]),
  lastModified: client.lastUpdated,
});

const SEARCH_DESCRIPTION =
  'One page of the town\'s parcels matching `query` (words, see "Search semantics" above) and `filters`, ' +
  'in `sort` order. `page` counts from 1; `pagesize` defaults to 50, at most 500. A page past the end ' +
  'is an empty list with the right totals; `Pages` is ceil(TotalRecords / PageSize). `LastUpdated` ' +
  'says when the roll was published. Inactive towns answer 404.';

/** Spec §7 public search calls, plus the CSV export and type-ahead. */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const searchService = createSearchService(app.rollIndexes);
  /** A search as both of its routes take it: the page in the query string, the filters in the body. */
  const search = (
    clientId: number,
    { query, page, pagesize }: z.infer<typeof SearchQuerystring>,
    { filters, sort }: Pick<z.infer<typeof SearchBody>, 'filters' | 'sort'>,
  ) => searchService.search(db, clientId, { query, page, pageSize: pagesize, filters, sort });

  app.post(
    '/propertysearch/:clientId',
    {
      serializerCompiler: compiledResponses,
      schema: {
        tags,
        summary: "Search a town's properties",
        description: SEARCH_DESCRIPTION,
        params: ClientParams,
        querystring: SearchQuerystring,
        body: SearchBody,
        response: { 200: SearchResponse, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => search(request.params.clientId, request.query, request.body),
  );

  app.post(
    '/search/:id',
    {
      serializerCompiler: compiledResponses,
      schema: {
        tags,
        summary: "Search a town (the provider console's alias of propertysearch)",
        description:
          `${SEARCH_DESCRIPTION} Answers exactly as POST /api/propertysearch/{clientId}. The body may ` +
          'also be the filter object itself (`{ sale, land, building }`), as the provider console sends it.',
        params: z.object({ id: IdParam }),
        querystring: SearchQuerystring,
        body: SearchAliasBody,
        response: { 200: SearchResponse, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => search(request.params.id, request.query, request.body),
  );

  app.get(
    '/propertysearch/:clientId/export.csv',
    {
      schema: {
        tags,
        summary: "A search's whole result as CSV",
        description:
          `The same search as POST /api/propertysearch, every page at once, as CSV (at most ${MAX_EXPORT_ROWS} ` +
          'rows, in sort order). Parameters: `query` as in the search; `filters` and `sort` are the JSON the ' +
          'search takes in its body, URL-encoded, e.g. `?query=smith&sort=%7B%22sortby%22%3A%22Name%22%7D`. ' +
          'UTF-8 with a byte-order mark and a header row. Headers: `X-Total-Records` (the whole result; an ' +
          'estimate when `X-Total-Is-Estimate: true`, which happens only past the row limit) and ' +
          '`X-Export-Truncated: true` when the result held more rows than were sent.',
        produces: ['text/csv'],
        params: ClientParams,
        querystring: ExportQuerystring,
        response: {
          200: z.string().describe('text/csv'),
          304: NotModified,
          400: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { query, filters, sort } = request.query;
      const client = await searchService.publicClient(db, request.params.clientId);
      const plan = searchService.planExport(client, { query, filters, sort });
      if (isNotModified(request, reply, rollValidators('csv', client))) return reply.code(304).send(null);
      const result = await searchService.exportCsv(db, plan);
      const slug = client.city.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'town';
      const stream = result.stream;
      stream.on('error', (err) => request.log.warn({ err }, 'CSV export ended early'));
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${slug}-properties.csv"`)
          .header('x-total-records', String(result.total))
          .header('x-total-is-estimate', String(result.estimated))
          .header('x-export-truncated', String(result.truncated))
          // A stream bypasses the serializer; the 200 schema above documents the CSV text it produces.
          .send(stream as unknown as string)
      );
    },
  );

  app.get(
    '/propertysearch/:clientId/points',
    {
      serializerCompiler: compiledResponses,
      // Up to a few megabytes for a city's every result: charged to the map's budget by size.
      config: { rateLimit: 'map' },
      schema: {
        tags,
        summary: "Where a search's results are, for the results map",
        description:
          'The same search as the CSV export (`query`, `filters` and `sort` as its parameters), every page ' +
          `at once: the first ${MAX_RESULT_POINTS} results in sort order, each on the town's parcel map as ` +
          "`[Account, Location, longitude, latitude]` (its parcel's centroid; results without a shape are " +
          'left out). `TotalRecords` counts every match and `RecordsRead` those read. 404 when the town ' +
          'has no parcel map.',
        params: ClientParams,
        querystring: ExportQuerystring,
        response: { 200: ResultPoints, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { query, filters, sort } = request.query;
      const client = await searchService.publicClient(db, request.params.clientId);
      const plan = searchService.planExport(client, { query, filters, sort });
      // No validators: the answer changes with the parcel layer too, which the roll's do not name.
      return searchService.resultPoints(db, plan, app.parcels);
    },
  );

  app.get(
    '/suggest/:clientId',
    {
      serializerCompiler: compiledResponses,
      schema: {
        tags,
        summary: 'Type-ahead suggestions',
        description:
          `Up to ${MAX_SUGGESTIONS} owner names, street addresses and map/lots of the town in which every word ` +
          'of `q` starts a word (the same matching as the search `query`, except that words already followed ' +
          'by a space match whole). `account` names the parcel when the entry is known to belong to exactly ' +
          'one, else null (run a search with the text). Entries starting with the typed text come first.',
        params: ClientParams,
        querystring: SuggestQuerystring,
        response: { 200: SuggestResponse, 304: NotModified, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const client = await searchService.publicClient(db, request.params.clientId);
      const suggestions = await searchService.suggest(db, client, request.query.q);
      if (isNotModified(request, reply, rollValidators('suggest', client))) return reply.code(304).send(null);
      return { suggestions };
    },
  );

  app.get(
    '/landbuilding/:clientId',
    {
      schema: {
        tags,
        summary: 'Land types and building styles for the advanced search',
        description:
          "The distinct land types (land lines' LandDescription) and residential building styles " +
          "(BuildingType) present in the town's published roll, sorted: the advanced search's checkboxes.",
        params: ClientParams,
        response: { 200: LandBuildingOptions, 304: NotModified, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const client = await searchService.publicClient(db, request.params.clientId);
      if (isNotModified(request, reply, rollValidators('landbuilding', client)))
        return reply.code(304).send(null);
      return searchService.landBuilding(db, client);
    },
  );
};
