import { screen, within } from '@testing-library/react';
import { answerApi, renderApp } from '../../../../test/render-app';

const model = {
  model: 'gpt-4o-mini',
  context_window: 128000,
  provider: 'openai',
  input_price: 0.15,
  output_price: 0.6,
  cached_input_price: 0.075,
  intelligence: 3,
  speed: 4,
  sota: false,
  deprecated: false,
};

describe('price list', () => {
  it('leaves the context column out on a phone-wide screen, so a phone shows the prices without a sideways scroll', async () => {
    answerApi({
      '/api/pricing': { status: 200, body: { success: true, message: '', data: [model], group_ratio: {} } },
    });
    renderApp('/price', 'mobile');
    const header = await screen.findByRole('columnheader', { name: 'Контекст' });
    const row = await screen.findByTestId('price-row');
    const contextCell = row.querySelectorAll('td')[1];
    for (const cell of [header, contextCell]) {
      // Tailwind: not shown below the sm breakpoint (640 px), a table cell from it on.
      expect(cell.className.split(' ')).toEqual(expect.arrayContaining(['hidden', 'sm:table-cell']));
    }
    expect(row.closest('table')?.className.split(' ')).not.toContain('min-w-[560px]');
  });

  it("runs a model's name along its row's top on a phone, on one line, so it never breaks mid-name", async () => {
    answerApi({
      '/api/pricing': { status: 200, body: { success: true, message: '', data: [model], group_ratio: {} } },
    });
    renderApp('/price', 'mobile');
    const row = await screen.findByTestId('price-row');
    const name = within(row).getByRole('link', { name: 'gpt-4o-mini' });
    expect(name.className.split(' ')).toContain('whitespace-nowrap');
    // Below sm (640 px) the name leaves its column and spans the row (positioned against it) above the prices.
    expect(name.parentElement?.className.split(' ')).toEqual(
      expect.arrayContaining(['max-sm:absolute', 'max-sm:inset-x-0']),
    );
    expect(row.className.split(' ')).toContain('relative');
  });
});
