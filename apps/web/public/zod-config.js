// zod keeps its settings on globalThis; set before any module of the app builds a schema. Without
// it zod probes for `new Function` while the first object schema is built, which the
// Content-Security-Policy (no 'unsafe-eval') refuses and reports. The plain parsers need no eval.
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };
