/**
 * Browser storage in which the guided tour has been seen on the dashboard and on search, so that
 * journeys about something else are not interrupted by it; the tour's own journey starts without.
 */
export function toursSeen(baseURL: string) {
  return {
    cookies: [],
    origins: [{ origin: baseURL, localStorage: [{ name: 'tour', value: JSON.stringify(['dashboard', 'search']) }] }],
  };
}
