import type { ConfigKey } from './config-keys.ts';

/**
 * Keys of the global config that the portal does not read, and who does. Every other key is read
 * by the portal (its pages, its first paint or the server's answers to it): a new key counts as
 * one until it is listed here, so one that nothing reads is found by the reader coverage test.
 *
 * A list beside the schema rather than a mark in it: the same part of the schema (a field list, a
 * text per language) sits under several keys that are read by different code, and the schema
 * every config is parsed with stays free of what only the tests need.
 */
export const configKeysNotReadByPortal: Partial<Record<ConfigKey, 'admin area' | 'upgrade' | 'nothing'>> = {
  // The upgrade reads it from the stored config before that is parsed (admin-spec §4).
  version: 'upgrade',
  // The names of the logo switches in the admin area.
  'visibleLogos[].translation': 'admin area',
  // Facet values are formatted by filterVal; formatVal has no meaning yet.
  'facets[].options.formatVal': 'nothing',
  // The view switch draws the portal's own icon for each view.
  'search.views.options[].icon': 'nothing',
  // The sort menu offers both orientations (portal-spec §4).
  'sorting.orientation.options[]': 'nothing',
};
