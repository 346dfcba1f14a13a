import type { FastifyInstance } from 'fastify';
import {
  binAssetsCall,
  binListCall,
  editApplyCall,
  editAssetCall,
  editHistoryCall,
  editOptionsCall,
  editPreviewCall,
  removeAssetsCall,
  resetFieldCall,
  restoreAssetsCall,
  undoEditCall,
} from '@vitrine/contract/edit';
import { registerCall } from '../http/route.ts';
import type { EditService } from './edit.service.ts';

export function editRoutes(app: FastifyInstance, edits: EditService): void {
  registerCall(app, editOptionsCall, async ({ request }) => edits.options(request.auth));
  registerCall(app, editAssetCall, async ({ request, query }) => edits.asset(request.auth, query));
  registerCall(app, editPreviewCall, async ({ request, body }) => edits.preview(request.auth, body));
  registerCall(app, editApplyCall, async ({ request, body }) => edits.apply(request.auth, body));
  registerCall(app, binAssetsCall, async ({ request, body }) => edits.setStatus(request.auth, body, 'bin'));
  registerCall(app, restoreAssetsCall, async ({ request, body }) => edits.setStatus(request.auth, body, 'active'));
  registerCall(app, binListCall, async ({ request, query }) => edits.binList(request.auth, query));
  registerCall(app, removeAssetsCall, async ({ request, body }) => edits.remove(request.auth, body));
  registerCall(app, editHistoryCall, async ({ request, query }) => edits.history(request.auth, query));
  registerCall(app, undoEditCall, async ({ request, body }) => edits.undo(request.auth, body));
  registerCall(app, resetFieldCall, async ({ request, body }) => edits.reset(request.auth, body));
}
