import type { FastifyInstance } from 'fastify';
import {
  createShareCall,
  currentShareCall,
  listSharesCall,
  openShareCall,
  revokeShareCall,
  shareSettingsCall,
} from '@vitrine/contract/share';
import { requestLocale } from '../http/locale.ts';
import { registerCall } from '../http/route.ts';
import type { ShareService } from './share.service.ts';

export function shareRoutes(app: FastifyInstance, shares: ShareService): void {
  registerCall(app, shareSettingsCall, async ({ request }) => shares.settingsFor(request.auth, requestLocale(request)));
  registerCall(app, createShareCall, async ({ request, body }) => shares.create(request.auth, body));
  registerCall(app, listSharesCall, async ({ request }) => shares.list(request.auth));
  registerCall(app, revokeShareCall, async ({ request, body }) => shares.revoke(request.auth, body));
  registerCall(app, openShareCall, async ({ request, body }) =>
    shares.open({ ...body, client: request.ip, locale: requestLocale(request) }),
  );
  registerCall(app, currentShareCall, async ({ request }) => shares.current(request.auth));
}
