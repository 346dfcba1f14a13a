import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The serious and critical axe-core violations on the page as it is now, one line each. axe reports
 * every node only for violations; passes and the rest are summarised, which on a full results page
 * or an admin section saves most of its time.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A dialog or menu still fading in has colours blended with the page behind it, which axe reports
  // as low contrast; finite transitions are waited for (spinners run for ever and are not).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
