import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18next as i18n } from '../i18n/i18n';
import { Pager } from './pager';

describe('Pager', () => {
  beforeEach(() => i18n.changeLanguage('ru'));

  it('says which page of how many, without the total unless asked', () => {
    render(<Pager page={2} pageSize={10} total={45} onPage={jest.fn()} />);
    expect(screen.getByText('Страница 2 из 5')).toBeInTheDocument();
  });

  it('names the buttons in English when the interface is', async () => {
    await i18n.changeLanguage('en');
    const onPage = jest.fn();
    render(<Pager page={2} pageSize={10} total={45} onPage={onPage} showTotal />);
    expect(screen.getByText('Page 2 of 5 · 45 in all')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(3);
  });
});
