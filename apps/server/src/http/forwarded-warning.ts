import type { FastifyInstance } from 'fastify';

/** The warning is repeated at most this often while such requests keep coming. */
export const FORWARDED_WARNING_EVERY_MS = 24 * 3600_000;

/**
 * A portal behind a proxy that `TRUST_PROXY` does not name sees every client as the proxy: the
 * per-client limits then count all clients together and the first busy office locks everyone out.
 * Nothing fails visibly, so the log says it: the first request that carries `X-Forwarded-For` from
 * a peer whose header is not believed is logged as a warning, then at most once a day.
 */
export function warnOfUntrustedForwarding(app: FastifyInstance, trustProxy: false | readonly string[]): void {
  let warnedAt: number | undefined;
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-forwarded-for'] === undefined) return;
    // Fastify took the client from the header: the peer is a trusted proxy.
    const peer = request.socket.remoteAddress;
    if (request.ip !== peer) return;
    const now = Date.now();
    if (warnedAt !== undefined && now - warnedAt < FORWARDED_WARNING_EVERY_MS) return;
    warnedAt = now;
    request.log.warn(
      { peer, trustProxy: trustProxy === false ? 'off' : trustProxy.join(',') },
      trustProxy === false
        ? 'A request came with X-Forwarded-For, but TRUST_PROXY is not set: every client behind a proxy is seen as the proxy, and per-client limits count them together. Set TRUST_PROXY to the address of the proxy in front of the portal. (Repeated at most once a day.)'
        : 'A request came with X-Forwarded-For from an address TRUST_PROXY does not name: if it is a proxy in front of the portal, add it to TRUST_PROXY, or its clients are seen as the proxy. (Repeated at most once a day.)',
    );
  });
}
