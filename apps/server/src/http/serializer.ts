import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodCheckedSerializer } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serializer = (data: unknown) => string;

/**
 * A JSON serializer compiled from a response schema: the schema's JSON Schema (zod's output side)
 * turned into a fast-json-stringify function. It writes exactly the keys the schema names (as zod's
 * parse strips the others; `.catchall()` keys pass as they are), but does not check the answer: a
 * value of the wrong type is coerced, not refused. Undefined when the schema has no JSON Schema form
 * (transforms, dates, bigints…) or fast-json-stringify cannot compile it: the caller then checks
 * with zod. `eager` compiles the checks that pick a union's branch now, not at the first answer that
 * needs them (each took milliseconds of that answer's event-loop turn).
 */
export function compiledSerializer(schema: z.ZodType, eager = false): Serializer | undefined {
  try {
    const jsonSchema = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', target: 'draft-7' });
    return fastJson(JSON.parse(JSON.stringify(jsonSchema), keysLeftOut) as Parameters<typeof fastJson>[0], {
      compileValidators: eager,
    });
  } catch {
    return undefined;
  }
}

/**
 * JSON.parse reviver: drops `additionalProperties: false`. fast-json-stringify leaves keys an object
 * schema does not name out without it, but it picks the branch of a union (`anyOf`) with Ajv, which
 * would refuse an object carrying a key more; zod's parse strips such a key and takes the branch.
 */
function keysLeftOut(key: string, value: unknown): unknown {
  return key === 'additionalProperties' && value === false ? undefined : value;
}

/**
 * The serializer compiler of the server. Without `check` (production) answers are written by a
 * serializer compiled from the response schema once per route; only schemas that do not compile are
 * checked with zod instead. With `check` (the tests) every answer is parsed with its zod schema and a
 * mismatch is a 500 (fastify-type-provider-zod's serializer), and the compiled serializer must write
 * the same JSON as that check, or the answer is a 500 too: every answer an API test reads also tests
 * what production would have sent.
 */
export function responseSerializerCompiler(check: boolean): typeof zodCheckedSerializer {
  return (route) => {
    const checked = zodCheckedSerializer(route);
    // Production compiles every check at start, before the port opens; the tests build many apps.
    const compiled = route.schema instanceof z.ZodType ? compiledSerializer(route.schema, !check) : undefined;
    if (!compiled) return checked;
    if (!check) return compiled;
    return (data) => {
      const json = checked(data);
      const fast = compiled(data);
      if (!isDeepStrictEqual(JSON.parse(fast), JSON.parse(json))) {
        throw new Error(
          `The serializer compiled for ${route.method} ${route.url} (${String(route.httpStatus)}) wrote ${fast}, the zod check ${json}`,
        );
      }
      return json;
    };
  };
}
