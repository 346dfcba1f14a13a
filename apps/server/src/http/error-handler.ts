import path from 'node:path';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorId } from '@vitrine/contract/errors';
import { DomainError } from './errors.ts';

const where: Record<string, string> = { querystring: 'query', body: 'body', params: 'path', headers: 'header' };

function fastifyErrorId(error: FastifyError): ErrorId | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'validation';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return 'unsupported_media_type';
    default:
      return undefined;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A message without the server's folders: every path below one of `folders`, and any other
 * absolute path of two or more parts, becomes `…`, and stack frames are dropped. Messages of domain errors are written for people, but some quote what a tool
 * or the file system said, and those name files on the server.
 */
export function withoutServerPaths(message: string, folders: readonly string[]): string {
  const pattern = folders
    .map((f) => path.resolve(f))
    .filter((f) => f !== path.parse(f).root)
    .map(escapeRegExp)
    .sort((a, b) => b.length - a.length)
    .join('|');
  const known = pattern ? message.replace(new RegExp(`(?:${pattern})(?:[\\/][^\\s'"\`,;)]*)?`, 'g'), '…') : message;
  return (
    known
      .replace(/\n\s*at .*/g, '')
      .replace(/\s+at (?:[\w.<>]+ )?\(?(?:file:\/\/|node:|\/)\S*:\d+:\d+\)?/g, '')
      // Any other absolute path of two or more parts (an import folder elsewhere); not `//host`.
      .replace(/(^|[\s'"(=[])\/(?![/\s])[^\s'"`,;)]*\/[^\s'"`,;)]*/g, '$1…')
  );
}

/**
 * One error handler for the whole API: domain errors and request-validation failures answer with
 * their stable id and a readable message; anything else is logged and answered with a generic 500
 * that reveals nothing of the internals. No answer names a path below `serverFolders` (the data
 * folder, the temporary folder, the server's own): such a message is logged whole and answered
 * without them.
 */
export function installErrorHandler(app: FastifyInstance, serverFolders: readonly string[] = []): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    let status: number;
    let body: ErrorBody;
    if (error instanceof DomainError) {
      status = error.status;
      body = {
        error: error.id,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        ...(error.retryAfterMinutes ? { retryAfterMinutes: error.retryAfterMinutes } : {}),
      };
      void reply.headers(error.headers);
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => {
        const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        const part = where[error.validationContext ?? ''] ?? 'request';
        return { path: path ? `${part}.${path}` : part, message: v.message ?? 'is invalid' };
      });
      status = 400;
      body = {
        error: 'validation',
        message: `The request is not valid: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
        details,
      };
    } else if (fastifyErrorId(error)) {
      const id = fastifyErrorId(error) as ErrorId;
      status = error.statusCode ?? 400;
      const messages: Partial<Record<ErrorId, string>> = {
        validation: 'The request body is not valid JSON.',
        payload_too_large: 'The request body is too large.',
        unsupported_media_type: 'This content type is not accepted here.',
      };
      body = { error: id, message: messages[id] ?? error.message };
    } else if (error.statusCode === 429) {
      status = 429;
      body = { error: 'rate_limited', message: 'Too many requests. Please try again shortly.' };
    } else {
      request.log.error({ err: error }, 'unhandled error');
      status = 500;
      body = { error: 'internal', message: 'Something went wrong on the server. Please try again.' };
    }
    const message = withoutServerPaths(body.message, serverFolders);
    const details = body.details?.map((d) => ({ ...d, message: withoutServerPaths(d.message, serverFolders) }));
    if (message !== body.message || JSON.stringify(details) !== JSON.stringify(body.details)) {
      request.log.warn({ err: error }, 'an error answer named files on the server; answered without them');
      body = { ...body, message, ...(details ? { details } : {}) };
    }
    return reply.status(status).send(body);
  });

  app.setNotFoundHandler(async (request, reply) =>
    reply
      .status(404)
      .send({ error: 'not_found', message: `There is no ${request.method} ${request.url.split('?')[0]}.` }),
  );
}
