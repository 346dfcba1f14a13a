import { useTranslation } from '../lib/translate.tsx';

/**
 * A grey block in the place of content that is loading (a collection row, a preview, a card). It
 * is an indeterminate progress bar to assistive technology: a name on a plain element is not
 * allowed (ARIA) and would not be read.
 */
export function LoadingBlock({ height }: { height: number }) {
  const { t } = useTranslation();
  // Plain, with static rules (app/controls.css): no styles serialised where a screen first draws it.
  return <div className="vt-skeleton" style={{ height }} role="progressbar" aria-label={t('global.loading')} />;
}
