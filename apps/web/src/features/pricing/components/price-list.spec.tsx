import { screen } from '@testing-library/react';
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
});
