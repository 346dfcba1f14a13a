// The HTTP client of bench/search, in a process of its own (nothing of this is in the product): it
// asks the server as a browser would (one kept-alive connection, answers compressed with Brotli) and
// times each answer to its last byte. The bench process holds a whole search index in memory; a
// client in it paid for that heap's garbage collection and for fetch()'s own work (about 1–4 ms a
// request at a million assets), which are not the server's time. The answer is read, not decoded:
// decoding is the client's work too. Cookies the server sets (the XSRF token of the first answer) are
// sent back, as a browser does: a client without them gets a new cookie made with every answer.
//
// Messages (IPC): { url, warmups, runs, headers? } → { times: number[] } in milliseconds, or { error }.
// `headers` go with every request (e.g. an admin's session for the statistics call).
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** Cookies the server set, by name. */
const cookies = new Map();

function ask(url, extra = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { 'accept-encoding': 'br, gzip', ...extra };
    if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    http
      .get(url, { agent, headers }, (res) => {
        for (const set of res.headers['set-cookie'] ?? []) {
          const [pair = ''] = set.split(';');
          const at = pair.indexOf('=');
          if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
        }
        res.on('data', () => {});
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${url} answered ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

process.on('message', async ({ url, warmups, runs, headers }) => {
  try {
    for (let i = 0; i < warmups; i++) await ask(url, headers);
    const times = [];
    for (let i = 0; i < runs; i++) times.push(await ask(url, headers));
    process.send({ times });
  } catch (err) {
    process.send({ error: String(err) });
  }
});
