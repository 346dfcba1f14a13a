// The HTTP client of bench/search, in a process of its own (nothing of this is in the product): it
// asks the server as a browser would (one kept-alive connection, answers compressed with Brotli) and
// times each answer to its last byte. The bench process holds a whole search index in memory; a
// client in it paid for that heap's garbage collection and for fetch()'s own work (about 1–4 ms a
// request at a million assets), which are not the server's time. The answer is read, not decoded:
// decoding is the client's work too.
//
// Messages (IPC): { url, warmups, runs } → { times: number[] } in milliseconds, or { error }.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function ask(url) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { agent, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
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

process.on('message', async ({ url, warmups, runs }) => {
  try {
    for (let i = 0; i < warmups; i++) await ask(url);
    const times = [];
    for (let i = 0; i < runs; i++) times.push(await ask(url));
    process.send({ times });
  } catch (err) {
    process.send({ error: String(err) });
  }
});
