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

/**
 * One error handler for the whole API: domain errors and request-validation failures answer with
 * their stable id and a readable message; anything else is logged and answered with a generic 500
 * that reveals nothing of the internals.
 */
export function installErrorHandler(app: FastifyInstance): void {
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
    return reply.status(status).send(body);
  });

  app.setNotFoundHandler(async (request, reply) =>
    reply
      .status(404)
      .send({ error: 'not_found', message: `There is no ${request.method} ${request.url.split('?')[0]}.` }),
  );
}
