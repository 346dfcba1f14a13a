import type { FastifyInstance } from 'fastify';
import { forgotPasswordCall, resetPasswordCall } from '@vitrine/contract/session';
import { registerCall } from '../http/route.ts';
import { requestLocale } from '../http/locale.ts';
import type { UserService } from './user.service.ts';

export function userRoutes(app: FastifyInstance, users: UserService): void {
  registerCall(app, forgotPasswordCall, async ({ body, request }) =>
    users.forgotPassword({ user: body.user, locale: requestLocale(request), client: request.ip }),
  );
  registerCall(app, resetPasswordCall, async ({ body }) => users.resetPassword(body));
}
