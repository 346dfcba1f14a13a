import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** What the app takes from the package's styles entry rather than from a component folder. */
const FROM_STYLES = new Set(['ThemeProvider', 'useTheme', 'styled', 'createTheme', 'alpha']);
const BARREL_IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]@mui\/material['"];?/g;

/**
 * Rewrites `import { Box, Button } from '@mui/material'` in the app's own modules into one import per
 * component folder (`import Box from '@mui/material/Box'`), as MUI documents for smaller builds. The
 * code is the same; the module graph then names only what a module really uses, so that
 * firstScreenChunk can tell exactly what the first screen loads (through the barrel, every component
 * looks imported by the shell).
 */
export function muiDeepImports(): Plugin {
  const muiDir = path.dirname(createRequire(import.meta.url).resolve('@mui/material/package.json'));
  const hasFolder = (name: string) => existsSync(path.join(muiDir, name, 'index.js'));
  return {
    name: 'vitrine-mui-deep-imports',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('@mui/material')) return null;
      const rewritten = code.replace(BARREL_IMPORT, (whole, list: string) => {
        const deep: string[] = [];
        const styles: string[] = [];
        const rest: string[] = [];
        for (const specifier of list
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          const [name = '', local = name] = specifier.split(/\s+as\s+/);
          if (FROM_STYLES.has(name)) styles.push(specifier);
          else if (hasFolder(name)) deep.push(`import ${local} from '@mui/material/${name}';`);
          else rest.push(specifier);
        }
        if (rest.length && !deep.length && !styles.length) return whole;
        return [
          ...deep,
          ...(styles.length ? [`import { ${styles.join(', ')} } from '@mui/material/styles';`] : []),
          ...(rest.length ? [`import { ${rest.join(', ')} } from '@mui/material';`] : []),
        ].join('\n');
      });
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}
