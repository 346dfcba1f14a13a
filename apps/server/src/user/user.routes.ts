import type { FastifyInstance } from 'fastify';
import { forgotPasswordCall, resetPasswordCall } from '@vitrine/contract/session';
import { registerCall } from '../http/route.ts';
import type { UserService } from './user.service.ts';

export function userRoutes(app: FastifyInstance, users: UserService): void {
  registerCall(app, forgotPasswordCall, async ({ body }) => users.forgotPassword(body));
  registerCall(app, resetPasswordCall, async ({ body }) => users.resetPassword(body));
}
