import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tooltip } from './tooltip';

function renderTooltip() {
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  render(
    <Tooltip content="Баланс в рублях">
      <button type="button">?</button>
    </Tooltip>,
  );
  return { user, trigger: screen.getByRole('button', { name: '?' }) };
}

const tooltip = () => screen.queryByRole('tooltip');
const advance = (ms: number) => act(() => void jest.advanceTimersByTime(ms));

describe('Tooltip', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('appears 200 ms after the pointer enters, on top', async () => {
    const { user, trigger } = renderTooltip();
    await user.hover(trigger);
    advance(150);
    expect(tooltip()).toBeNull();
    advance(60);
    expect(tooltip()).toHaveTextContent('Баланс в рублях');
    expect(document.querySelector('.tooltip-bubble')).toHaveAttribute('data-side', 'top');
  });

  it('hides 100 ms after the pointer leaves the trigger', async () => {
    const { user, trigger } = renderTooltip();
    await user.hover(trigger);
    advance(250);
    await user.unhover(trigger);
    advance(90);
    expect(tooltip()).not.toBeNull();
    advance(20);
    expect(tooltip()).toBeNull();
  });

  it('stays while the pointer moves onto the bubble, and hides 50 ms after leaving it', async () => {
    const { user, trigger } = renderTooltip();
    await user.hover(trigger);
    advance(250);
    await user.unhover(trigger);
    const bubble = document.querySelector('.tooltip-bubble') as HTMLElement;
    await user.hover(bubble);
    advance(300);
    expect(tooltip()).not.toBeNull();
    await user.unhover(bubble);
    advance(40);
    expect(tooltip()).not.toBeNull();
    advance(20);
    expect(tooltip()).toBeNull();
  });
});
