import type { FastifyInstance, FastifyRequest } from 'fastify';
import { damCollectionsCall, getCollectionCall, listCollectionsCall } from '@vitrine/contract/collection';
import { assetsCall, contentLocalesCall, indexFieldsCall, searchCall, suggestionsCall } from '@vitrine/contract/search';
import { registerCall } from '../http/route.ts';
import type { Caller, SearchService } from './search.service.ts';

const caller = (request: FastifyRequest): Caller => ({
  auth: request.auth,
  acceptLanguage: request.headers['accept-language'],
  client: request.ip,
});

export function searchRoutes(app: FastifyInstance, search: SearchService): void {
  registerCall(app, searchCall, async ({ request, query }) => search.search(caller(request), query));
  registerCall(app, assetsCall, async ({ request, query }) => search.assets(caller(request), query.assetid));
  registerCall(app, suggestionsCall, async ({ request, query }) => search.suggestions(caller(request), query));
  registerCall(app, indexFieldsCall, async ({ request }) => search.fields(request.auth));
  registerCall(app, contentLocalesCall, async ({ request }) => search.contentLocales(request.auth));
  registerCall(app, listCollectionsCall, async ({ request }) => search.listCollections(caller(request)));
  registerCall(app, damCollectionsCall, async ({ request }) => search.damCollections(request.auth));
  registerCall(app, getCollectionCall, async ({ request, query }) => search.getCollection(caller(request), query));
}
