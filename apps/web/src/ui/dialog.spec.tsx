import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Dialog } from './dialog';

/** A button that opens a dialog, as the screens do: no Radix Trigger, the dialog mounted always or only while open. */
function Opener({ mountOnOpen }: { mountOnOpen: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {mountOnOpen && !open ? null : (
        <Dialog open={open} onOpenChange={setOpen} title="A dialog">
          <button type="button">Inside</button>
        </Dialog>
      )}
    </>
  );
}

describe('Dialog', () => {
  it.each([false, true])(
    'gives focus back to the button that opened it when closed (mounted only while open: %s)',
    async (mountOnOpen) => {
      render(<Opener mountOnOpen={mountOnOpen} />);
      const opener = screen.getByRole('button', { name: 'Open' });
      await userEvent.click(opener);
      await screen.findByRole('dialog');
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(document.activeElement).toBe(opener));
    },
  );
});
