import type { FastifyRequest } from 'fastify';
import type { Role } from '../../db/schema/index.ts';
import { conflictResponse } from '../../http/envelope.ts';
import { forbidden } from '../../http/errors.ts';
import { tenantOf } from '../../http/tenant.ts';

export const errors = conflictResponse;

/** The caller's role from the tenant guard; these routes take users only (`config.auth: 'user'`). */
export function roleOf(request: FastifyRequest): Role {
  const role = tenantOf(request).role;
  if (!role) throw forbidden();
  return role;
}
