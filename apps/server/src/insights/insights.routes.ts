import type { FastifyInstance } from 'fastify';
import { insightsCall, insightViewCall } from '@vitrine/contract/insights';
import { registerCall } from '../http/route.ts';
import type { InsightsService } from './insights.service.ts';

export function insightsRoutes(app: FastifyInstance, insights: InsightsService): void {
  registerCall(app, insightsCall, async ({ request, query }) => insights.report(request.auth, query));
  registerCall(app, insightViewCall, async ({ request, body }) =>
    insights.recordView(request.auth, { id: body.id, client: request.ip }),
  );
}
