import type { FastifyInstance } from 'fastify';
import { getBookmarksCall, saveBookmarksCall } from '@vitrine/contract/bookmark';
import { registerCall } from '../http/route.ts';
import type { BookmarkService } from './bookmark.service.ts';

export function bookmarkRoutes(app: FastifyInstance, bookmarks: BookmarkService): void {
  registerCall(app, getBookmarksCall, async ({ request }) => bookmarks.list(request.auth));
  registerCall(app, saveBookmarksCall, async ({ request, body }) => bookmarks.save(request.auth, body));
}
