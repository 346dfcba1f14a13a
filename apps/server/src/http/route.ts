import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { API_BASE_PATH, type CallDefinition, type CallParsedBody, type CallParsedQuery } from '@vitrine/contract/call';
import { errorBodySchema } from '@vitrine/contract/errors';
import { validation } from './errors.ts';
import { unknownKeys } from './unknown-keys.ts';

export interface CallInput<C extends CallDefinition> {
  query: CallParsedQuery<C>;
  body: CallParsedBody<C>;
  params: Record<string, string>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type CallHandler<C extends CallDefinition> = (input: CallInput<C>) => Promise<z.input<C['response']>>;

/**
 * Registers one contract call: the contract's schemas validate the request (a mismatch is a 400
 * `validation` answer; so is a body key the schema does not name) and describe the answer in the
 * OpenAPI document. Routes stay thin: the handler calls one service and returns its answer.
 */
export function registerCall<C extends CallDefinition>(app: FastifyInstance, call: C, handler: CallHandler<C>): void {
  app.route({
    method: call.method,
    url: API_BASE_PATH + call.path,
    schema: {
      summary: call.summary,
      tags: [call.path.split('/')[0] || 'root'],
      ...(call.query ? { querystring: call.query } : {}),
      ...(call.body ? { body: call.body } : {}),
      response: { 200: call.response, '4xx': errorBodySchema, '5xx': errorBodySchema },
    },
    ...(call.body ? { preValidation: refuseUnknownKeys(call.body) } : {}),
    handler: async (request, reply) =>
      handler({
        query: request.query as CallParsedQuery<C>,
        body: request.body as CallParsedBody<C>,
        params: request.params as Record<string, string>,
        request,
        reply,
      }),
  });
}

function refuseUnknownKeys(schema: z.ZodType) {
  return async (request: FastifyRequest): Promise<void> => {
    const unknown = unknownKeys(schema, request.body);
    if (unknown.length === 0) return;
    throw validation(
      `The request has keys this call does not know: ${unknown.join(', ')}`,
      unknown.map((path) => ({ path, message: 'is not a known key' })),
    );
  };
}
