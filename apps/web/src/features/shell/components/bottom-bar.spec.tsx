import { screen, within } from '@testing-library/react';
import { answerApi, renderApp } from '../../../../test/render-app';

describe('phone bottom bar', () => {
  beforeEach(() => {
    localStorage.clear();
    answerApi({});
  });

  // jsdom has no layout: the widths themselves are checked in the browser journey (phone part).
  it('gives each tab its whole label on one line and an equal share of the room left over', async () => {
    renderApp('/', 'mobile');
    const bar = await screen.findByRole('navigation', { name: 'Нижняя навигация' });
    const tabs = within(bar).getAllByRole('link');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Главная', 'Цены', 'Документация', 'Войти']);
    for (const tab of tabs) {
      const classes = tab.className.split(' ');
      // flex-1 made equal cells, too narrow for 'Активность' among six tabs at 360 px; a wrap split 'API-ключи'.
      expect(classes).toEqual(expect.arrayContaining(['flex-auto', 'whitespace-nowrap']));
      expect(classes).not.toContain('flex-1');
    }
  });
});
