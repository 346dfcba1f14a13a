import { z } from 'zod';

/**
 * Where a request body holds keys its schema does not name: `body.<path>` for each. Objects of the
 * schema that accept other keys on purpose (z.looseObject, e.g. the global config, which keeps
 * what a newer version wrote) are not looked into; plain z.object ones would silently drop the
 * keys, so a misspelt or foreign key went unnoticed (a login body with `name` opened a guest
 * session).
 */
export function unknownKeys(schema: z.ZodType, value: unknown, path = 'body'): string[] {
  if (value === null || value === undefined) return [];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return unknownKeys(schema.unwrap() as z.ZodType, value, path);
  }
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, i) => unknownKeys(schema.element as z.ZodType, item, `${path}.${i}`));
  }
  if (!(schema instanceof z.ZodObject) || typeof value !== 'object' || Array.isArray(value)) return [];
  // A catchall (loose objects: unknown; strict ones: never, which zod refuses itself) ends the look.
  if (schema._zod.def.catchall !== undefined) return [];
  const shape = schema.shape as Record<string, z.ZodType>;
  return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
    const field = shape[key];
    return field ? unknownKeys(field, v, `${path}.${key}`) : [`${path}.${key}`];
  });
}
