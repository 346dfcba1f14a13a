import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { PlainIcon } from './icons.tsx';

/**
 * A text button as MUI's Button draws it (app/controls.css): medium or small, outlined or not, with
 * an icon before its label. Plain, for the controls of a first screen: no styles are serialised at
 * its first render, and the page's first paint draws its place with the same rules.
 */
export const TextButton = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { small?: boolean; outlined?: boolean; icon?: string }
>(function TextButton({ small, outlined, icon, className, children, ...rest }, ref) {
  const classes = ['vt-button', small && 'vt-button-small', outlined && 'vt-button-outlined', className];
  return (
    <button ref={ref} type="button" className={classes.filter(Boolean).join(' ')} {...rest}>
      {icon && (
        <span className="vt-button-icon">
          <PlainIcon path={icon} />
        </span>
      )}
      {children}
    </button>
  );
});
