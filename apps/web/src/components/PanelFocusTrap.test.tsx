import { Button, Dialog, DialogActions, DialogTitle, Drawer } from '@mui/material';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectTabKeptInside } from '../test/focus.ts';
import { PanelFocusTrap } from './PanelFocusTrap.tsx';

/** A page with a trapped panel, a button outside it, and a dialog either of them can open. */
function Page() {
  const ref = useRef<HTMLDivElement>(null);
  const [dialog, setDialog] = useState(false);
  return (
    <>
      <Button onClick={() => setDialog(true)}>Outside</Button>
      <PanelFocusTrap open rootRef={ref}>
        <div ref={ref} role="region" aria-label="Panel" tabIndex={-1}>
          <Button>First</Button>
          <Button onClick={() => setDialog(true)}>Open dialog</Button>
          <Button>Last</Button>
        </div>
      </PanelFocusTrap>
      {dialog && (
        <Dialog open onClose={() => setDialog(false)} aria-labelledby="dialog-title">
          <DialogTitle id="dialog-title">Options</DialogTitle>
          <DialogActions>
            <Button onClick={() => setDialog(false)}>Cancel</Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}

// An error thrown in a focus handler reaches the window, not the test: collect it there.
let errors: unknown[] = [];
const onError = (e: ErrorEvent) => {
  errors.push(e.error);
  e.preventDefault();
};
beforeEach(() => {
  errors = [];
  window.addEventListener('error', onError);
});
afterEach(() => window.removeEventListener('error', onError));

/** A panel that opens while a non-modal dialog (the guided tour) holds focus. */
function PanelUnderTour() {
  const ref = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <div role="dialog" aria-modal="false" aria-label="Guided tour">
        <Button onClick={() => setOpen(true)}>Next</Button>
      </div>
      {open && (
        <PanelFocusTrap open rootRef={ref}>
          <div ref={ref} role="region" aria-label="Panel" tabIndex={-1}>
            <Button>Inside</Button>
          </div>
        </PanelFocusTrap>
      )}
    </>
  );
}

describe('PanelFocusTrap', () => {
  it('is not stood down by a closed drawer that stays mounted (its paper keeps role="dialog")', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Drawer open={false} ModalProps={{ keepMounted: true }} slotProps={{ paper: { role: 'dialog' } }}>
          <Button>In the drawer</Button>
        </Drawer>
        <Page />
      </>,
    );
    expect(screen.getByRole('region', { name: 'Panel' })).toHaveFocus();
    await user.tab();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
  });

  it('opening while the tour holds focus leaves the focus with the tour', async () => {
    const user = userEvent.setup();
    render(<PanelUnderTour />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('region', { name: 'Panel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
  });

  it('takes focus when it opens and keeps Tab inside the panel', async () => {
    const user = userEvent.setup();
    render(<Page />);
    expect(screen.getByRole('region', { name: 'Panel' })).toHaveFocus();
    const [first, last] = [screen.getByRole('button', { name: 'First' }), screen.getByRole('button', { name: 'Last' })];
    await expectTabKeptInside(user, first, last, 3);
  });

  it('stands down while a dialog opened from the panel is open; Escape closes it and focus comes back', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.tab();
    await user.tab();
    const opener = screen.getByRole('button', { name: 'Open dialog' });
    expect(opener).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Options' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
    // The trap holds again.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Last' })).toHaveFocus();
    expect(errors).toEqual([]);
  });

  it('lets a pointer take focus out of the panel; a dialog opened there gives focus back to its opener', async () => {
    const user = userEvent.setup();
    render(<Page />);
    const outside = screen.getByRole('button', { name: 'Outside' });
    await user.click(outside);
    const dialog = await screen.findByRole('dialog', { name: 'Options' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(outside).toHaveFocus();
    // A click into the panel holds focus there again.
    await user.click(screen.getByRole('button', { name: 'Last' }));
    await user.tab();
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
    expect(errors).toEqual([]);
  });
});
