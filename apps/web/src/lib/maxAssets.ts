/**
 * Bookmarking or downloading `count` assets at once asks first when it exceeds maxAssets of
 * info/downloads, unless that is -1 (unlimited) (portal-spec §4 "Bookmark toggle", §2 confirmations).
 */
export function needsConfirmation(count: number, maxAssets: number): boolean {
  return maxAssets !== -1 && count > maxAssets;
}
