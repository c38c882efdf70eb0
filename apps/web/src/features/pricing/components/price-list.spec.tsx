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

describe("a model's page", () => {
  const claude = {
    ...model,
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    input_price: 3,
    output_price: 15,
    cached_input_price: 0.3,
    cache_write_price: 3.75,
    cache_write_1h_price: 6,
  };

  it('shows the cache-write price, and the price for an hour, where the model has them', async () => {
    answerApi({
      '/api/pricing': { status: 200, body: { success: true, message: '', data: [claude], group_ratio: {} } },
    });
    renderApp('/model/claude-sonnet-4-5');
    const label = await screen.findByText('Запись в кэш, за 1М');
    const box = label.parentElement!;
    expect(within(box).getByText(/3,75/)).toBeInTheDocument();
    expect(within(box).getByText(/при хранении час/)).toHaveTextContent(/6,00/);
  });

  it('says nothing of cache writes for a model without a write price', async () => {
    answerApi({
      '/api/pricing': { status: 200, body: { success: true, message: '', data: [model], group_ratio: {} } },
    });
    renderApp('/model/gpt-4o-mini');
    await screen.findByText('Кэш, за 1М');
    expect(screen.queryByText('Запись в кэш, за 1М')).not.toBeInTheDocument();
  });
});
