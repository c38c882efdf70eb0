import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { toast } from 'sonner';
import { i18next } from '../../../i18n/i18n';
import { AppToaster } from './app-toaster';

async function toasterAt(path: string): Promise<HTMLElement> {
  await i18next.changeLanguage('ru');
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppToaster />
    </MemoryRouter>,
  );
  act(() => void toast('Недостаточно средств на балансе'));
  await screen.findByText('Недостаточно средств на балансе');
  return document.querySelector<HTMLElement>('[data-sonner-toaster]')!;
}

describe('AppToaster', () => {
  afterEach(() => act(() => void toast.dismiss()));

  it('sits in the bottom-right corner, on phones above the bottom bar when one is shown', async () => {
    const toaster = await toasterAt('/dashboard/home');
    expect(toaster).toHaveAttribute('data-x-position', 'right');
    expect(toaster).toHaveAttribute('data-y-position', 'bottom');
    expect(toaster.style.getPropertyValue('--offset-bottom')).toBe('24px');
    // The bar's height comes from the variable the bottom bar sets; /login has no bar, so 16 px from the foot.
    expect(toaster.style.getPropertyValue('--mobile-offset-bottom')).toBe(
      'calc(var(--bottom-bar-height, 0px) + 16px)',
    );
  });

  it('on a chat, sits above the message box, so a refusal does not cover the Send button', async () => {
    const toaster = await toasterAt('/dashboard/chat/12');
    expect(toaster.style.getPropertyValue('--offset-bottom')).toBe('120px');
    expect(toaster.style.getPropertyValue('--mobile-offset-bottom')).toBe(
      'calc(var(--bottom-bar-height, 0px) + 112px)',
    );
  });
});
