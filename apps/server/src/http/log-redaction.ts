import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry a secret: session and reset tokens, one-time and authorization codes,
 * OAuth state, SAML messages and media signatures. Their values never reach a log line.
 */
const SECRET_PARAMS = /^(token|code|state|session|sig|samlresponse|samlrequest|relaystate|pass|password)$/i;

/** The URL with the value of every secret query parameter replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as it came.
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/**
 * pino options for the request log: the request is logged with its URL redacted, and the headers
 * that carry sessions are censored should anything log them.
 */
export const logRedaction = {
  serializers: {
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    }),
  },
  redact: {
    paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'],
    censor: '[redacted]',
  },
};
