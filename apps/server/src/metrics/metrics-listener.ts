import Fastify from 'fastify';
import type { Metrics } from './metrics.ts';

export interface MetricsListener {
  /** The port it listens on (METRICS_PORT, or the one the system chose for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on a listener of its own (METRICS_HOST:METRICS_PORT, loopback unless told),
 * never on the portal's port: what it tells (routes, queues, memory) is for operators, and a
 * separate address keeps it off the public network unless someone puts it there.
 */
export async function listenForMetrics(
  metrics: Metrics,
  at: { host: string; port: number },
  log: { error(obj: object, msg: string): void },
): Promise<MetricsListener> {
  const server = Fastify({ logger: false });
  server.get('/metrics', async (_request, reply) => {
    try {
      const text = await metrics.render();
      return await reply.type(metrics.contentType).send(text);
    } catch (err) {
      log.error({ err }, 'metrics could not be collected');
      return reply.code(500).type('text/plain').send('metrics could not be collected\n');
    }
  });
  await server.listen({ host: at.host, port: at.port });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : at.port,
    close: () => server.close(),
  };
}
