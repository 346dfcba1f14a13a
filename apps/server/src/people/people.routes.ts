import type { FastifyInstance } from 'fastify';
import { createPersonCall, deletePersonCall, peopleCall, personCall, updatePersonCall } from '@vitrine/contract/people';
import { registerCall } from '../http/route.ts';
import type { PeopleService } from './people.service.ts';

export function peopleRoutes(app: FastifyInstance, people: PeopleService): void {
  registerCall(app, peopleCall, async ({ request, query }) => people.list(request.auth, query));
  registerCall(app, personCall, async ({ request, params }) => people.get(request.auth, params.id));
  registerCall(app, createPersonCall, async ({ request, body }) => people.create(request.auth, body));
  registerCall(app, updatePersonCall, async ({ request, params, body }) =>
    people.update(request.auth, params.id, body),
  );
  registerCall(app, deletePersonCall, async ({ request, params, query }) =>
    people.remove(request.auth, params.id, query),
  );
}
