// Where the page finds the service. Today the page's own server forwards /api/v1 to the packed
// mock over HTTP (same origin, so no CORS). Once bizmsg/mock runs on Web APIs (issue 10, item 3),
// this module starts msw's setupWorker with the mock's handlers and returns the mock's own
// baseUrl and apiKey instead; nothing else in the page or the test changes.

/** @param {{ apiKey: string }} fromTest */
export async function startApi(fromTest) {
  return { baseUrl: new URL('/api/v1', location.origin).href, apiKey: fromTest.apiKey };
}
