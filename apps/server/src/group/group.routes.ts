import type { FastifyInstance } from 'fastify';
import {
  changeGroupCall,
  createGroupCall,
  groupHistoryCall,
  groupRollbackCall,
  listGroupsCall,
  removeGroupCall,
} from '@vitrine/contract/groups';
import { registerCall } from '../http/route.ts';
import type { GroupService } from './group.service.ts';

/** Groups and their rights in the admin area (issue #50): admins only. */
export function groupRoutes(app: FastifyInstance, groups: GroupService): void {
  registerCall(app, listGroupsCall, async ({ request }) => groups.list(request.auth));
  registerCall(app, createGroupCall, async ({ request, body }) => groups.create(request.auth, body));
  registerCall(app, groupHistoryCall, async ({ request, query }) => groups.history(request.auth, query.limit));
  registerCall(app, groupRollbackCall, async ({ request, params }) => groups.rollback(request.auth, params.id ?? ''));
  registerCall(app, changeGroupCall, async ({ request, params, body }) =>
    groups.change(request.auth, params.name ?? '', body),
  );
  registerCall(app, removeGroupCall, async ({ request, params }) => groups.remove(request.auth, params.name ?? ''));
}
