import type { Page } from '@playwright/test';
import axe from 'axe-core';

type AxeWindow = Window & { axe?: typeof axe };

/**
 * The serious and critical axe-core violations on the page as it is now, one line each. axe reports
 * every node only for violations; passes and the rest are summarised, which on a full results page
 * or an admin section saves most of its time.
 *
 * axe runs in the page itself (`axe.run`), put there once per document: @axe-core/playwright parsed
 * its half megabyte twice per check and finished each run in a new tab of its own, which together
 * took as long as the check. The portal has no frames, which that new tab exists for.
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
  if (!(await page.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function')))
    await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const found = await (window as AxeWindow).axe!.run(document, { resultTypes: ['violations'] });
    return found.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
