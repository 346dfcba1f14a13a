import type { z } from 'zod';
import { globalConfigModel, type GlobalConfig } from './global-config.ts';

/**
 * The keys of the global config as the schema names them: dot paths to each leaf, an array's
 * element as `[]` and a record's value as `{}` (`facets[].options.preview`,
 * `terms_of_use.links{}`). Walking the schema, not a config, reaches the keys of list entries and
 * records that a config may hold none of.
 */

/** The named keys of an object type, without the index signature a loose object adds. */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 } & string;

type LeafKeys<T, P extends string> = [T] extends [readonly (infer E)[]]
  ? LeafKeys<E, `${P}[]`>
  : [T] extends [object]
    ? [NamedKeys<T>] extends [never]
      ? LeafKeys<T[keyof T], `${P}{}`>
      : { [K in NamedKeys<T>]-?: LeafKeys<NonNullable<T[K]>, P extends '' ? K : `${P}.${K}`> }[NamedKeys<T>]
    : P;

/** Every leaf key of the global config, as a type (`'global.website_title' | 'facets[].position' | …`). */
export type ConfigKey = LeafKeys<GlobalConfig, ''>;

/** Wrappers that change how a value is parsed, not which keys are under it. */
const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** The schema under optional, default, prefault, nullable, readonly, catch, pipe and lazy wrappers. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let s = schema;
  for (;;) {
    const def = s._zod.def;
    if (wrappers.has(def.type)) s = (def as z.core.$ZodOptionalDef).innerType;
    else if (def.type === 'pipe') s = (def as z.core.$ZodPipeDef).in;
    else if (def.type === 'lazy') s = (def as z.core.$ZodLazyDef).getter();
    else return s;
  }
}

/** One step down the schema: a named key of an object, `[]` of an array, `{}` of a record. */
function child(schema: z.core.$ZodType, step: string): z.core.$ZodType | undefined {
  const s = unwrap(schema);
  const def = s._zod.def;
  if (def.type === 'object' && step !== '[]' && step !== '{}') {
    return (def as z.core.$ZodObjectDef).shape[step];
  }
  if (def.type === 'array' && step === '[]') return (def as z.core.$ZodArrayDef).element;
  if (def.type === 'record' && step === '{}') return (def as z.core.$ZodRecordDef).valueType;
  return undefined;
}

/** The steps below a schema node: its named keys, `[]` or `{}`; none for a leaf. */
function steps(schema: z.core.$ZodType): string[] {
  const def = unwrap(schema)._zod.def;
  if (def.type === 'object') return Object.keys((def as z.core.$ZodObjectDef).shape);
  if (def.type === 'array') return ['[]'];
  if (def.type === 'record') return ['{}'];
  return [];
}

const join = (prefix: string, step: string) =>
  prefix === '' ? step : step === '[]' || step === '{}' ? `${prefix}${step}` : `${prefix}.${step}`;

/** The leaf keys under a schema (every key of the global config by default), in schema order. */
export function leafKeysOf(schema: z.core.$ZodType, prefix = ''): string[] {
  const below = steps(schema);
  if (below.length === 0) return [prefix];
  return below.flatMap((step) => leafKeysOf(child(schema, step)!, join(prefix, step)));
}

export const configKeys = leafKeysOf(globalConfigModel) as ConfigKey[];

/**
 * The key (`facets[].labels{}`) of a place in a config (`facets.2.labels.de`): a number under an
 * array stands for its entry, any name under a record for its value. Undefined for a place the
 * schema does not have.
 */
export function configKeyOf(path: string): string | undefined {
  let schema: z.core.$ZodType | undefined = globalConfigModel;
  let key = '';
  for (const part of path === '' ? [] : path.split('.')) {
    if (!schema) return undefined;
    const kind = unwrap(schema)._zod.def.type;
    const step = kind === 'array' ? (/^\d+$/.test(part) ? '[]' : undefined) : kind === 'record' ? '{}' : part;
    if (step === undefined) return undefined;
    schema = child(schema, step);
    key = join(key, step);
  }
  return schema ? key : undefined;
}
