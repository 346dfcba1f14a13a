import { z } from 'zod';
import { defineCall } from './call.ts';

export const bookmarkListSchema = z.array(z.object({ id: z.string().min(1).max(64) })).max(100_000);

export const getBookmarksCall = defineCall({
  method: 'GET',
  path: 'config/bookmarks',
  summary: "The caller's bookmarks",
  response: bookmarkListSchema,
});

export const saveBookmarksCall = defineCall({
  method: 'POST',
  path: 'config/bookmarks',
  summary: "Replace the caller's bookmarks",
  body: bookmarkListSchema,
  response: bookmarkListSchema,
});

export type BookmarkList = z.infer<typeof bookmarkListSchema>;
