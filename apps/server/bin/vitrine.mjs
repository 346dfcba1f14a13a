#!/usr/bin/env node
// Runs the TypeScript sources directly; tsx compiles them on load.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
