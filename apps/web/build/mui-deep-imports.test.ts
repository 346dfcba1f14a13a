import type { TransformResult } from 'vite';
import { describe, expect, it } from 'vitest';
import { muiDeepImports } from './mui-deep-imports.ts';

/** The plugin's transform of one module of the app. */
function transform(code: string, id = '/app/src/features/x/X.tsx'): string | null {
  const hook = muiDeepImports().transform as (code: string, id: string) => TransformResult | null;
  const result = hook(code, id);
  return result ? String(result.code) : null;
}

describe('MUI imports rewritten per component folder (apps/web/build/mui-deep-imports.ts)', () => {
  it('imports each component from its folder and the theme helpers from the styles entry', () => {
    const out = transform(
      "import { Box, Button as Action, useTheme, useMediaQuery } from '@mui/material';\nexport const a = [Box, Action, useTheme, useMediaQuery];",
    );
    expect(out).toContain("import Box from '@mui/material/Box';");
    expect(out).toContain("import Action from '@mui/material/Button';");
    expect(out).toContain("import useMediaQuery from '@mui/material/useMediaQuery';");
    expect(out).toContain("import { useTheme } from '@mui/material/styles';");
    expect(out).not.toMatch(/from '@mui\/material';/);
    expect(out).toContain('export const a = [Box, Action, useTheme, useMediaQuery];');
  });

  it('keeps in the package import what has no folder of its own, and leaves other modules alone', () => {
    const out = transform("import { Box, darken } from '@mui/material';");
    expect(out).toContain("import Box from '@mui/material/Box';");
    expect(out).toContain("import { darken } from '@mui/material';");
    expect(transform("import { darken } from '@mui/material';")).toBeNull();
    expect(transform("import { Box } from '@mui/material';", '/app/node_modules/x/index.js')).toBeNull();
    expect(transform("import Box from '@mui/material/Box';")).toBeNull();
  });
});
