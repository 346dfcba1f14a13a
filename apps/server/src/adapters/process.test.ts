import { describe, expect, it } from 'vitest';
import { runTool, TOOL_NICE } from './process.ts';

describe('runTool', () => {
  it('runs tools at a lower CPU priority than the server, so its answers go first', async () => {
    // The shell waits a moment, then asks its own niceness (which its child `nice` inherits).
    const out = await runTool('sh', ['-c', 'sleep 0.3; nice']);
    expect(Number(out.toString('utf8').trim())).toBe(TOOL_NICE);
  });

  it("answers the tool's output, and its last lines of errors when it fails", async () => {
    expect((await runTool('sh', ['-c', 'printf done'])).toString('utf8')).toBe('done');
    await expect(runTool('sh', ['-c', 'echo broken >&2; exit 3'])).rejects.toThrow('sh failed: broken');
  });
});
